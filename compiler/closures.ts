import path from 'node:path';
import { Node, SyntaxKind, type Expression, type SourceFile } from './_ts-morph.js';
import type { SourceLocation } from 'course-router/internal';
import type { Diagnostics } from './errors.js';
import type { CodeImport, HoistedConstant } from './types.js';

/** What a hoisted callback needs from its route file. */
export interface ClosureDeps {
  imports: CodeImport[];
  constants: HoistedConstant[];
}

/**
 * Finds what `expression` (a callback in a route file) uses from outside itself. Module-level
 * imports become imports of the generated module, module-level constants and functions are
 * copied with it, and anything else (a local of an enclosing function, a module-level `let`)
 * is an `E_CAPTURE` error: the generated module could not reproduce its value.
 */
export function closureDeps(
  expression: Expression,
  diagnostics: Diagnostics,
): ClosureDeps | undefined {
  const file = expression.getSourceFile();
  const deps: ClosureDeps = { imports: [], constants: [] };
  const seen = new Set<Node>();
  const before = diagnostics.errors.length;
  visit(expression, file, deps, seen, diagnostics);
  if (diagnostics.errors.length > before) return undefined;
  deps.constants.sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0));
  return deps;
}

// --- internal ---

const positions = new WeakMap<HoistedConstant, number>();

function visit(
  root: Node,
  file: SourceFile,
  deps: ClosureDeps,
  seen: Set<Node>,
  diagnostics: Diagnostics,
): void {
  const identifiers = root.getDescendantsOfKind(SyntaxKind.Identifier);
  if (Node.isIdentifier(root)) identifiers.unshift(root);
  for (const identifier of identifiers) {
    if (!isValueReference(identifier)) continue;
    const symbol = identifier.getSymbol();
    const declarations = symbol?.getDeclarations() ?? [];
    const declaration = declarations.find((d) => d.getSourceFile() === file);
    if (!declaration || isWithin(declaration, root)) continue;
    const statement = moduleStatement(declaration);
    if (!statement) {
      captureError(identifier.getText(), declaration, identifier, diagnostics);
      continue;
    }
    // An import declaration may bring several names a closure uses: each one counts.
    const binding = Node.isImportDeclaration(statement) ? declaration : statement;
    if (seen.has(binding)) continue;
    seen.add(binding);
    if (Node.isImportDeclaration(statement)) {
      addImport(declaration, statement, identifier.getText(), deps);
    } else if (Node.isVariableStatement(statement) && statement.getDeclarationKind() !== 'const') {
      captureError(
        identifier.getText(),
        declaration,
        identifier,
        diagnostics,
        'a module-level let/var can change',
      );
    } else {
      const constant: HoistedConstant = {
        file: file.getFilePath(),
        name: identifier.getText(),
        text: statement.getText(),
      };
      positions.set(constant, statement.getStart());
      deps.constants.push(constant);
      visit(statement, file, deps, seen, diagnostics);
    }
  }
}

/** An identifier that reads a binding (not a property name, not a type). */
function isValueReference(identifier: Node): boolean {
  const parent = identifier.getParent();
  if (!parent) return false;
  if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === identifier) return false;
  if (Node.isPropertyAssignment(parent) && parent.getNameNode() === identifier) return false;
  if (
    (Node.isMethodDeclaration(parent) || Node.isPropertyDeclaration(parent)) &&
    parent.getNameNode() === identifier
  )
    return false;
  if (Node.isQualifiedName(parent)) return false;
  return !identifier.getFirstAncestor(
    (a) => Node.isTypeNode(a) || Node.isTypeAliasDeclaration(a) || Node.isInterfaceDeclaration(a),
  );
}

function isWithin(node: Node, root: Node): boolean {
  return (
    node.getStart() >= root.getStart() &&
    node.getEnd() <= root.getEnd() &&
    node.getSourceFile() === root.getSourceFile()
  );
}

/** The top-level statement that declares `declaration`, if it is top-level. */
function moduleStatement(declaration: Node): Node | undefined {
  if (
    Node.isImportSpecifier(declaration) ||
    Node.isImportClause(declaration) ||
    Node.isNamespaceImport(declaration)
  ) {
    return declaration.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
  }
  let node: Node | undefined = declaration;
  if (Node.isVariableDeclaration(node)) node = node.getVariableStatement();
  if (!node) return undefined;
  const parent = node.getParent();
  if (!parent || !Node.isSourceFile(parent)) return undefined;
  return Node.isVariableStatement(node) ||
    Node.isFunctionDeclaration(node) ||
    Node.isClassDeclaration(node) ||
    Node.isEnumDeclaration(node)
    ? node
    : undefined;
}

function addImport(declaration: Node, statement: Node, local: string, deps: ClosureDeps): void {
  if (!Node.isImportDeclaration(statement)) return;
  const specifier = statement.getModuleSpecifierValue();
  // Packages keep their specifier; relative modules become files the emitter re-relativises.
  let from = specifier;
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    const target = statement.getModuleSpecifierSourceFile();
    from = target
      ? target.getFilePath()
      : path.resolve(path.dirname(statement.getSourceFile().getFilePath()), specifier);
  }
  for (const [name, node] of importedNames(statement)) {
    if (node === declaration) {
      deps.imports.push({
        file: statement.getSourceFile().getFilePath(),
        from,
        name,
        local,
        typeOnly: statement.isTypeOnly(),
      });
    }
  }
}

/** `[exported name, declaring node]` pairs of an import declaration. */
function importedNames(statement: Node): [string, Node][] {
  if (!Node.isImportDeclaration(statement)) return [];
  const pairs: [string, Node][] = [];
  const clause = statement.getImportClause();
  if (!clause) return pairs;
  if (clause.getDefaultImport()) pairs.push(['default', clause]);
  const namespace = clause.getNamespaceImport();
  if (namespace) pairs.push(['*', namespace.getParentOrThrow()]);
  for (const specifier of statement.getNamedImports()) {
    pairs.push([specifier.getName(), specifier]);
  }
  return pairs;
}

function captureError(
  name: string,
  declaration: Node,
  use: Node,
  diagnostics: Diagnostics,
  why?: string,
): void {
  const at = locationOf(use);
  const { line } = locationOf(declaration);
  diagnostics.error(
    'E_CAPTURE',
    `the route closure uses "${name}" (declared at line ${line})${why ? `: ${why}` : ', a local variable'}; closures are moved into the generated module and can only use imports and module-level constants`,
    at,
    'pass the value another way (a module-level const, a controller, or request()/input() at run time)',
  );
}

/** The 1-based location of a node. */
export function locationOf(node: Node): SourceLocation {
  const source = node.getSourceFile();
  // The compiler's line map: a binary search, where ts-morph's helper rescans the text.
  const { line, character } = source.compilerNode.getLineAndCharacterOfPosition(node.getStart());
  return { file: source.getFilePath(), line: line + 1, column: character + 1 };
}
