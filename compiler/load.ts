import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { beginRecording, endRecording, nearest } from 'course-router/internal';
import type { Recording, SourceLocation } from 'course-router/internal';
import type { ResolvedConfig } from './config.js';
import { RouteDefinitionError } from './errors.js';
import { checkModuleType } from './module-type.js';
import { standIn } from './stand-in.js';

/** What evaluating the route files produced. */
export interface LoadResult {
  recording: Recording;
  /** The route files, in evaluation order. */
  files: string[];
}

/**
 * Evaluates `routes.ts`, then `routers/**` in path order, recording every DSL call.
 * A route file that throws becomes an `E_LOAD` error at the throwing line.
 */
export async function loadRoutes(config: ResolvedConfig): Promise<LoadResult> {
  const files = routeFiles(config);
  if (files.length === 0) {
    const where = (file: string) => path.relative(config.root, file) || '.';
    throw new RouteDefinitionError(
      'E_CONFIG',
      `no route files: neither ${where(config.routesFile)} nor ${where(config.routersDir)}/ exists`,
      { file: config.routesFile, line: 1, column: 1 },
      `create ${where(config.routesFile)}, or run course in the app folder (--root)`,
    );
  }
  checkModuleType(files);
  const recording = beginRecording();
  for (const file of files) recording.files.add(file);
  // A fresh namespace per build: edited route files and what they import are evaluated anew.
  const namespace = `course-build-${Date.now()}-${Math.random()}`;
  // The route files never need the generated module: what they import of it is a stand-in.
  await standIn(namespace, [config.outFile]);
  const api = register({ namespace });
  try {
    for (const file of files) {
      try {
        await api.import(pathToFileURL(file).href, import.meta.url);
      } catch (error) {
        throw evaluationError(error, file, files, 'E_LOAD', config.root);
      }
    }
  } finally {
    endRecording();
    await api.unregister();
  }
  return { recording, files };
}

/** The route files of an app: the main file, then `routers/**` sorted by path. */
export function routeFiles(config: ResolvedConfig): string[] {
  const files: string[] = [];
  if (existsSync(config.routesFile)) files.push(config.routesFile);
  if (existsSync(config.routersDir)) {
    const found = readdirSync(config.routersDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(?:ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
      .map((f) => path.join(config.routersDir, f))
      .sort();
    files.push(...found);
  }
  return files;
}

/**
 * The located error for a file that failed to evaluate (`code`: `E_LOAD` for route files,
 * `E_CONFIG` for `course.config.ts`): a syntax error or a missing import at its place, else
 * the thrown error at the deepest frame in `files`, else at the deepest in the app under `root`
 * (a module a route file imports, such as a controller, that throws at its top level).
 */
export function evaluationError(
  error: unknown,
  file: string,
  files: readonly string[],
  code: 'E_LOAD' | 'E_CONFIG' = 'E_LOAD',
  root?: string,
): RouteDefinitionError {
  const message = error instanceof Error ? error.message : String(error);
  const syntax = SYNTAX_ERROR.exec(message);
  if (syntax) {
    // esbuild counts columns from 0.
    const loc = { file: syntax[1]!, line: Number(syntax[2]), column: Number(syntax[3]) + 1 };
    return new RouteDefinitionError(code, `syntax error: ${syntax[4]}`, loc);
  }
  const missing = missingImport(message);
  if (missing) {
    return new RouteDefinitionError(
      code,
      `cannot find the module "${missing.specifier}"`,
      missing.loc,
      missing.specifier.startsWith('.')
        ? moduleHint(missing.specifier, missing.loc.file)
        : `install the package, or check its name`,
    );
  }
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const loc = frameIn(stack, files) ??
    (root === undefined ? undefined : appFrame(stack, root)) ?? { file, line: 1, column: 1 };
  const what = code === 'E_CONFIG' ? 'the configuration' : 'the route file';
  return new RouteDefinitionError(code, `evaluating ${what} failed: ${message}`, loc);
}

// --- internal ---

/**
 * What to do about a relative import that names no file: the nearest module beside where it
 * points, written as the import writes it, else how a module is named.
 */
function moduleHint(specifier: string, from: string): string {
  const extension = path.extname(specifier);
  const wanted = path.resolve(path.dirname(from), specifier);
  let names: string[] = [];
  try {
    names = readdirSync(path.dirname(wanted))
      .filter((file) => MODULE_FILE.test(file))
      .map((file) => file.replace(MODULE_FILE, ''));
  } catch {
    // No such folder: nothing beside it to name.
  }
  const near = nearest(path.basename(wanted, extension), names);
  if (near !== undefined)
    return `did you mean ${specifier.slice(0, specifier.lastIndexOf('/') + 1)}${near}${extension}?`;
  return 'check the path; a .ts module is imported by its .js name (by its .ts name with importExtension .ts)';
}

const MODULE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

// tsx's message for a file that does not parse: `…:\n<file>:<line>:<column>: ERROR: <text>`.
const SYNTAX_ERROR = /^Transform failed with \d+ errors?:\n(.+?):(\d+):(\d+): ERROR: (.*)$/m;

/**
 * The import a "module not found" error is about, found in the importing file's text: Node
 * names the importer and the module (ESM: resolved, `Cannot find module '/abs/x.js' imported
 * from /abs/routes.ts`; a package: `Cannot find package 'p' imported from …`) but not the line.
 */
function missingImport(message: string): { specifier: string; loc: SourceLocation } | undefined {
  const m = /^Cannot find (?:module|package) '([^']+)' imported from (.+)$/m.exec(message);
  if (!m) return undefined;
  const [, target, importer] = m as unknown as [string, string, string];
  let text: string;
  try {
    text = readFileSync(importer, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  for (const [k, line] of lines.entries()) {
    for (const found of line.matchAll(/(?:from|import|require)\s*\(?\s*(['"])([^'"]+)\1/g)) {
      const specifier = found[2]!;
      const resolved = specifier.startsWith('.')
        ? path.resolve(path.dirname(importer), specifier)
        : specifier;
      if (resolved === target || specifier === target || target.startsWith(`${specifier}/`)) {
        const column = found.index + found[0].indexOf(found[1]!) + 1;
        return { specifier, loc: { file: importer, line: k + 1, column } };
      }
    }
  }
  return undefined;
}

/** The first frame of `stack` in a module of the app under `root`, not in its packages. */
function appFrame(stack: string, root: string): SourceLocation | undefined {
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line);
    if (m === null) continue;
    let file: string;
    try {
      file = m[1]!.startsWith('file:') ? fileURLToPath(m[1]!) : m[1]!;
    } catch {
      continue;
    }
    if (!file.startsWith(root + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`))
      continue;
    return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

// A stack frame's place: `at f (file:///app/x.ts?query:3:13)`, `at /app/x.ts:3:13`.
const FRAME = /((?:file:\/\/)?\/[^()?]*?)(?:\?[^():]*)?:(\d+):(\d+)\)?\s*$/;

function frameIn(stack: string, files: readonly string[]): SourceLocation | undefined {
  for (const line of stack.split('\n')) {
    for (const file of files) {
      const at = line.indexOf(file);
      if (at === -1) continue;
      const m = /:(\d+):(\d+)/.exec(line.slice(at + file.length));
      if (m) return { file, line: Number(m[1]), column: Number(m[2]) };
    }
  }
  return undefined;
}
