import { bounded, longSegment, TOO_LONG } from '../matching/bound.js';
import {
  entered,
  inlinable,
  inlined,
  servingInline,
  stored,
  type RequestContext,
  type Scope,
  type StartOptions,
} from './context.js';
import {
  HttpException,
  MethodNotAllowedHttpException,
  NotFoundHttpException,
  statusText,
} from './errors.js';
import {
  handedError,
  missing,
  plainAnswer,
  report,
  statusResponse,
  withErrorHeaders,
} from './error-answer.js';
import {
  answerGroupPreflight,
  answerPreflight,
  corsClass,
  corsAllowsOrigin,
  corsOnError,
  tableHasCors,
} from '../features/cors.js';
import { boot } from './boot.js';
import { allowedHost, badHost } from './host.js';
import { isForm, type ParsedBody } from '../features/input.js';
import { logError } from './log.js';
import { normalizePath } from './path.js';
import type { CourseRequest } from './request.js';
import { CourseResponse } from './response.js';
import { applyResult } from './result.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import type { MatchHit, RouteTable } from '../types.js';

export type { StartOptions } from './context.js';
export type { BootRouter } from './boot.js';

/** What a request ends with: our response, or a Fetch `Response` a route returned. */
export type Outcome = CourseResponse | Response;

/**
 * Serves one request: boot managers, match, CSRF, middleware, callback, and error handling.
 * A request that needs nothing asynchronous (no body, no middleware, a callback that returns
 * a value) is answered synchronously, without a promise. `settle` makes the adapter's answer of
 * the outcome (a Fetch `Response`) inside the last step, rather than in a `then` of its own.
 */
export function dispatch(
  table: RouteTable,
  options: StartOptions,
  request: CourseRequest,
): Outcome | Promise<Outcome>;
export function dispatch<T>(
  table: RouteTable,
  options: StartOptions,
  request: CourseRequest,
  settle: (outcome: Outcome) => T,
): T | Promise<T>;
export function dispatch(
  table: RouteTable,
  options: StartOptions,
  request: CourseRequest,
  settle: (outcome: Outcome) => unknown = same,
): unknown {
  const response = new CourseResponse();
  if (options.bodyLimit !== undefined) request.bodyLimit = options.bodyLimit;
  const context: RequestContext = { table, options, request, response };
  const scope: Served = { context, settle, inline: false };
  const outcome = serve(scope);
  // A promise settles and lets the context go itself (`serve`).
  if (outcome instanceof Promise) return outcome;
  scope.context = undefined;
  return settle(outcome);
}

/** The response for a request that never reached the router (a malformed target). */
export function badRequest(status = 400): CourseResponse {
  return statusResponse(new HttpException(status), {}, undefined);
}

// --- internal ---

/** The store of a request being served, with what makes the adapter's answer of its outcome. */
interface Served extends Scope {
  readonly settle: (outcome: Outcome) => unknown;
  /** Served without the store (`inlined`): its route's code is synchronous. */
  inline: boolean;
}

const same = (outcome: Outcome): Outcome => outcome;

// A rewrite may lead to another; past this many the request fails instead of looping.
const MAX_REWRITES = 5;
const SPOOFABLE = new Set(['PUT', 'PATCH', 'DELETE']);
// The verbs a POSTed form can be routed as: its own, or the one its `_method` names.
const FORM_VERBS = ['POST', ...SPOOFABLE];
/** Default `maxParamLength`. */
export const MAX_PARAM_LENGTH = 1000;
/** Longest request target the adapters accept; longer is a 414. */
export const MAX_TARGET_LENGTH = 8 * 1024;

/** Whether the router reads a body for `method`: POST, PUT, PATCH, DELETE. */
function hasBody(method: string): boolean {
  // Compared, not looked up in a `Set`: a runtime's verb is a new string, which a `Set` hashes
  // each time.
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/**
 * Serves the request of `scope`; a promise it returns has the adapter's answer (`settle`) and
 * empties the scope once it settles. The request enters the store (`AsyncLocalStorage`) once its
 * route is known, unless the build proved the route's code synchronous (`RouteEntry.sync`): such
 * code creates no continuation that runs before the request is answered (the scope is emptied
 * with no `await` after its value), so helpers find the request through `inlined` alone.
 */
function serve(scope: Served): Outcome | Promise<unknown> {
  const context = scope.context!;
  const { table, options, request } = context;
  const host = request.authority();
  if (badHost(request.getHeader('host'), host))
    return statusResponse(new HttpException(400, 'Bad Host header'), options, request);
  if (options.allowedHosts !== undefined && !allowedHost(request.getHost(), options.allowedHosts))
    return statusResponse(new HttpException(400, 'Host not allowed'), options, request);
  // Boot managers and `_method` may change the path or the verb: the route is found after them.
  // A target or host over the parameter limit is normalised before any regex reads it (`find`).
  if (
    table.bootManagers?.length ||
    (request.method === 'POST' && isForm(request.mediaType())) ||
    request.target.length > paramLimit(options) ||
    (host !== undefined && host.length > paramLimit(options))
  ) {
    const path = normalizePath(request.target);
    if (path === undefined) return statusResponse(new HttpException(400), options, request);
    request.path = path;
    return entered(scope, preparedServed, scope);
  }
  const target = resolveTarget(table, request.method, request.target, hostOf(context));
  if (target === undefined) return statusResponse(new HttpException(400), options, request);
  request.path = target.path;
  scope.inline = target.hit?.route.sync === true && inlinable();
  return scope.inline ? routed(scope, target) : entered(scope, routed, scope, target);
}

/** Serves the request of `scope` at its route (`target`). */
function routed(scope: Served, target: ResolvedTarget): Outcome | Promise<unknown> {
  const context = scope.context!;
  try {
    return route(context, 0, target, scope);
  } catch (error) {
    return released(scope, failed(scope, error));
  }
}

/** `fail` for the request of `scope`, in the store: exception handlers may `await`. */
function failed(scope: Served, error: unknown): Promise<Outcome> {
  const context = scope.context!;
  return scope.inline ? entered(scope, fail, error, context, 0) : fail(error, context, 0);
}

function preparedServed(scope: Served): Promise<unknown> {
  return released(scope, prepared(scope.context!));
}

/**
 * The adapter's answer of `outcome`, the scope emptied once it settles; its error goes to `fail`
 * first when `failing`. An `async` function rather than `then` callbacks: no closure is made for
 * each request.
 */
async function released(
  scope: Served,
  outcome: Promise<Outcome>,
  failing = false,
): Promise<unknown> {
  try {
    return scope.settle(await outcome);
  } catch (error) {
    if (!failing) throw error;
    return scope.settle(await failed(scope, error));
  } finally {
    scope.context = undefined;
  }
}

/** Serves a request that boot managers or `_method` spoofing see first. */
async function prepared(context: RequestContext): Promise<Outcome> {
  const { table, options, request } = context;
  try {
    if (table.bootManagers?.length) {
      await boot(table, request);
      takeRewriteUrl(request);
    }
    if (request.method === 'POST' && isForm(request.mediaType())) {
      // A form is read for its `_method` only when a route could take it, and after the CSRF
      // check: a 404, a 405 or a cross-site form is refused before its body is read.
      const take = routeFor(context);
      if (FORM_VERBS.some((verb) => take(verb) !== undefined)) {
        // Each `await` is a promise and a turn of the microtask queue: none for a check not made.
        const checked = earlyCsrf(context, take);
        if (checked !== undefined) await checked;
        spoof(request, await request.loadInput(options.multipartLimit));
      }
    }
    return await route(context, 0);
  } catch (error) {
    return fail(error, context, 0);
  }
}

/**
 * The CSRF check of a form POST before its body is read for `_method`, unless a route it could
 * reach (`take`, for each of `FORM_VERBS`) has a `Cors` that allows its origin (which the check
 * lets through once the route is known). It runs again once the route is found, with the same
 * answer.
 * What the verifier's `handle` returned (a promise to await), `undefined` when there is no check
 * to make: no promise for an app without CSRF.
 */
function earlyCsrf(
  context: RequestContext,
  take: (method: string) => MatchHit | undefined,
): unknown {
  const { table, request } = context;
  const Verifier = table.csrfVerifier;
  if (Verifier === undefined) return undefined;
  // Only an origin a route's `Cors` allows waits for the route: any other is refused unread.
  if (tableHasCors(table) && FORM_VERBS.some((verb) => corsAllowsOrigin(request, take(verb))))
    return undefined;
  return new Verifier().handle(request as never);
}

/** `_method` from a POSTed form (`parsed`, its body): PUT, PATCH or DELETE. */
function spoof(request: CourseRequest, parsed: ParsedBody): void {
  const field = parsed.post['_method'];
  const method = typeof field === 'string' ? field.toUpperCase() : undefined;
  if (method && SPOOFABLE.has(method)) request.method = method;
}

/**
 * Routes the request; `target`: its path and route, when `resolveTarget` found them already.
 * With `scope` (the request's first route), a promise it returns gives its error to `fail`,
 * holds the adapter's answer (`settle`) and empties `scope` once it settles (`released`);
 * without, its caller does all three.
 */
function route(context: RequestContext, depth: number): Outcome | Promise<Outcome>;
function route(
  context: RequestContext,
  depth: number,
  target: ResolvedTarget,
  scope: Served,
): Outcome | Promise<unknown>;
function route(
  context: RequestContext,
  depth: number,
  target?: ResolvedTarget,
  scope?: Served,
): Outcome | Promise<unknown> {
  const { table, options, request, response } = context;
  const hit =
    target !== undefined
      ? target.hit
      : find(context, (m, path, host) => table.match(m, path, host));
  if (hit === undefined) {
    const allowed = find(context, (_, path, host) => table.allowed(path, host));
    if (request.method === 'OPTIONS' && tableHasCors(table)) {
      // At a path no route takes, the `Cors` of a group around it answers.
      const preflight =
        allowed.length > 0
          ? answerPreflight(request, response, allowed, routeFor(context))
          : answerGroupPreflight(request, response, () => groupCors(context));
      if (preflight !== undefined) return preflight;
    }
    if (allowed.length === 0 && table.errorRedirect !== undefined) {
      return response.redirect(table.errorRedirect, 302);
    }
    // With no handler to give it to, the answer is made without the exception (and its stack).
    if (handlersOf(context).length === 0) return withCors(context, missing(allowed));
    throw allowed.length === 0
      ? new NotFoundHttpException()
      : new MethodNotAllowedHttpException(allowed);
  }
  request.loaded = hit;
  const longest = paramLimit(options);
  for (const value of hit.params)
    if (value !== undefined && value.length > longest) throw new HttpException(414);
  if (hasBody(request.originalMethod) || table.csrfVerifier !== undefined)
    return guarded(context, hit, depth, scope);
  const outcome = answered(context, hit, depth, scope);
  return scope !== undefined && outcome instanceof Promise
    ? released(scope, outcome, true)
    : outcome;
}

function paramLimit(options: StartOptions): number {
  return options.maxParamLength ?? MAX_PARAM_LENGTH;
}

/**
 * `look(method, path, host)` for the request, with no parameter regex reading more than the
 * parameter limit: a path and host within it cannot give one more; for a longer one, a segment
 * over the limit is a 414 before any route is looked for, and a regex that reads several
 * segments (or the host) runs only within its bound, or the request is a 414 (`bounded`).
 */
function find<T>(
  context: RequestContext,
  look: (method: string, path: string, host: string) => T,
): T {
  const { options, request } = context;
  const { method, path } = request;
  const host = hostOf(context);
  const longest = paramLimit(options);
  if (path.length <= longest && host.length <= longest) return look(method, path, host);
  if (longSegment(path, longest)) throw new HttpException(414);
  const found = bounded(longest, () => look(method, path, host));
  if (found === TOO_LONG) throw new HttpException(414);
  return found;
}

/** The route `method` would take at the request's path and host (`find`'s bounds). */
function routeFor(context: RequestContext): (method: string) => MatchHit | undefined {
  return (method) => find(context, (_, path, host) => context.table.match(method, path, host));
}

/**
 * The CSRF check and body of a matched request, then its middleware and callback (`answered`).
 * The CSRF check comes first: a request it refuses for its origin or token costs no body read
 * or parse (it reads the body itself when the token is a form field). With `scope`, it does
 * what `released` does, itself: no other promise for each request with a body.
 */
async function guarded(
  context: RequestContext,
  hit: MatchHit,
  depth: number,
  scope: Served | undefined,
): Promise<unknown> {
  const { table, options, request } = context;
  try {
    if (table.csrfVerifier) await new table.csrfVerifier().handle(request as never);
    // A form's body may be parsed already, for its `_method`: not awaited again.
    if (hasBody(request.originalMethod) && request.parsed === undefined)
      await request.loadInput(options.multipartLimit);
    const answer = answered(context, hit, depth, scope);
    const outcome = answer instanceof Promise ? await answer : answer;
    return scope === undefined ? outcome : scope.settle(outcome);
  } catch (error) {
    if (scope === undefined) throw error;
    return scope.settle(await failed(scope, error));
  } finally {
    if (scope !== undefined) scope.context = undefined;
  }
}

/** `answer`, inline when `scope` is served so (`inlined`). */
function answered(
  context: RequestContext,
  hit: MatchHit,
  depth: number,
  scope: Served | undefined,
): Outcome | Promise<Outcome> {
  return scope?.inline === true
    ? inlined(scope, answer, context, hit, depth)
    : answer(context, hit, depth);
}

/**
 * The outcome of a matched request's middleware, from the `from`th, then of its callback. A
 * value is awaited only when it is a promise (`resumed`): each `await` is a promise and a turn
 * of the microtask queue.
 */
function answer(
  context: RequestContext,
  hit: MatchHit,
  depth: number,
  from = 0,
): Outcome | Promise<Outcome> {
  const { request } = context;
  const middleware = hit.route.middleware;
  for (let i = from; i < middleware.length; i++) {
    const entry = middleware[i]!;
    const use = new entry.use();
    // A call without a spread when the middleware takes no arguments: the common case.
    const stop: unknown =
      entry.args.length === 0
        ? use.handle(request as never)
        : use.handle(request as never, ...entry.args);
    if (isThenable(stop)) return awaited(context, resumed, context, hit, depth, i, stop);
    const outcome = stopped(context, stop, depth);
    if (outcome !== undefined) return outcome;
  }
  return finish(context, hit.route.call(hit.params), depth);
}

/** `answer` on from middleware `i` once its promise (`stop`) settles. */
async function resumed(
  context: RequestContext,
  hit: MatchHit,
  depth: number,
  i: number,
  stop: PromiseLike<unknown>,
): Promise<Outcome> {
  return stopped(context, await stop, depth) ?? answer(context, hit, depth, i + 1);
}

/** What a middleware's value makes of the request: a rewrite, an answer, or `undefined` to go on. */
function stopped(
  context: RequestContext,
  stop: unknown,
  depth: number,
): Outcome | Promise<Outcome> | undefined {
  if (pendingRewrite(context.request)) return stored(rewrite, context, depth);
  if (stop !== undefined && stop !== null) return applyResult(stop, context.response);
  return undefined;
}

/** The outcome of a callback's value (awaited when it is a promise), or of its rewrite. */
function finish(
  context: RequestContext,
  value: unknown,
  depth: number,
): Outcome | Promise<Outcome> {
  if (isThenable(value)) return awaited(context, finished, context, value, depth);
  if (pendingRewrite(context.request)) return stored(rewrite, context, depth);
  return applyResult(value, context.response);
}

async function finished(
  context: RequestContext,
  value: PromiseLike<unknown>,
  depth: number,
): Promise<Outcome> {
  return finish(context, await value, depth);
}

/**
 * `run(...args)` for a promise a middleware or callback returned: in the store when the request
 * is served inline, whose route the build found synchronous — a build older than its code.
 */
function awaited<A extends unknown[]>(
  context: RequestContext,
  run: (...args: A) => Promise<Outcome>,
  ...args: A
): Promise<Outcome> {
  if (!servingInline()) return run(...args);
  const route = context.request.loaded?.route;
  if (route !== undefined && !stale.has(route)) {
    stale.add(route);
    console.warn(
      `course: ${route.methods.join('|')} ${route.url} (${route.source}) returned a promise, but the build found its code synchronous: what runs after its first await finds no request. Run \`course build\` again.`,
    );
  }
  return stored(run, ...args);
}

// The routes `awaited` warned of, each once.
const stale = new WeakSet<object>();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function pendingRewrite(request: CourseRequest): boolean {
  return request.rewriteUrl !== undefined || request.rewriteCallback !== undefined;
}

/** Serves a rewrite set by a boot manager, middleware, callback or exception handler. */
async function rewrite(context: RequestContext, depth: number): Promise<Outcome> {
  const { table, request, response } = context;
  if (depth >= MAX_REWRITES)
    throw new Error(`course: more than ${MAX_REWRITES} rewrites for ${request.target}`);
  const callback = request.rewriteCallback;
  request.rewriteCallback = undefined;
  if (callback !== undefined) {
    const params = request.loaded?.params ?? [];
    if (typeof callback === 'function')
      return applyResult(await (callback as (...p: unknown[]) => unknown)(...params), response);
    const registered = typeof callback === 'string' ? table.callbacks?.[callback] : undefined;
    if (!registered)
      throw new Error(
        `course: setRewriteCallback(${JSON.stringify(callback)}) names no routed 'Class@method'`,
      );
    return applyResult(await registered(params), response);
  }
  takeRewriteUrl(request);
  return route(context, depth + 1);
}

function takeRewriteUrl(request: CourseRequest): void {
  const url = request.rewriteUrl;
  if (url === undefined) return;
  request.rewriteUrl = undefined;
  const path = normalizePath(url.startsWith('/') ? url : `/${url}`);
  if (path === undefined) throw new HttpException(400);
  request.path = path;
}

/**
 * Gives the error to the exception handlers of the matched route's groups, innermost first,
 * then to those of the other groups whose prefix (and domain) match the request, most specific
 * first. A group's handlers see every error of a request under it, whether it came before the
 * route was found (a 405, a form read for `_method`) or after (a JSON body, the query). A
 * handler that returns or writes a response, or sets a rewrite, ends it; one that throws
 * replaces the error; one that does none of these passes it on. What no handler takes becomes
 * its status response.
 */
async function fail(error: unknown, context: RequestContext, depth: number): Promise<Outcome> {
  try {
    return await answerError(error, context, depth);
  } catch (broken) {
    // The error broke its own answer (a `message` getter that throws, a revoked proxy read by
    // `instanceof`), or `onError` threw: a plain 500 all the same, on every adapter.
    try {
      logError(
        `course: ${context.request.method} ${context.request.path}: an error could not be answered:`,
        broken,
      );
    } catch {
      // Nothing of it can be read: the 500 says enough.
    }
    return plainAnswer(500, statusText(500));
  }
}

/** `fail`'s answer to `error`, through the handlers; it throws when `error` cannot be read. */
async function answerError(
  error: unknown,
  context: RequestContext,
  depth: number,
): Promise<Outcome> {
  const { options, request, response } = context;
  for (const Handler of handlersOf(context)) {
    let taken: Outcome | undefined;
    try {
      const result: unknown = await new Handler().handleError(
        request as never,
        handedError(error) as never,
      );
      if (pendingRewrite(request)) taken = await rewrite(context, depth);
      else if (result !== undefined && result !== null) taken = applyResult(result, response);
      else if (response.written) taken = response;
    } catch (thrown) {
      error = thrown;
    }
    if (taken === undefined) continue;
    // A handler's 5xx is a server error all the same: `onError` (the log) sees what it answered.
    if (taken.status >= 500) report(error, options, request);
    // A `Response` of its own is sent as it is.
    return taken instanceof Response ? taken : withCors(context, withErrorHeaders(taken, error));
  }
  return withCors(context, statusResponse(error, options, request));
}

/** An error's answer with the CORS headers of the request's route, when it has `Cors`. */
function withCors(context: RequestContext, answer: CourseResponse): CourseResponse {
  if (!tableHasCors(context.table)) return answer;
  return corsOnError(context.request, answer, routeFor(context), () => groupCors(context));
}

/** The `Cors` middleware of the groups around the request's path and host, if any. */
function groupCors(context: RequestContext): (new () => unknown) | undefined {
  return corsClass(aroundRequest(context, context.table.corsFor));
}

/** The exception handlers of the request's groups, in the order `fail` tries them. */
function handlersOf(context: RequestContext): NonNullable<MatchHit['route']['handlers']> {
  const own = context.request.loaded?.route.handlers ?? [];
  if (context.table.handlersFor === undefined) return own;
  const around = aroundRequest(context, context.table.handlersFor);
  return own.length === 0
    ? around
    : [...own, ...around.filter((Handler) => !own.includes(Handler))];
}

/**
 * The classes of the groups around the request's path and host (`lookup`: the table's
 * `handlersFor` or `corsFor`). A host regex runs within its bound here too; past it, no group is
 * the request's.
 */
function aroundRequest<T>(
  context: RequestContext,
  lookup: ((path: string, host: string) => readonly T[]) | undefined,
): readonly T[] {
  if (lookup === undefined) return [];
  const { options, request } = context;
  const host = hostOf(context);
  const found = bounded(paramLimit(options), () => lookup(request.path, host));
  return found === TOO_LONG ? [] : found;
}

/** The host routes are matched on: the request's, when a route depends on it. */
function hostOf({ table, request }: RequestContext): string {
  return table.usesHost ? request.getHost() : '';
}
