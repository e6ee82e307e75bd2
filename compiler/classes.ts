import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Node } from './_ts-morph.js';
import { locationOf } from './closures.js';
import { checkTopLevelUrl } from './top-level-url.js';
import { classRefParts, nearest } from 'course-router/internal';
import type { SourceLocation } from 'course-router/internal';
import type { ResolvedConfig } from './config.js';
import type { Diagnostics } from './errors.js';
import type { SitedReference, ValueSite } from './groups.js';
import type { FoundClass, SourceIndex } from './source-index.js';
import type { ClassRefResolved } from './types.js';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.js'];

/**
 * The module file of a fully qualified class name, by the longest matching namespace. Most
 * routes name one of a few controllers: each name is looked up once per build (a build reads
 * its config anew, so a file added while `course watch` runs is found by the next build).
 */
export function fileOfClass(fqn: string, config: ResolvedConfig): ClassFile {
  let files = filesByConfig.get(config);
  if (files === undefined) filesByConfig.set(config, (files = new Map()));
  let found = files.get(fqn);
  if (found === undefined) files.set(fqn, (found = lookForClass(fqn, config)));
  return found;
}

/** Where a class's module is, if anywhere, and the files looked for. */
export interface ClassFile {
  file?: string;
  tried: string[];
}

/** The class named by a fully qualified name, or an error at `loc`. */
export function findClass(
  fqn: string,
  loc: SourceLocation,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): FoundClass | undefined {
  const { file, tried } = fileOfClass(fqn, config);
  if (!file) {
    const where = tried.length
      ? `looked for ${path.relative(config.root, tried[0]!)}`
      : `no namespace in the config maps "${fqn.split('\\')[0]}"`;
    const near = tried.length ? nearestClass(tried[0]!, config) : undefined;
    diagnostics.error(
      'E_MODULE',
      `no module for class ${fqn} (${where})`,
      loc,
      near ?? 'check the class name and namespace, or `namespaces` in course.config.ts',
    );
    return undefined;
  }
  if (!parses(file, index, diagnostics)) return undefined;
  // Named by a string, the module is read, not run, by the build.
  checkTopLevelUrl(file, config.root, index, diagnostics);
  const name = fqn.slice(fqn.lastIndexOf('\\') + 1);
  const found = index.exportedClassIn(file, name);
  if (!found) {
    diagnostics.error(
      'E_CLASS',
      `${path.relative(config.root, file)} does not export a class ${name}`,
      loc,
      `export it: export class ${name} { … }`,
    );
  }
  return found;
}

/**
 * Whether a class's module parses; an `E_LOAD` error at its first syntax error when not. The
 * build reads a class's module without running it: a module that does not parse would answer
 * for methods it does not have, or hide a route from the build.
 */
export function parses(file: string, index: SourceIndex, diagnostics: Diagnostics): boolean {
  const problem = index.syntaxError(file);
  if (problem) diagnostics.error('E_LOAD', `syntax error: ${problem.message}`, problem.loc);
  return problem === undefined;
}

/** Whether the class has `method`; an `E_METHOD` error listing its methods when not. */
export function checkMethod(
  found: FoundClass,
  method: string,
  loc: SourceLocation,
  index: SourceIndex,
  diagnostics: Diagnostics,
): boolean {
  if (index.methodsOf(found).includes(method)) return true;
  const methods = index.appMethodsOf(found);
  diagnostics.error(
    'E_METHOD',
    `class ${found.name} has no method ${method}`,
    loc,
    methods.length ? `its methods: ${methods.join(', ')}` : `add ${method}() to ${found.name}`,
  );
  return false;
}

/**
 * A middleware, exception handler, boot manager or verifier: a string resolves from the app
 * namespace root (`'Middleware\Auth:admin'` → `App\Middleware\Auth`, args `['admin']`), a class
 * value through the route file's imports. The class must have `method`.
 */
export function resolveReference(
  reference: SitedReference,
  method: string,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): (ClassRefResolved & { args: string[] }) | undefined {
  const { value, site } = reference;
  if (typeof value === 'string') {
    const { name: className, args } = classRefParts(value);
    const root = Object.keys(config.namespaces)[0] ?? 'App';
    const fqn = className.startsWith('\\') ? className.slice(1) : `${root}\\${className}`;
    const loc = valueLocation(site, index);
    const found = findClass(fqn, loc, config, index, diagnostics);
    if (!found || !checkMethod(found, method, loc, index, diagnostics)) return undefined;
    return { class: found.import, label: value, args };
  }
  const node = valueNode(site, index);
  const found = node && index.classOf(node);
  if (!found) {
    diagnostics.error(
      'E_CLASS',
      `a class given as a value must be an exported class imported by the route file`,
      site.loc,
      "or name it as a string, e.g. 'Middleware\\Auth'",
    );
    return undefined;
  }
  if (!parses(found.import.file, index, diagnostics)) return undefined;
  if (!checkMethod(found, method, site.loc, index, diagnostics)) return undefined;
  return { class: found.import, label: found.name, args: [] };
}

/**
 * Where the value of `site` is written (the string `'Middleware\\Auth'` in a group's list),
 * else the call's location; found only when an error reads it.
 */
export function valueLocation(site: ValueSite, index: SourceIndex): SourceLocation {
  let found: SourceLocation | undefined;
  const at = (): SourceLocation => {
    const node = valueNode(site, index);
    return (found ??= node ? locationOf(node) : site.loc);
  };
  return {
    get file() {
      return at().file;
    },
    get line() {
      return at().line;
    },
    get column() {
      return at().column;
    },
  };
}

// --- internal ---

const filesByConfig = new WeakMap<ResolvedConfig, Map<string, ClassFile>>();

/** `did you mean PostController? (…/PostController.ts)`: a module beside the one looked for. */
function nearestClass(looked: string, config: ResolvedConfig): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(path.dirname(looked));
  } catch {
    return undefined;
  }
  const modules = new Map<string, string>();
  for (const entry of entries) {
    const ext = EXTENSIONS.find((e) => !e.includes('/') && entry.endsWith(e));
    if (ext) modules.set(entry.slice(0, -ext.length), entry);
  }
  const name = nearest(path.basename(looked, path.extname(looked)), [...modules.keys()]);
  if (name === undefined) return undefined;
  const file = path.relative(config.root, path.join(path.dirname(looked), modules.get(name)!));
  return `did you mean ${name}? (${file.split(path.sep).join('/')})`;
}

function lookForClass(fqn: string, config: ResolvedConfig): ClassFile {
  const key = Object.keys(config.namespaces)
    .filter((ns) => fqn.startsWith(`${ns}\\`))
    .sort((a, b) => b.length - a.length)[0];
  if (key === undefined) return { tried: [] };
  const base = path.join(config.namespaces[key]!, ...fqn.slice(key.length + 1).split('\\'));
  const tried = EXTENSIONS.map((ext) => base + ext);
  return { file: tried.find((f) => existsSync(f)), tried };
}

/** The expression of a class value: in an attribute list of the call, or an argument. */
function valueNode(site: ValueSite, index: SourceIndex): Node | undefined {
  const call = index.callAt(site.loc);
  if (!call) return undefined;
  if (site.kind === 'argument') return call.getArguments()[site.index];
  for (const argument of call.getArguments()) {
    if (!Node.isObjectLiteralExpression(argument)) continue;
    const property = argument.getProperty(site.attribute);
    const value =
      property && Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
    if (!value) continue;
    return Node.isArrayLiteralExpression(value) ? value.getElements()[site.index] : value;
  }
  return undefined;
}
