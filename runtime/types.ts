/**
 * The contract between the compiler and the runtime: what `generated/routes.gen.ts` exports.
 */

/** Parameter values by position: domain parameters, URL parameters, then regex captures. */
export type Params = readonly (string | undefined)[];

/** A middleware class and the `:arg` strings given after its name. */
export interface MiddlewareEntry {
  readonly use: new () => { handle(request: never, ...args: string[]): unknown };
  readonly args: readonly string[];
}

/** A class the router creates per request: middleware, exception handler, boot manager, verifier. */
export type Instantiable<T> = new () => T;

/** What an exception handler class creates. */
export interface HandlerInstance {
  handleError(request: never, error: never): unknown;
}

/** One route of the compiled table. */
export interface RouteEntry {
  /** Upper-case verbs; `'*'` accepts every verb. */
  readonly methods: readonly string[];
  /** The full URL pattern as declared, group prefixes included (`/user/{id}`). */
  readonly url: string;
  readonly name: string | undefined;
  /** What the route calls, for people: `UserController@show` or `closure routes.ts:4`. */
  readonly handler: string;
  /** Calls the route's callback with its parameters. */
  readonly call: (params: Params) => unknown;
  readonly middleware: readonly MiddlewareEntry[];
  /** Exception handlers of the route's groups, innermost first. */
  readonly handlers: readonly Instantiable<HandlerInstance>[];
  /** The host pattern of its domain group, if any. */
  readonly domain?: string;
  /** Where the route was defined: `routes.ts:4:7`. */
  readonly source: string;
  /**
   * Whether every path the route matches is already normal (`normalizePath` returns it as it
   * is): a raw request target it matches is then routed without normalising.
   */
  readonly normalOnly?: boolean;
  /**
   * The build proved its middleware and callback synchronous (no `async`, no promise in their
   * return types), in an app with no CSRF verifier or boot manager: it is served without
   * entering `AsyncLocalStorage` (`dispatch`).
   */
  readonly sync?: boolean;
}

/** A matched route and its parameter values. */
export interface MatchHit {
  readonly route: RouteEntry;
  readonly params: Params;
  /**
   * `true`: the matcher checked that the path it matched is normal (a route taking the rest of
   * the path, whose rest was), so the target is not normalised again (`resolveTarget`).
   */
  readonly normal?: true;
}

/**
 * A piece of a URL template for `url()`: a literal, or `[name, optional, separator]`.
 */
export type UrlPart =
  | string
  | readonly [name: string, optional: 0 | 1, separator: string, regex?: string, caseless?: 1];

/** The compiled routing table: the default export of the generated module. */
export interface RouteTable {
  readonly routes: readonly RouteEntry[];
  /**
   * Finds the first route, in registration order, matching the verb, the normalised path
   * (no query, no trailing slash, decoded but for `%2F` and `%25`) and the host (lower-case,
   * no port). With `target`, `path` is a raw request target instead: a static path is found
   * as it is, and one with a query gets `undefined` from the other routes, which only the path
   * before the query may name (`resolveTarget` matches that next).
   */
  readonly match: (
    method: string,
    path: string,
    host: string,
    target?: boolean,
  ) => MatchHit | undefined;
  /** The verbs of every route whose URL matches (for `405` and `Allow`). */
  readonly allowed: (path: string, host: string) => readonly string[];
  /** URL templates by route name and by `'Class@method'`. */
  readonly names: Readonly<Record<string, readonly UrlPart[]>>;
  /** Host templates of the named routes of domain groups. */
  readonly hosts?: Readonly<Record<string, readonly UrlPart[]>>;
  /** Whether any route depends on the host. */
  readonly usesHost?: boolean;
  /** Exception handlers of the groups whose prefix and domain match a request (innermost first). */
  readonly handlersFor?: (path: string, host: string) => readonly Instantiable<HandlerInstance>[];
  /**
   * Middleware that may be `Cors` of the groups whose prefix and domain match a request
   * (innermost first): a request no route takes is answered with the first `Cors`'s headers.
   */
  readonly corsFor?: (path: string, host: string) => readonly unknown[];
  readonly bootManagers?: readonly Instantiable<{ boot(router: never, request: never): unknown }>[];
  readonly csrfVerifier?: Instantiable<{ handle(request: never): unknown }>;
  /** `Course.error(true, url)`: unmatched requests are redirected here. */
  readonly errorRedirect?: string;
  /** The release of the compiler that built the table (`checkRelease`). */
  readonly compiledBy?: string;
  /** Route callbacks by `'Class@method'`, for `setRewriteCallback('Class@method')`. */
  readonly callbacks?: Readonly<Record<string, (params: Params) => unknown>>;
}
