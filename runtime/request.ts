import type { MatchHit, Params, RouteEntry } from './types.js';

/** Reads one request header by lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** The path and query of the request, as the original's `getUri()`. */
export interface RequestUri {
  getPath(): string;
  getQuery(): string;
  toString(): string;
}

/**
 * The current request: what `request()` returns inside a route, middleware or handler.
 */
export class CourseRequest {
  /** The verb, upper-case. */
  readonly method: string;
  /** The normalised path the router matched (no query, no trailing slash). */
  path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** The request target as received: path and query, not decoded. */
  readonly target: string;
  /** The native request: `IncomingMessage` under `node:http`, `Request` under `fetch`. */
  readonly raw: unknown;
  /** @internal */
  loaded: MatchHit | undefined;
  /** @internal */
  rewriteUrl: string | undefined;
  /** @internal */
  rewriteCallback: unknown;
  readonly #header: HeaderReader;
  #search: URLSearchParams | undefined;

  constructor(
    method: string,
    target: string,
    path: string,
    query: string,
    header: HeaderReader,
    raw: unknown,
  ) {
    this.method = method;
    this.target = target;
    this.path = path;
    this.query = query;
    this.#header = header;
    this.raw = raw;
  }

  getMethod(): string {
    return this.method;
  }

  /** A header value by case-insensitive name. */
  getHeader(name: string): string | undefined {
    return this.#header(name.toLowerCase());
  }

  /** The `Host` header without its port, lower-case. */
  getHost(): string {
    const host = this.#header('host') ?? '';
    return host.replace(/:\d*$/, '').toLowerCase();
  }

  getUri(): RequestUri {
    const path = this.path;
    const query = this.query;
    return {
      getPath: () => path,
      getQuery: () => query,
      toString: () => (query ? `${path}?${query}` : path),
    };
  }

  /** The parsed query string. */
  get searchParams(): URLSearchParams {
    return (this.#search ??= new URLSearchParams(this.query));
  }

  /** The route being served, with its parameters; also set while middleware runs. */
  getLoadedRoute(): LoadedRoute | undefined {
    const hit = this.loaded;
    return hit && new LoadedRoute(hit.route, hit.params);
  }

  /** Serves the route registered for `url` instead of the current one. */
  setRewriteUrl(url: string): void {
    this.rewriteUrl = url;
  }

  /** Replaces the callback of the route about to load. */
  setRewriteCallback(callback: unknown): void {
    this.rewriteCallback = callback;
  }
}

/** The route a request was dispatched to. */
export class LoadedRoute {
  constructor(
    readonly route: RouteEntry,
    readonly parameters: Params,
  ) {}

  getUrl(): string {
    return this.route.url;
  }

  getName(): string | undefined {
    return this.route.name;
  }

  getParameters(): Params {
    return this.parameters;
  }
}
