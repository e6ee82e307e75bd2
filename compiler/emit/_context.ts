import path from 'node:path';
import type { ClassImport, CodeImport } from '../types.js';

/**
 * Import bookkeeping shared by the emitters: every module the generated file imports gets
 * one stable local name, in first-use order, so the output is deterministic.
 */
export class EmitContext {
  readonly outDir: string;
  readonly #locals = new Map<string, string>();
  readonly #statements: string[] = [];

  constructor(outFile: string) {
    this.outDir = path.dirname(outFile);
  }

  /** The local name of a class import (`$c0`). */
  classLocal(entry: ClassImport): string {
    return this.local(entry.file, entry.exportName, '$c');
  }

  /** The local name of an import a hoisted closure uses (`$i0`). */
  codeLocal(entry: CodeImport): string {
    return this.local(entry.from, entry.name, '$i');
  }

  /** The import statements, in first-use order. */
  statements(): string[] {
    return this.#statements;
  }

  /** A module specifier for `file` relative to the generated module (`.ts` → `.js`). */
  specifier(file: string): string {
    if (!path.isAbsolute(file)) return file;
    let relative = path.relative(this.outDir, file).split(path.sep).join('/');
    relative = relative
      .replace(/\.tsx?$/, '.js')
      .replace(/\.mts$/, '.mjs')
      .replace(/\.cts$/, '.cjs');
    return relative.startsWith('.') ? relative : `./${relative}`;
  }

  // --- internal ---

  private local(from: string, name: string, prefix: string): string {
    const key = `${from}\0${name}`;
    let local = this.#locals.get(key);
    if (local) return local;
    local = `${prefix}${this.#locals.size}`;
    this.#locals.set(key, local);
    const source = JSON.stringify(this.specifier(from));
    if (name === 'default') this.#statements.push(`import ${local} from ${source};`);
    else if (name === '*') this.#statements.push(`import * as ${local} from ${source};`);
    else this.#statements.push(`import { ${safeName(name)} as ${local} } from ${source};`);
    return local;
  }
}

/** An export name as it may appear in an import clause. */
function safeName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
