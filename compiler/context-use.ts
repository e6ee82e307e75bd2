import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { ts as Ts } from 'ts-morph';
import { ts } from './_ts-morph.js';
import { CONTEXT_EXPORTS } from './context-exports.js';
import { formatLocation } from './errors.js';
import type { SourceIndex } from './source-index.js';

/**
 * Where the app may read the request context (`routes.ts:3:10: imports input from
 * course-router`), or `undefined` when no module it runs can. Follows the imports of `entries`
 * (route files and the classes routes name) through the app's own modules. Whatever it cannot
 * follow counts as a reader: a module loaded by a computed name, an import it cannot resolve, a
 * package that depends on `course-router`, the string `'course-router'` outside an import.
 */
export function contextReader(
  entries: Iterable<string>,
  root: string,
  outFile: string,
  index: SourceIndex,
): string | undefined {
  const walk = new Walk(root, outFile, index);
  return walk.from(entries);
}

// --- internal ---

const PACKAGE = 'course-router';
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
// The names the generated module exports that read the context (`url()` builds on the host).
const GENERATED_READERS = new Set(['url', '*']);

class Walk {
  readonly #options: Ts.CompilerOptions;
  readonly #manifests = new Map<string, Manifest | undefined>();

  constructor(
    private readonly root: string,
    private readonly outFile: string,
    private readonly index: SourceIndex,
  ) {
    this.#options = compilerOptions(root);
  }

  from(entries: Iterable<string>): string | undefined {
    const queue = [...new Set(entries)];
    const seen = new Set(queue);
    for (let i = 0; i < queue.length; i++) {
      const file = queue[i]!;
      let source: Ts.SourceFile;
      try {
        source = this.index.file(file).compilerNode;
      } catch {
        return `${formatLocation({ file, line: 1, column: 1 }, this.root)}: cannot be read`;
      }
      const found = this.imports(source);
      for (const use of found.uses) {
        const reason = this.check(use, source);
        if (typeof reason === 'string') return reason;
        if (reason !== undefined && !seen.has(reason.file)) {
          seen.add(reason.file);
          queue.push(reason.file);
        }
      }
      if (found.stray !== undefined)
        return `${this.at(source, found.stray)}: names ${PACKAGE} outside an import the build can follow`;
    }
    return undefined;
  }

  /** A reason, the app module to follow, or `undefined` for a module that reads nothing. */
  private check(use: ModuleUse, source: Ts.SourceFile): string | { file: string } | undefined {
    // Where the use is, worked out only for the one reported.
    const at = (): string => this.at(source, use.node);
    if (use.specifier === undefined) return `${at()}: loads a module by a computed name`;
    const spec = use.specifier;
    if (spec === PACKAGE) {
      // A name in neither list is a type (a test keeps every value export in one of them).
      const name = use.names.find((n) => n === '*' || n === 'default' || CONTEXT_EXPORTS.has(n));
      return name === undefined ? undefined : `${at()}: imports ${name} from ${PACKAGE}`;
    }
    if (spec.startsWith(`${PACKAGE}/`) || isBuiltin(spec)) return undefined;
    const resolved = ts.resolveModuleName(
      spec,
      source.fileName,
      this.#options,
      ts.sys,
    ).resolvedModule;
    if (resolved === undefined) return `${at()}: imports ${spec}, which the build cannot resolve`;
    const file = path.resolve(resolved.resolvedFileName);
    if (sameModule(file, this.outFile)) {
      const name = use.names.find((n) => GENERATED_READERS.has(n));
      return name === undefined ? undefined : `${at()}: imports ${name} from the generated module`;
    }
    const declaration = /\.d\.[cm]?ts$/.test(file);
    const packaged =
      resolved.isExternalLibraryImport || file.split(path.sep).includes('node_modules');
    // The app's modules, and sources it reaches outside its folder (a workspace's), are read.
    if (!packaged && !declaration) return CODE.test(file) ? { file } : undefined;
    if (!packaged && isInside(this.root, file)) return undefined; // the app's own types
    // A package, or a linked one seen through its types: its manifest tells.
    const owner = this.packageOf(file);
    if ((resolved.packageId?.name ?? owner?.name) === PACKAGE)
      return `${at()}: imports ${PACKAGE} as ${spec}`;
    return owner?.depends
      ? `${at()}: imports ${spec}, a package that depends on ${PACKAGE}`
      : undefined;
  }

  /** The manifest of the package holding `file`. */
  private packageOf(file: string): Manifest | undefined {
    for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const manifest = this.manifest(path.join(dir, 'package.json'));
      // The nearest manifest with a name is the package's own (`{"type"}` ones sit in folders).
      if (manifest?.name !== undefined) return manifest;
    }
    return undefined;
  }

  private manifest(file: string): Manifest | undefined {
    if (this.#manifests.has(file)) return this.#manifests.get(file);
    const manifest = existsSync(file) ? readManifest(file) : undefined;
    this.#manifests.set(file, manifest);
    return manifest;
  }

  /**
   * The modules `source` loads, and the first string `'course-router'` that is not one of their
   * specifiers (`createRequire(…)('course-router')`): comments do not count.
   */
  private imports(source: Ts.SourceFile): { uses: ModuleUse[]; stray: Ts.Node | undefined } {
    const uses: ModuleUse[] = [];
    const specifiers = new Set<Ts.Node>();
    let stray: Ts.Node | undefined;
    const add = (node: Ts.Node, specifier: Ts.Node | undefined, names: string[] | undefined) => {
      const text = specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined;
      if (specifier) specifiers.add(specifier);
      if (names !== undefined) uses.push({ node, specifier: text, names });
    };
    const visit = (node: Ts.Node): void => {
      if (ts.isStringLiteralLike(node) && node.text === PACKAGE && !specifiers.has(node))
        stray ??= node;
      if (ts.isImportDeclaration(node)) {
        add(node, node.moduleSpecifier, importedNames(node));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        add(node, node.moduleSpecifier, exportedNames(node));
      } else if (
        ts.isImportEqualsDeclaration(node) &&
        ts.isExternalModuleReference(node.moduleReference)
      ) {
        add(node, node.moduleReference.expression, node.isTypeOnly ? undefined : ['*']);
      } else if (ts.isCallExpression(node) && isLoad(node)) {
        add(node, node.arguments[0], ['*']);
      } else if (ts.isImportTypeNode(node)) {
        // `import('course-router').Controller` in a type: erased.
        const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
        add(node, literal, undefined);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return { uses, stray };
  }

  private at(source: Ts.SourceFile, node: Ts.Node): string {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return formatLocation(
      { file: source.fileName, line: line + 1, column: character + 1 },
      this.root,
    );
  }
}

/** A module one file loads: its specifier (`undefined` when computed) and what it takes. */
interface ModuleUse {
  node: Ts.Node;
  specifier: string | undefined;
  /** Value names taken: `'*'` for the whole module, `'default'`; types are left out. */
  names: string[];
}

/** The names a value import takes, or `undefined` for a type-only import. */
function importedNames(node: Ts.ImportDeclaration): string[] | undefined {
  const clause = node.importClause;
  if (clause === undefined) return ['*']; // `import 'x'` runs the module
  if (clause.isTypeOnly) return undefined;
  const names = clause.name ? ['default'] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  else if (bindings)
    for (const element of bindings.elements)
      if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
  return names;
}

/** The names a re-export takes, or `undefined` for a type-only one. */
function exportedNames(node: Ts.ExportDeclaration): string[] | undefined {
  if (node.isTypeOnly) return undefined;
  const clause = node.exportClause;
  if (clause === undefined || ts.isNamespaceExport(clause)) return ['*'];
  return clause.elements
    .filter((element) => !element.isTypeOnly)
    .map((element) => (element.propertyName ?? element.name).text);
}

/** `import(x)` or `require(x)`. */
function isLoad(node: Ts.CallExpression): boolean {
  const callee = node.expression;
  return (
    callee.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isIdentifier(callee) && callee.text === 'require')
  );
}

/** The app's `tsconfig.json` options (its `paths`), resolving as a bundler does. */
function compilerOptions(root: string): Ts.CompilerOptions {
  const file = ts.findConfigFile(root, (f) => ts.sys.fileExists(f));
  const read = file ? ts.readConfigFile(file, (f) => ts.sys.readFile(f)) : undefined;
  const options =
    file && read?.config
      ? ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file)).options
      : {};
  return {
    ...options,
    allowJs: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

function sameModule(file: string, outFile: string): boolean {
  return file.replace(/\.[cm]?[jt]s$/, '') === outFile.replace(/\.[cm]?[jt]s$/, '');
}

/** What the walk reads of a `package.json`. */
interface Manifest {
  name: string | undefined;
  /** It lists `course-router` among its dependencies, peer or optional ones. */
  depends: boolean;
}

function readManifest(file: string): Manifest {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
  } catch {
    // An unreadable manifest names no package.
  }
  const depends = ['dependencies', 'peerDependencies', 'optionalDependencies'].some((field) => {
    const list = data[field];
    return typeof list === 'object' && list !== null && Object.hasOwn(list, PACKAGE);
  });
  const name = typeof data['name'] === 'string' ? data['name'] : undefined;
  return { name, depends };
}
