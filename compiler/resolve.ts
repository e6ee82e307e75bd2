import { Node, type CallExpression, type Expression } from './_ts-morph.js';
import { callbackParts } from 'course-router/internal';
import type { Recording, SourceLocation } from 'course-router/internal';
import { checkMethod, findClass, parses, resolveReference, valueLocation } from './classes.js';
import { closureDeps, locationOf } from './closures.js';
import { mayBeCors } from './cors-classes.js';
import {
  checkHandlerParams,
  checkLeadingParams,
  type Given,
  unusedArgument,
  deliveredOf,
  isFunctionLike,
  methodDeclaration,
  type HandlerDeclaration,
} from './handler-params.js';
import { formlessReturn, mayReturnBoolean, returnsAtOnce } from './handler-returns.js';
import type { ResolvedConfig } from './config.js';
import { formatLocation, type Diagnostics } from './errors.js';
import type { SitedReference } from './groups.js';
import { LeftOutRoutes } from './left-out.js';
import type { GroupDraft, RouteDraft } from './normalize.js';
import type { FoundClass, SourceIndex } from './source-index.js';
import type {
  ClassRefResolved,
  CompiledApp,
  HandlerRef,
  MiddlewareRef,
  RouteRecord,
} from './types.js';

/**
 * Resolves what each route calls: `'Class@method'` through the namespaces, `[Class, 'method']`
 * and class values through the imports of the route file, closures by hoisting them; and the
 * middleware, exception handlers, boot managers and CSRF verifier. Every missing module, class
 * or method is an error at the `file:line:col` of the call that named it.
 */
export function resolveApp(
  drafts: readonly RouteDraft[],
  groups: { handlers: readonly GroupDraft[]; middleware: readonly GroupDraft[] },
  recording: Recording,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): CompiledApp {
  const app: CompiledApp = {
    root: config.root,
    routes: [],
    handlerGroups: [],
    corsGroups: [],
    bootManagers: [],
    csrfVerifier: undefined,
    errorRedirect: undefined,
    closures: [],
    imports: [],
    constants: [],
  };
  const references = new ReferenceCache(config, index, diagnostics);
  const leftOut = new LeftOutRoutes();
  for (const draft of drafts) {
    const record = resolveRoute(draft, app, config, index, diagnostics, references, leftOut);
    if (record) app.routes.push(record);
  }
  leftOut.report(diagnostics);
  for (const group of groups.handlers) {
    const handlers = references.all(group.references, 'handleError');
    handlers?.forEach((h, i) => references.checkExceptionHandler(h, group.references[i]!));
    if (handlers)
      app.handlerGroups.push({ prefix: group.prefix, domain: group.domain, classes: handlers });
  }
  // The routes resolved and checked each group's middleware already.
  for (const group of groups.middleware) {
    const cors = (references.all(group.references, 'handle') ?? []).filter((m) =>
      mayBeCors(m.class, index),
    );
    if (cors.length > 0)
      app.corsGroups.push({ prefix: group.prefix, domain: group.domain, classes: cors });
  }
  const router = recording.router;
  const bootReferences = router.bootManagers.map(argumentReference);
  app.bootManagers = references.all(bootReferences, 'boot') ?? [];
  app.bootManagers.forEach((m, i) => references.checkBootManager(m, bootReferences[i]!));
  app.csrfVerifier =
    router.csrfVerifier && references.one(argumentReference(router.csrfVerifier), 'handle');
  // A CSRF verifier (which may await, before any route's code) and boot managers serve every
  // request with the store: no route is served inline.
  if (app.csrfVerifier !== undefined || app.bootManagers.length > 0)
    for (const route of app.routes) route.sync = false;
  app.errorRedirect = router.error?.value.redirect ? router.error.value.url : undefined;
  return app;
}

// --- internal ---

function argumentReference(entry: {
  value: SitedReference['value'];
  loc: SourceLocation;
}): SitedReference {
  return {
    value: entry.value,
    site: { loc: entry.loc, kind: 'argument', attribute: '', index: 0 },
  };
}

/** What a middleware's, an exception handler's and a boot manager's method is given first or second. */
const REQUEST: Given = {
  what: 'the request',
  type: 'CourseRequest',
  not: {
    names: /^(?:Request|IncomingMessage|Http2ServerRequest)$/,
    why: "not the runtime's own",
    hint: "declare it CourseRequest: the runtime's own request is request.raw",
  },
};

/** Resolves each reference once (a group's middleware serves all of its routes). */
class ReferenceCache {
  readonly #cache = new Map<string, (ClassRefResolved & { args: string[] }) | undefined>();
  readonly #checked = new Set<string>();
  readonly #atOnce = new Map<string, boolean>();

  constructor(
    readonly config: ResolvedConfig,
    readonly index: SourceIndex,
    readonly diagnostics: Diagnostics,
  ) {}

  one(
    reference: SitedReference,
    method: string,
  ): (ClassRefResolved & { args: string[] }) | undefined {
    const { loc, kind, attribute, index } = reference.site;
    const key = `${typeof reference.value === 'string' ? reference.value : `${loc.file}:${loc.line}:${loc.column}:${kind}:${attribute}:${index}`}\0${method}`;
    if (!this.#cache.has(key))
      this.#cache.set(
        key,
        resolveReference(reference, method, this.config, this.index, this.diagnostics),
      );
    return this.#cache.get(key);
  }

  /** A middleware's `handle(request, ...args)` takes its `Class:arg` strings. */
  checkArguments(middleware: MiddlewareRef, reference: SitedReference): void {
    const { loc } = reference.site;
    const at = `${loc.file}:${loc.line}:${loc.column}`;
    const key = `${at}\0${middleware.class.file}\0${middleware.class.exportName}\0${middleware.args.join('\0')}`;
    if (this.#checked.has(key)) return;
    this.#checked.add(key);
    const found = this.index.exportedClassIn(middleware.class.file, middleware.class.exportName);
    const declaration = found && methodDeclaration(found.node, 'handle');
    if (!declaration) return;
    const delivered = middleware.args.map((arg) => ({
      name: undefined,
      optional: false,
      what: `the argument ${JSON.stringify(arg)}`,
      value: arg,
    }));
    const label = `${middleware.label} (middleware ${found.name}.handle)`;
    const site = valueLocation(reference.site, this.index);
    checkLeadingParams(
      label,
      declaration,
      [REQUEST],
      site,
      this.config.root,
      this.index,
      this.diagnostics,
    );
    if (mayReturnBoolean(declaration, this.index))
      this.diagnostics.error(
        'E_HANDLER',
        `${label} returns a boolean: a middleware that returns anything but undefined or null answers the request with it (true would be sent as the page)`,
        site,
        'return nothing to let the request go on, or a response to stop it (response().httpCode(403).write(...))',
      );
    checkHandlerParams(
      label,
      declaration,
      delivered,
      site,
      this.config.root,
      this.index,
      this.diagnostics,
      1,
    );
    const unused = unusedArgument(declaration, middleware.args, this.index);
    if (unused !== undefined)
      this.diagnostics.warn(
        'E_HANDLER',
        `${label} is given the argument ${JSON.stringify(unused)}, which its handle() has no parameter for: it is not used`,
        site,
        'declare a parameter for it after the request, or leave it out of the name',
      );
  }

  /** Whether a middleware's `handle` returns no promise (`returnsAtOnce`). */
  handlesAtOnce(middleware: MiddlewareRef): boolean {
    const { file, exportName } = middleware.class;
    const key = `${file}\0${exportName}`;
    let atOnce = this.#atOnce.get(key);
    if (atOnce === undefined) {
      const found = this.index.exportedClassIn(file, exportName);
      const declaration = found && methodDeclaration(found.node, 'handle');
      atOnce = declaration !== undefined && returnsAtOnce(declaration, this.index);
      this.#atOnce.set(key, atOnce);
    }
    return atOnce;
  }

  /**
   * An exception handler's `handleError(request, error)` takes objects, and may not return a
   * boolean: a value other than undefined or null answers the request with it (`error.status ===
   * 404` sent as the page, a 200). Said once for each class, at the first place that names it.
   */
  checkExceptionHandler(handler: ClassRefResolved, reference: SitedReference): void {
    const called = this.#called(handler, reference, 'handleError', 'exception handler', [
      REQUEST,
      {
        what: 'the error',
        type: 'HandledError',
        not: {
          names: /HttpException$/,
          why: 'which is every error thrown, not only one class of them',
          hint: 'declare it HandledError, and tell an HttpException by instanceof',
        },
      },
    ]);
    if (!called || !mayReturnBoolean(called.declaration, this.index)) return;
    this.diagnostics.error(
      'E_HANDLER',
      `${called.label} returns a boolean: a handler that returns anything but undefined or null answers the request with it (false would be sent as the page, a 200)`,
      called.site,
      'return nothing to pass the error on, or a response to answer it (response().httpCode(404).json(...))',
    );
  }

  /** A boot manager's `boot(router, request)` is given objects. */
  checkBootManager(manager: ClassRefResolved, reference: SitedReference): void {
    this.#called(manager, reference, 'boot', 'boot manager', [
      { what: 'the router', type: 'BootRouter' },
      REQUEST,
    ]);
  }

  /**
   * Checks, once for each class, the leading parameters of `method` (`given`, in order); its
   * declaration, label and site for more checks, or `undefined` when checked before or not found.
   */
  #called(
    ref: ClassRefResolved,
    reference: SitedReference,
    method: string,
    role: string,
    given: readonly Given[],
  ): { declaration: Node; label: string; site: SourceLocation } | undefined {
    const key = `${method}\0${ref.class.file}\0${ref.class.exportName}`;
    if (this.#checked.has(key)) return undefined;
    this.#checked.add(key);
    const found = this.index.exportedClassIn(ref.class.file, ref.class.exportName);
    const declaration = found && methodDeclaration(found.node, method);
    if (!declaration) return undefined;
    const label = `${ref.label} (${role} ${found.name}.${method})`;
    const site = valueLocation(reference.site, this.index);
    checkLeadingParams(
      label,
      declaration,
      given,
      site,
      this.config.root,
      this.index,
      this.diagnostics,
    );
    return { declaration, label, site };
  }

  all(
    references: readonly SitedReference[],
    method: string,
  ): (ClassRefResolved & { args: string[] })[] | undefined {
    const resolved = references.map((r) => this.one(r, method));
    return resolved.every((r) => r !== undefined)
      ? (resolved as (ClassRefResolved & { args: string[] })[])
      : undefined;
  }
}

function resolveRoute(
  draft: RouteDraft,
  app: CompiledApp,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
  references: ReferenceCache,
  leftOut: LeftOutRoutes,
): RouteRecord | undefined {
  const optional = draft.definition.optionalMethod === true;
  const target = optional ? diagnostics.scratch() : diagnostics;
  const handler = resolveHandler(draft, app, config, index, target);
  if (optional && !handler) {
    for (const error of target.errors) {
      // A method the controller lacks leaves its route out; a controller that cannot be found
      // is an error (one for the resource's seven routes: `Diagnostics`).
      if (error.code === 'E_METHOD') leftOut.add(error, draft);
      else diagnostics.error(error.code, error.message, error.loc, error.hint);
    }
    return undefined;
  }
  const middleware = references.all(draft.middleware, 'handle') as MiddlewareRef[] | undefined;
  const handlers = references.all(draft.handlers, 'handleError');
  if (!handler || !middleware || !handlers) return undefined;
  if (handler.declaration) {
    const label = handler.ref.kind === 'closure' ? 'the closure' : handler.label;
    const { loc } = draft.callback;
    checkHandlerParams(
      label,
      handler.declaration,
      deliveredOf(draft),
      loc,
      config.root,
      index,
      diagnostics,
    );
    const formless = formlessReturn(handler.declaration, index);
    if (formless !== undefined)
      diagnostics.error(
        'E_HANDLER',
        `${label} returns ${formless.what}, which has no response form: a route's value is its answer`,
        loc,
        formless.hint,
      );
  }
  middleware.forEach((m, i) => references.checkArguments(m, draft.middleware[i]!));
  handlers.forEach((h, i) => references.checkExceptionHandler(h, draft.handlers[i]!));
  return {
    index: app.routes.length,
    verbs: draft.verbs,
    url: draft.url,
    tokens: draft.tokens,
    params: draft.params,
    regex: draft.regex,
    name: draft.name?.value,
    handler: handler.ref,
    handlerLabel: handler.label,
    middleware,
    match: draft.match,
    domain: draft.domain,
    handlers: handlers.map(({ class: c, label }) => ({ class: c, label })),
    source: draft.definition.loc,
    sync:
      handler.declaration !== undefined &&
      returnsAtOnce(handler.declaration, index) &&
      middleware.every((m) => references.handlesAtOnce(m)),
  };
}

interface Resolved {
  ref: HandlerRef;
  label: string;
  /** The function whose parameters the route delivers to, when the build can see it. */
  declaration?: HandlerDeclaration | undefined;
}

function resolveHandler(
  draft: RouteDraft,
  app: CompiledApp,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const { value, loc } = draft.callback;
  if (typeof value === 'string')
    return resolveString(value, draft.namespace, loc, config, index, diagnostics);
  const call = index.callAt(loc);
  const argument = call && callbackArgument(call);
  if (!argument) {
    diagnostics.error(
      'E_CALLBACK',
      'the route callback could not be found in the source',
      loc,
      'write the callback inline in the route call',
    );
    return undefined;
  }
  if (Array.isArray(value))
    return resolveTuple(value as readonly [unknown, string], argument, loc, index, diagnostics);
  if (typeof value === 'function') return hoist(argument, loc, app, diagnostics);
  diagnostics.error(
    'E_CALLBACK',
    "a route callback must be a closure, 'Class@method' or [Class, 'method']",
    loc,
  );
  return undefined;
}

/** `get(url, cb)`, `resource(url, C)`: argument 1; `match(verbs, url, cb)`: argument 2. */
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
  const parts = callbackParts(text);
  if (parts === undefined) {
    diagnostics.error(
      'E_CALLBACK',
      `the callback ${JSON.stringify(text)} is not 'Class@method'`,
      loc,
      "write e.g. 'UserController@show'",
    );
    return undefined;
  }
  const [className, method] = parts;
  const fqn = className.startsWith('\\') ? className.slice(1) : `${namespace}\\${className}`;
  const found = findClass(fqn, loc, config, index, diagnostics);
  if (!found || !checkMethod(found, method, loc, index, diagnostics)) return undefined;
  return methodRef(found, method, text);
}

/** `[Class, 'method']`, or a class argument (`resource(url, Class)`) with the method chosen by the compiler. */
function resolveTuple(
  value: readonly [unknown, string],
  argument: Node,
  loc: SourceLocation,
  index: SourceIndex,
  diagnostics: Diagnostics,
): Resolved | undefined {
  const classNode = Node.isArrayLiteralExpression(argument) ? argument.getElements()[0] : argument;
  const found = classNode && index.classOf(classNode);
  if (!found) {
    diagnostics.error(
      'E_CLASS',
      'the controller class must be an exported class imported by the route file',
      loc,
    );
    return undefined;
  }
  const method = value[1];
  if (!parses(found.import.file, index, diagnostics)) return undefined;
  if (!checkMethod(found, method, loc, index, diagnostics)) return undefined;
  return methodRef(found, method, `${found.name}@${method}`);
}

function methodRef(found: FoundClass, method: string, label: string): Resolved {
  return {
    ref: { kind: 'method', class: found.import, className: found.name, method },
    label,
    declaration: methodDeclaration(found.node, method),
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
  return {
    ref: { kind: 'closure', closure: id },
    // Its file as the route's source names it: `routers/web.ts`, not `web.ts`.
    label: `closure ${formatLocation(loc, app.root).replace(/:\d+$/, '')}`,
    declaration: isFunctionLike(argument) ? argument : undefined,
  };
}
