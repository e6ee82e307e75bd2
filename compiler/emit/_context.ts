import path from 'node:path';
import type { ClassImport, CodeImport } from '../types.js';

/**
 * Import bookkeeping of one generated module: every name it imports gets one stable local
 * name, in first-use order, so the output is deterministic, and each module is imported by one
 * statement. A class is imported under its own name where that is free (`UserController`),
 * else with a number (`UserController$2`); names hoisted closures use are `$i0`, `$i1`, …
 */
export class EmitContext {
  readonly outDir: string;
  readonly #locals = new Map<string, string>();
  readonly #taken: Set<string>;
  /** Module specifier → default, namespace and named imports (`[name, local]`). */
  readonly #modules = new Map<string, { default?: string; all?: string; named: string[][] }>();

  /**
   * `reserved`: names the module declares itself, which no import may take; `extension`: how
   * imported TypeScript files are named (`'.js'`, or `'.ts'` as they are).
   */
  constructor(
    outFile: string,
    reserved: Iterable<string> = [],
    readonly extension: '.js' | '.ts' = '.js',
  ) {
    this.outDir = path.dirname(outFile);
    this.#taken = new Set(reserved);
  }

  /** The local name of a class import. */
  classLocal(entry: ClassImport): string {
    const base = entry.exportName === 'default' ? path.parse(entry.file).name : entry.exportName;
    return this.local(entry.file, entry.exportName, readable(base));
  }

  /** The local name of an import a hoisted closure uses (`$i0`). */
  codeLocal(entry: CodeImport): string {
    return this.local(entry.from, entry.name, `$i${this.#locals.size}`);
  }

  /** The import statements, one per module, in first-use order. */
  statements(): string[] {
    return [...this.#modules].map(([source, entry]) => {
      const named = entry.named.map(([name, local]) =>
        name === local ? name : `${safeName(name!)} as ${local}`,
      );
      const clauses = [
        ...(entry.default === undefined ? [] : [entry.default]),
        ...(entry.all === undefined ? [] : [`* as ${entry.all}`]),
        ...(named.length === 0 ? [] : [`{ ${named.join(', ')} }`]),
      ];
      // A namespace import and named ones cannot share a statement.
      if (entry.all !== undefined && named.length > 0)
        return `${this.statement(clauses.slice(0, -1), source)}\n${this.statement([clauses.at(-1)!], source)}`;
      return this.statement(clauses, source);
    });
  }

  /** A module specifier for `file` relative to the generated module (`.ts` → `.js` unless kept). */
  specifier(file: string): string {
    if (!path.isAbsolute(file)) return file;
    let relative = path.relative(this.outDir, file).split(path.sep).join('/');
    if (this.extension === '.js')
      relative = relative
        .replace(/\.tsx?$/, '.js')
        .replace(/\.mts$/, '.mjs')
        .replace(/\.cts$/, '.cjs');
    return relative.startsWith('.') ? relative : `./${relative}`;
  }

  // --- internal ---

  private statement(clauses: string[], source: string): string {
    return `import ${clauses.join(', ')} from ${JSON.stringify(source)};`;
  }

  private local(from: string, name: string, wanted: string): string {
    const key = `${from}\0${name}`;
    let local = this.#locals.get(key);
    if (local) return local;
    local = wanted;
    for (let n = 2; this.#taken.has(local); n++) local = `${wanted}$${n}`;
    this.#taken.add(local);
    this.#locals.set(key, local);
    const source = this.specifier(from);
    let entry = this.#modules.get(source);
    if (entry === undefined) this.#modules.set(source, (entry = { named: [] }));
    if (name === 'default' && entry.default === undefined) entry.default = local;
    else if (name === '*' && entry.all === undefined) entry.all = local;
    else entry.named.push([name, local]);
    return local;
  }
}

// --- internal ---

/** An export name as it may appear in an import clause. */
function safeName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A local name for a class: its own when it is an identifier that names nothing global (a
 * controller called `Map` would hide the one the matcher uses), else `$` and its letters. The
 * generated module's own names start with one `$` and a lower-case letter; a class whose name
 * starts with `$` gets another.
 */
function readable(name: string): string {
  const identifier = name.replace(/[^\w$]/g, '_');
  return identifier in globalThis ||
    RESERVED.has(identifier) ||
    /^[\d$]/.test(identifier) ||
    identifier === ''
    ? `$${identifier}`
    : identifier;
}

// Words a local may not be (`import { x as default }` is a syntax error).
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof new null return super switch this throw ' +
    'true try typeof var void while with yield let static implements interface package private ' +
    'protected public await arguments eval as async from of type declare module namespace'
  ).split(' '),
);
