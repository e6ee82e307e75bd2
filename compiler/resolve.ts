import { existsSync } from 'node:fs';
import path from 'node:path';
import { Node, type CallExpression, type Expression } from 'ts-morph';
import type { ClassReference, Located, SourceLocation } from '../runtime/dsl/types.js';
import { closureDeps, locationOf } from './closures.js';
import type { ResolvedConfig } from './config.js';
import type { Diagnostics } from './errors.js';
import type { MiddlewareSite, RouteDraft } from './normalize.js';
import type { FoundClass, SourceIndex } from './source-index.js';
import type { CompiledApp, HandlerRef, MiddlewareRef, RouteRecord } from './types.js';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.js'];

/**
 * Resolves what each route calls: `'Class@method'` through the namespaces, `[Class, 'method']`
 * and class values through the imports of the route file, closures by hoisting them. Every
 * missing module, class or method is an error at the route's `file:line:col`.
 */
export function resolveRoutes(
  drafts: readonly RouteDraft[],
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): CompiledApp {
  const app: CompiledApp = {
    root: config.root,
    routes: [],
    closures: [],
    imports: [],
    constants: [],
  };
  for (const draft of drafts) {
    const handler = resolveHandler(draft, config, index, app, diagnostics);
    const middleware = draft.middleware.map((m, i) =>
      resolveMiddleware(m, draft.middlewareSites[i]!, config, index, diagnostics),
    );
    if (!handler || middleware.some((m) => m === undefined)) continue;
    const record: RouteRecord = {
      index: app.routes.length,
      verbs: draft.verbs,
      url: draft.url,
      tokens: draft.tokens,
      params: draft.params,
      regex: draft.regex,
      name: draft.name?.value,
      handler: handler.ref,
      handlerLabel: handler.label,
      middleware: middleware as MiddlewareRef[],
      source: draft.definition.loc,
    };
    app.routes.push(record);
  }
  return app;
}

/** The module file of a fully qualified class name, by the longest matching namespace. */
export function fileOfClass(
  fqn: string,
  config: ResolvedConfig,
): { file?: string; tried: string[] } {
  const key = Object.keys(config.namespaces)
    .filter((ns) => fqn.startsWith(`${ns}\\`))
    .sort((a, b) => b.length - a.length)[0];
  if (key === undefined) return { tried: [] };
  const base = path.join(config.namespaces[key]!, ...fqn.slice(key.length + 1).split('\\'));
  const tried = EXTENSIONS.map((ext) => base + ext);
  return { file: tried.find((f) => existsSync(f)), tried };
}

// --- internal ---

interface Resolved {
  ref: HandlerRef;
  label: string;
}

function resolveHandler(
  draft: RouteDraft,
  config: ResolvedConfig,
  index: SourceIndex,
  app: CompiledApp,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const callback = draft.callback;
  const value = callback.value;
  if (typeof value === 'string')
    return resolveString(value, draft.namespace, callback.loc, config, index, diagnostics);
  const call = index.callAt(callback.loc);
  const argument = call && callbackArgument(call);
  if (!argument) {
    diagnostics.error(
      'E_CALLBACK',
      'the route callback could not be found in the source',
      callback.loc,
      'write the callback inline in the route call',
    );
    return undefined;
  }
  if (Array.isArray(value))
    return resolveTuple(
      value as readonly [unknown, string],
      argument,
      callback.loc,
      index,
      diagnostics,
    );
  if (typeof value === 'function') return hoist(argument, callback.loc, app, diagnostics);
  diagnostics.error(
    'E_CALLBACK',
    `a route callback must be a closure, 'Class@method' or [Class, 'method']`,
    callback.loc,
  );
  return undefined;
}

/** `get(url, cb)`: argument 1; `match(verbs, url, cb)`: argument 2. */
function callbackArgument(call: CallExpression): Node | undefined {
  const callee = call.getExpression();
  const method = Node.isPropertyAccessExpression(callee) ? callee.getName() : '';
  return call.getArguments()[method === 'match' ? 2 : 1];
}

function resolveString(
  text: string,
  namespace: string,
  loc: SourceLocation,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) {
    diagnostics.error(
      'E_CALLBACK',
      `the callback ${JSON.stringify(text)} is not 'Class@method'`,
      loc,
      "write e.g. 'UserController@show'",
    );
    return undefined;
  }
  const className = text.slice(0, at);
  const method = text.slice(at + 1);
  const fqn = className.startsWith('\\') ? className.slice(1) : `${namespace}\\${className}`;
  const found = findClass(fqn, loc, config, index, diagnostics);
  if (!found || !checkMethod(found, method, loc, index, diagnostics)) return undefined;
  return {
    ref: { kind: 'method', class: found.import, className: found.name, method },
    label: text,
  };
}

function resolveTuple(
  value: readonly [unknown, string],
  argument: Node,
  loc: SourceLocation,
  index: SourceIndex,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const first = Node.isArrayLiteralExpression(argument) ? argument.getElements()[0] : undefined;
  const found = first && index.classOf(first);
  if (!found) {
    diagnostics.error(
      'E_CLASS',
      'the class of the [Class, method] callback must be an exported class imported by the route file',
      loc,
    );
    return undefined;
  }
  const method = value[1];
  if (!checkMethod(found, method, loc, index, diagnostics)) return undefined;
  return {
    ref: { kind: 'method', class: found.import, className: found.name, method },
    label: `${found.name}@${method}`,
  };
}

function hoist(
  argument: Node,
  loc: SourceLocation,
  app: CompiledApp,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const deps = closureDeps(argument as Expression, diagnostics);
  if (!deps) return undefined;
  for (const entry of deps.imports) {
    if (!app.imports.some((i) => i.file === entry.file && i.local === entry.local))
      app.imports.push(entry);
  }
  for (const constant of deps.constants) {
    if (!app.constants.some((c) => c.file === constant.file && c.text === constant.text))
      app.constants.push(constant);
  }
  const id = app.closures.length;
  app.closures.push({ id, text: argument.getText(), source: locationOf(argument) });
  const file = path.basename(loc.file);
  return { ref: { kind: 'closure', closure: id }, label: `closure ${file}:${loc.line}` };
}

function resolveMiddleware(
  entry: Located<ClassReference>,
  site: MiddlewareSite,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): MiddlewareRef | undefined {
  if (typeof entry.value === 'string') {
    const [className = '', ...args] = entry.value.split(':');
    const root = Object.keys(config.namespaces)[0] ?? 'App';
    const fqn = className.startsWith('\\') ? className.slice(1) : `${root}\\${className}`;
    const found = findClass(fqn, entry.loc, config, index, diagnostics);
    if (!found || !checkMethod(found, 'handle', entry.loc, index, diagnostics)) return undefined;
    return { class: found.import, label: entry.value, args };
  }
  const node = middlewareNode(site, index);
  const found = node && index.classOf(node);
  if (!found) {
    diagnostics.error(
      'E_CLASS',
      'a middleware class must be an exported class imported by the route file',
      entry.loc,
      "or name it as a string, e.g. 'Middleware\\Auth:admin'",
    );
    return undefined;
  }
  if (!checkMethod(found, 'handle', entry.loc, index, diagnostics)) return undefined;
  return { class: found.import, label: found.name, args: [] };
}

/** The expression of a middleware class value: in a `middleware` setting, or an argument. */
function middlewareNode(site: MiddlewareSite, index: SourceIndex): Node | undefined {
  const call = index.callAt(site.loc);
  if (!call) return undefined;
  if (site.kind === 'argument') return call.getArguments()[site.index];
  for (const argument of call.getArguments()) {
    if (!Node.isObjectLiteralExpression(argument)) continue;
    const property = argument.getProperty('middleware');
    const value =
      property && Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
    if (!value) continue;
    return Node.isArrayLiteralExpression(value) ? value.getElements()[site.index] : value;
  }
  return undefined;
}

function findClass(
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
    diagnostics.error(
      'E_MODULE',
      `no module for class ${fqn} (${where})`,
      loc,
      'check the class name and namespace, or the `namespaces` setting in course.config.ts',
    );
    return undefined;
  }
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

function checkMethod(
  found: FoundClass,
  method: string,
  loc: SourceLocation,
  index: SourceIndex,
  diagnostics: Diagnostics,
): boolean {
  const methods = index.methodsOf(found);
  if (methods.includes(method)) return true;
  diagnostics.error(
    'E_METHOD',
    `class ${found.name} has no method ${method}`,
    loc,
    methods.length ? `its methods: ${methods.join(', ')}` : `add ${method}() to ${found.name}`,
  );
  return false;
}
