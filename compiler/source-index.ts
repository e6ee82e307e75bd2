import path from 'node:path';
import {
  Node,
  Project,
  SyntaxKind,
  ts,
  type CallExpression,
  type SourceFile,
} from './_ts-morph.js';
import type { SourceLocation } from 'course-router/internal';
import type { ClassImport } from './types.js';

// The Fetch API's `Response`, which `lib.es2022` lacks: a route or middleware that returns one
// reads as returning it, not `any` (`returnsAtOnce`). Only what a check here may read of it.
const FETCH_GLOBALS_FILE = '/__course__/fetch-globals.d.ts';
const FETCH_GLOBALS = `declare class Response {
  constructor(body?: unknown, init?: unknown);
  static json(data: unknown, init?: unknown): Response;
  static redirect(url: unknown, status?: number): Response;
  static error(): Response;
  readonly status: number;
  readonly ok: boolean;
  readonly headers: unknown;
  readonly body: unknown;
}
`;

/** A class found in the sources, with what the emitter needs to import it. */
export interface FoundClass {
  import: ClassImport;
  name: string;
  node: Node;
}

/**
 * The app's sources as ts-morph sees them: the syntax at a route call, and the classes and
 * methods that callbacks, middleware and handlers name. One per build (or per watch session).
 */
export class SourceIndex {
  readonly project: Project;
  /** `exportedClassIn` answers by file and name, until the next `refresh`. */
  readonly #exportedClasses = new Map<string, FoundClass | undefined>();

  constructor() {
    this.project = new Project({
      skipAddingFilesFromTsConfig: true,
      skipFileDependencyResolution: true,
      compilerOptions: {
        allowJs: true,
        // The language's own types (`Date`, `string[]`, `Map`, what `.some()` returns): without
        // them a handler's `at: Date` would take a string. Read once per build or watch session.
        lib: ['lib.es2022.d.ts'],
        // Handler parameters are checked for `undefined` (optional route parameters).
        strictNullChecks: true,
        types: [],
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      },
    });
    this.project.createSourceFile(FETCH_GLOBALS_FILE, FETCH_GLOBALS);
  }

  /** The file, read from disk once (`refresh` re-reads it after an edit). */
  file(file: string): SourceFile {
    return this.project.getSourceFile(file) ?? this.project.addSourceFileAtPath(file);
  }

  /** Re-reads files that changed on disk (watch mode). */
  refresh(files: Iterable<string>): void {
    // An edit may change what any module exports (re-exports too), and it replaces the nodes.
    this.#exportedClasses.clear();
    for (const file of files) {
      const existing = this.project.getSourceFile(file);
      if (existing) void existing.refreshFromFileSystemSync();
    }
  }

  /** The DSL call whose method name starts at `loc` (stack frames point there). */
  callAt(loc: SourceLocation): CallExpression | undefined {
    if (!path.isAbsolute(loc.file) || loc.line < 1) return undefined;
    let source: SourceFile;
    try {
      source = this.file(loc.file);
    } catch {
      return undefined;
    }
    let pos: number;
    try {
      pos = source.compilerNode.getPositionOfLineAndCharacter(loc.line - 1, loc.column - 1);
    } catch {
      return undefined;
    }
    const node = source.getDescendantAtPos(pos);
    const call = node?.getFirstAncestorByKind(SyntaxKind.CallExpression);
    if (!call) return undefined;
    const callee = call.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getNameNode().getStart() <= pos)
      return call;
    if (Node.isIdentifier(callee)) return call;
    return call.getFirstAncestorByKind(SyntaxKind.CallExpression) ?? call;
  }

  /** The class an expression refers to (through imports and re-exports). */
  classOf(expression: Node): FoundClass | undefined {
    let symbol = expression.getSymbol();
    if (!symbol) return undefined;
    if (symbol.isAlias()) symbol = symbol.getAliasedSymbol() ?? symbol;
    const declaration = symbol.getDeclarations().find((d) => Node.isClassDeclaration(d));
    if (!declaration || !Node.isClassDeclaration(declaration)) return undefined;
    return this.exportedClass(declaration);
  }

  /** The class exported as `name` (or as the default export) by `file`. */
  exportedClassIn(file: string, name: string): FoundClass | undefined {
    // Most routes name one of a few controllers: each is looked up once.
    const key = `${file}\0${name}`;
    if (this.#exportedClasses.has(key)) return this.#exportedClasses.get(key);
    const found = this.#findExportedClass(file, name);
    this.#exportedClasses.set(key, found);
    return found;
  }

  #findExportedClass(file: string, name: string): FoundClass | undefined {
    const exported = this.file(file).getExportedDeclarations();
    for (const key of [name, 'default']) {
      const declaration = exported.get(key)?.find((d) => Node.isClassDeclaration(d));
      if (declaration && Node.isClassDeclaration(declaration)) {
        return {
          import: { file, exportName: key },
          name: declaration.getName() ?? name,
          node: declaration,
        };
      }
    }
    return undefined;
  }

  /**
   * The first syntax error of a file, as the TypeScript parser reports it when it reads the
   * file (later ones mostly follow from it); none for a file that parses.
   */
  syntaxError(file: string): { loc: SourceLocation; message: string } | undefined {
    const source = this.file(file);
    const [first] = this.project.getProgram().getSyntacticDiagnostics(source);
    if (!first) return undefined;
    const { line, column } = source.getLineAndColumnAtPos(first.getStart() ?? 0);
    const message = ts.flattenDiagnosticMessageText(first.compilerObject.messageText, ' ');
    return { loc: { file: source.getFilePath(), line, column }, message };
  }

  /** The instance method names of a class, inherited ones included. */
  methodsOf(found: FoundClass): string[] {
    return this.members(found, () => true);
  }

  /**
   * `methodsOf` without those inherited from a library (declared only in `.d.ts` files, as
   * `Controller`'s helpers are): the ones a build error lists as the class's methods.
   */
  appMethodsOf(found: FoundClass): string[] {
    return this.members(found, (d) => !d.getSourceFile().isDeclarationFile());
  }

  // --- internal ---

  private members(found: FoundClass, keep: (declaration: Node) => boolean): string[] {
    return found.node
      .getType()
      .getProperties()
      .filter((p) =>
        p
          .getDeclarations()
          .some((d) => (Node.isMethodDeclaration(d) || Node.isPropertyDeclaration(d)) && keep(d)),
      )
      .map((p) => p.getName())
      .filter((n) => !n.startsWith('#') && n !== 'constructor');
  }

  private exportedClass(declaration: Node): FoundClass | undefined {
    if (!Node.isClassDeclaration(declaration)) return undefined;
    const file = declaration.getSourceFile().getFilePath();
    const exported = declaration.getSourceFile().getExportedDeclarations();
    for (const [key, nodes] of exported) {
      if (nodes.includes(declaration)) {
        return {
          import: { file, exportName: key },
          name: declaration.getName() ?? key,
          node: declaration,
        };
      }
    }
    return undefined;
  }
}
