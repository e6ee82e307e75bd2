import path from 'node:path';
import { Node, SyntaxKind } from './_ts-morph.js';
import { locationOf } from './closures.js';
import type { Diagnostics } from './errors.js';
import type { SourceIndex } from './source-index.js';

/**
 * An `E_LOAD` error at each `url()` call a class's module makes as the server loads it (at its
 * top level, or in a static initializer): the generated module imports it before the routes
 * exist, so the server would fail to start. A module the route files import is run by the build,
 * which reports the same; one named by a string (`'Shop@show'`) is only read, so it is checked
 * here. Each module once a build (`checked`).
 */
export function checkTopLevelUrl(
  file: string,
  root: string,
  index: SourceIndex,
  diagnostics: Diagnostics,
): void {
  const seen = (checked.get(diagnostics) ?? checked.set(diagnostics, new Set()).get(diagnostics))!;
  if (seen.has(file)) return;
  seen.add(file);
  const source = index.file(file);
  const { names, spaces } = urlImports(source);
  if (names.size === 0 && spaces.size === 0) return;
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const named = Node.isIdentifier(callee)
      ? names.has(callee.getText())
      : Node.isPropertyAccessExpression(callee) &&
        callee.getName() === 'url' &&
        spaces.has(callee.getExpression().getText());
    if (!named || !runsOnLoad(call)) continue;
    diagnostics.error(
      'E_LOAD',
      `url() runs as ${path.relative(root, file).split(path.sep).join('/')} loads, before the routes exist: the server would fail to start`,
      locationOf(call),
      "call it inside a function or method (a route's, a middleware's handle()), where it runs per request",
    );
  }
}

// --- internal ---

const checked = new WeakMap<Diagnostics, Set<string>>();

// The modules `url` comes from: the package, and the generated module.
const URL_MODULES = /^course-router$|(^|\/)routes\.gen(\.[cm]?[jt]s)?$/;

/** The local names of `url` imported from `URL_MODULES`, and of their namespaces. */
function urlImports(source: ReturnType<SourceIndex['file']>): {
  names: Set<string>;
  spaces: Set<string>;
} {
  const names = new Set<string>();
  const spaces = new Set<string>();
  for (const declaration of source.getImportDeclarations()) {
    if (declaration.isTypeOnly() || !URL_MODULES.test(declaration.getModuleSpecifierValue()))
      continue;
    const space = declaration.getNamespaceImport();
    if (space) spaces.add(space.getText());
    for (const named of declaration.getNamedImports())
      if (!named.isTypeOnly() && named.getName() === 'url')
        names.add(named.getAliasNode()?.getText() ?? 'url');
  }
  return { names, spaces };
}

/** Whether `node` runs when its module loads: in no function, nor an instance's initializer. */
function runsOnLoad(node: Node): boolean {
  for (let at = node.getParent(); at !== undefined; at = at.getParent()) {
    if (
      Node.isFunctionLikeDeclaration(at) ||
      Node.isArrowFunction(at) ||
      Node.isFunctionExpression(at)
    )
      return false;
    if (Node.isPropertyDeclaration(at) && !at.isStatic()) return false;
  }
  return true;
}
