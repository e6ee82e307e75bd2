import { requireContext } from '../http/context.js';
import type { CourseRequest } from '../http/request.js';
import { isToken, type CourseResponse } from '../http/response.js';
import { CORS, isCorsClass } from './cors-mark.js';
import type { MatchHit, MiddlewareEntry, RouteTable } from '../types.js';

/** Who may read a route's answers from another origin: exact origins, `'*'`, or a function. */
export type CorsOrigins =
  '*' | readonly string[] | ((origin: string, request: CourseRequest) => boolean);

/**
 * CORS middleware. Extend it in the app (`app/Middleware/ApiCors.ts`) and set its fields; put
 * the class on a group or a route as any middleware. A request whose `Origin` is allowed gets
 * `Access-Control-Allow-Origin` with that origin (never `*` with credentials), the others no
 * CORS header; every answer says `Vary: Origin`. A preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered 204 by the router with the methods the route table
 * has for the path whose routes carry this middleware.
 */
export class Cors {
  /** @internal Marks the class across copies of the runtime (a test runner's beside Node's). */
  static readonly [CORS] = true;
  /** Exact origins (`'https://app.example'`, as browsers serialise them), `'*'`, or a function. */
  protected origins: CorsOrigins = [];
  /** Send `Access-Control-Allow-Credentials: true` (cookies); needs explicit origins. */
  protected credentials = false;
  /** Response headers the page may read besides the CORS-safelisted ones. */
  protected exposedHeaders: readonly string[] = [];
  /** Request headers a preflight may ask for (case-insensitive). */
  protected allowedHeaders: readonly string[] = [
    'content-type',
    'authorization',
    'x-csrf-token',
    'x-requested-with',
  ];
  /** Seconds a browser may keep a preflight's answer; `undefined`: the browser's default. */
  protected maxAge: number | undefined = undefined;
  /** `Origin: null` (sandboxed frames, `file:`, some redirects) is allowed only when this is true. */
  protected allowNullOrigin = false;

  /** As middleware: the CORS headers of an actual request (and of a preflight an `OPTIONS` route gets). */
  handle(request: CourseRequest): unknown {
    const { response } = requireContext('Cors');
    if (isPreflight(request)) {
      const { table } = requireContext('Cors');
      const methods = table.allowed(request.path, table.usesHost ? request.getHost() : '');
      // Allowed or not, a preflight is this middleware's to answer: the route never runs for it.
      return this.preflight(request, response, methods) ?? this.refused(response);
    }
    this.actual(request, response);
    return undefined;
  }

  /** The origin to answer with when `origin` may read this route's answers, else `undefined`. */
  allowedOrigin(origin: string, request: CourseRequest): string | undefined {
    this.check();
    const origins = this.origins;
    if (origins === '*') return this.credentials ? undefined : '*';
    if (origin === 'null' && !this.allowNullOrigin) return undefined;
    // A function is given an origin as a browser sends one: never `*`, two origins, a path.
    if (typeof origins === 'function')
      return serialised(origin) === origin && origins(origin, request) ? origin : undefined;
    return origins.includes(origin) ? origin : undefined;
  }

  /** @internal The 204 of a preflight for `methods`, or `undefined` when it is not allowed. */
  preflight(
    request: CourseRequest,
    response: CourseResponse,
    methods: readonly string[],
  ): CourseResponse | undefined {
    vary(response);
    const origin = this.allowedOrigin(request.getHeader('origin')!, request);
    const method = request.getHeader('access-control-request-method')!;
    const asked = headerList(request.getHeader('access-control-request-headers'));
    const allowed = this.allowedHeaders.map((h) => h.toLowerCase());
    // An `any()` route's `*` takes every verb: the one asked for is named, when it is one.
    const every = methods.includes('*');
    if (
      origin === undefined ||
      asked === undefined ||
      !isToken(method) ||
      !(every || methods.includes(method))
    )
      return undefined;
    if (asked.some((name) => !allowed.includes(name))) return undefined;
    const headers = response.headers;
    this.allowOrigin(response, origin);
    const named = every ? [...new Set([...methods.filter((m) => m !== '*'), method])] : methods;
    headers['access-control-allow-methods'] = named.join(', ');
    if (asked.length > 0) {
      headers['access-control-allow-headers'] = asked.join(', ');
      vary(response, 'Access-Control-Request-Headers');
    }
    if (this.maxAge !== undefined) headers['access-control-max-age'] = String(this.maxAge);
    response.status = 204;
    response.body = null;
    return response;
  }

  /**
   * @internal The answer to a preflight this middleware refuses (its origin, or a header it
   * asks for): 204 with no CORS header, as `cors` and Hono answer it, so that the browser says
   * the origin was not allowed (a 405 would read as a method its routes lack).
   */
  refused(response: CourseResponse): CourseResponse {
    vary(response);
    response.status = 204;
    response.body = null;
    return response;
  }

  /** @internal The CORS headers of an actual request, on `response`. */
  actual(request: CourseRequest, response: CourseResponse): void {
    vary(response);
    const given = request.getHeader('origin');
    const origin = given === undefined ? undefined : this.allowedOrigin(given, request);
    if (origin === undefined) return;
    this.allowOrigin(response, origin);
    if (this.exposedHeaders.length > 0)
      response.headers['access-control-expose-headers'] = this.exposedHeaders.join(', ');
  }

  // --- internal ---

  private allowOrigin(response: CourseResponse, origin: string): void {
    response.headers['access-control-allow-origin'] = origin;
    if (this.credentials) response.headers['access-control-allow-credentials'] = 'true';
  }

  private check(): void {
    if (this.credentials && this.origins === '*')
      throw new TypeError(
        `course: ${this.constructor.name} allows credentials from every origin ('*'); list the origins`,
      );
    if (!Array.isArray(this.origins) || checked.has(this.constructor)) return;
    for (const origin of this.origins as readonly string[]) {
      const written = serialised(origin);
      if (written !== origin)
        throw new TypeError(
          `course: ${this.constructor.name}'s origin ${JSON.stringify(origin)} is not one a browser sends` +
            (written === undefined ? '' : `: write ${JSON.stringify(written)}`) +
            ' (scheme://host[:port], lower-case, no path or trailing slash)',
        );
    }
    checked.add(this.constructor);
  }
}

// The `Cors` classes whose `origins` were found well written.
const checked = new WeakSet<object>();

/** `origin` as a browser serialises it (`https://a.example`), `undefined` when it names none. */
function serialised(origin: string): string | undefined {
  if (origin === 'null') return origin;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The router's answer to an `OPTIONS` request no route takes: when it is a CORS preflight whose
 * requested method has a route at this path carrying a `Cors` middleware, that middleware
 * answers it with every method of the path whose route carries one, or refuses it (a 204 with no
 * CORS header); else `undefined` (a 405: no route at the path takes that method with `Cors`).
 */
export function answerPreflight(
  request: CourseRequest,
  response: CourseResponse,
  allowed: readonly string[],
  routeFor: (method: string) => MatchHit | undefined,
): CourseResponse | undefined {
  if (!isPreflight(request)) return undefined;
  const asked = request.getHeader('access-control-request-method')!;
  const hit = allowed.includes(asked) ? routeFor(asked) : undefined;
  const entry = hit && corsOf(hit);
  if (!hit || !entry) return undefined;
  const methods = allowed.filter((method) => method === asked || corsOf(routeFor(method)));
  request.loaded = hit;
  const cors = new entry.use() as Cors;
  return cors.preflight(request, response, methods) ?? cors.refused(response);
}

/**
 * The answer to a preflight at a path no route takes, by the `Cors` middleware of a group around
 * it (`around`, looked up for a preflight only): the asked method allowed, so that the page's
 * request goes and gets a 404 it can read; `undefined` when the request is no preflight or no
 * such group is around it.
 */
export function answerGroupPreflight(
  request: CourseRequest,
  response: CourseResponse,
  around: () => (new () => unknown) | undefined,
): CourseResponse | undefined {
  if (!isPreflight(request)) return undefined;
  const use = around();
  if (use === undefined) return undefined;
  const cors = new use() as Cors;
  const asked = request.getHeader('access-control-request-method')!;
  return cors.preflight(request, response, [asked]) ?? cors.refused(response);
}

/** The first `Cors` of `classes` (a group's middleware, `RouteTable.corsFor`). */
export function corsClass(classes: readonly unknown[]): (new () => unknown) | undefined {
  return classes.find((use) => isCorsClass(use)) as (new () => unknown) | undefined;
}

/**
 * `answer`, an error's status answer (a 401 or 500 the route's middleware or callback ended
 * with, a 405, a 404), with the CORS headers the route's `Cors` middleware gives, so that an
 * allowed page can read why its request failed. A 405 takes those of a route at its path that
 * has one; a 404 no route takes, those of the `Cors` of a group around it (`around`); a
 * preflight's error only its `Vary: Origin`; a route without `Cors`, none.
 */
export function corsOnError(
  request: CourseRequest,
  answer: CourseResponse,
  routeFor: (method: string) => MatchHit | undefined,
  around: () => (new () => unknown) | undefined,
): CourseResponse {
  try {
    let use: (new () => unknown) | undefined = request.loaded && corsOf(request.loaded)?.use;
    const allow = request.loaded === undefined ? answer.headers['allow'] : undefined;
    if (allow !== undefined && answer.status === 405)
      for (const method of allow.split(', ')) {
        use = corsOf(routeFor(method))?.use;
        if (use !== undefined) break;
      }
    if (use === undefined && request.loaded === undefined && answer.status === 404) use = around();
    if (use === undefined) return answer;
    // A preflight's error (a 405 for a verb no route takes) gets no CORS header, but says what it
    // depends on, as every answer through `Cors` does.
    if (isPreflight(request)) vary(answer);
    else (new use() as Cors).actual(request, answer);
  } catch {
    // A `Cors` that cannot answer (`'*'` with credentials): the error goes without its headers.
  }
  return answer;
}

/**
 * Whether the `Cors` middleware of the request's route (or of `hit`, a route it could take)
 * allows its `Origin` (for CSRF).
 */
export function corsAllowsOrigin(
  request: CourseRequest,
  hit: MatchHit | undefined = request.loaded,
): boolean {
  const origin = request.getHeader('origin');
  const entry = hit && corsOf(hit);
  if (origin === undefined || entry === undefined) return false;
  const allowed = (new entry.use() as Cors).allowedOrigin(origin, request);
  return allowed !== undefined && allowed !== '*';
}

/**
 * Whether any route of `table` has `Cors` middleware: when none has, a 405 or an error answer is
 * not looked up again for the CORS headers of the path's other routes (two lookups of a 405's
 * allowed verbs, a fifth of the router's own time on it), nor a form POST for its early CSRF check.
 */
export function tableHasCors(table: RouteTable): boolean {
  let found = withCors.get(table);
  if (found === undefined) {
    found = table.routes.some((route) => route.middleware.some(isCors));
    withCors.set(table, found);
  }
  return found;
}

// --- internal ---

// Longest `Access-Control-Request-Headers` read; past it the preflight is not answered.
const MAX_REQUEST_HEADERS = 2048;

function isPreflight(request: CourseRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.getHeader('origin') !== undefined &&
    request.getHeader('access-control-request-method') !== undefined
  );
}

// `tableHasCors` of each table served, worked out on its first request.
const withCors = new WeakMap<RouteTable, boolean>();

/** The route's `Cors`: one at most, the innermost (`innermostCors`). */
function corsOf(hit: MatchHit | undefined): MiddlewareEntry | undefined {
  return hit?.route.middleware.find(isCors);
}

function isCors(entry: MiddlewareEntry): boolean {
  return isCorsClass(entry.use);
}

/** The header names of `Access-Control-Request-Headers`, lower-case; `undefined` when too long. */
function headerList(value: string | undefined): string[] | undefined {
  if (value === undefined) return [];
  if (value.length > MAX_REQUEST_HEADERS) return undefined;
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** Adds `name` to the answer's `Vary` (`Origin` unless given), once. */
function vary(response: CourseResponse, name = 'Origin'): void {
  const current = response.headers['vary'];
  if (current === undefined) response.headers['vary'] = name;
  else if (!current.split(',').some((entry) => entry.trim().toLowerCase() === name.toLowerCase()))
    response.headers['vary'] = `${current}, ${name}`;
}
