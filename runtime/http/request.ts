import { DEFAULT_BODY_LIMIT, utf8 } from './body.js';
import { hostName, targetAuthority } from './host.js';
import { queryOf } from './path.js';
import { parseCookies, unsign } from '../features/cookies.js';
import {
  DEFAULT_MULTIPART_LIMIT,
  mediaType,
  parseBody,
  type ParsedBody,
} from '../features/input.js';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { RouteName } from '../matching/url.js';
import type { MatchHit, Params, RouteEntry } from '../types.js';

const ENCODER = new TextEncoder();

/** Reads one request header by lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** What an adapter gives the request: its headers and a way to read its body. */
export interface RequestSource {
  header: HeaderReader;
  body: (limit: number) => Promise<Uint8Array>;
  /**
   * The body as `utf8` text, read once as `body` reads it, when the adapter reads text faster
   * than bytes (Fetch: the runtime's `text()`); else the text of `body`'s bytes, which `body()`
   * then gives as they came.
   */
  text?: (limit: number) => Promise<string>;
  /** The peer's address, when the adapter knows it. */
  remoteAddress?: string;
  /** The connection is TLS (the request URL is https). */
  tls?: boolean;
  /** The host the request is for, when the adapter knows it besides Host (Fetch: the URL's). */
  authority?: string;
  /** Told when the app takes the native request (`raw`), whose body it may read itself. */
  rawTaken?: () => void;
}

/** The path and query of the request, as the original's `getUri()`. */
export interface RequestUri {
  getPath(): string;
  getQuery(): string;
  toString(): string;
}

/**
 * The types of the values middleware hands on with `request.setAttribute(name, value)`: declare
 * them once, and `setAttribute` and `getAttribute` check and give them. Once any is declared,
 * a name not declared (a misspelt one) is a type error.
 *
 * @example
 * declare module 'course-router' {
 *   interface RequestAttributes { user: { id: number; name: string } }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface RequestAttributes {}

/** The names `RequestAttributes` declares once it declares any; before, any name. */
type AttributeName = [keyof RequestAttributes] extends [never]
  ? string
  : Extract<keyof RequestAttributes, string>;

/** The type `RequestAttributes` declares for `name`; `unknown` while it declares none. */
type AttributeValue<K extends string> = K extends keyof RequestAttributes
  ? RequestAttributes[K]
  : unknown;

/**
 * The current request: what `request()` returns inside a route, middleware or handler.
 */
export class CourseRequest {
  /** The verb, upper-case (after `_method` spoofing). */
  method: string;
  /** The verb the client sent. */
  readonly originalMethod: string;
  /** The normalised path the router matched (no query, no trailing slash). */
  path: string;
  /** The request target as received: path and query, not decoded. */
  readonly target: string;
  /** @internal */
  loaded: MatchHit | undefined;
  /** @internal */
  rewriteUrl: string | undefined;
  /** @internal */
  rewriteCallback: unknown;
  /** @internal */
  bodyLimit = DEFAULT_BODY_LIMIT;
  /** @internal the masked CSRF token `csrfToken()` gives during this request. */
  csrfToken: string | undefined;
  /** @internal the parsed body, once `loadInput()` ran. */
  parsed: ParsedBody | undefined;
  /** @internal */
  parsedQuery: Record<string, unknown> | undefined;
  readonly #source: RequestSource;
  readonly #raw: IncomingMessage | Http2ServerRequest | Request;
  #search: URLSearchParams | undefined;
  #body: Promise<Uint8Array> | undefined;
  #text: Promise<string> | undefined;
  #input: Promise<ParsedBody> | undefined;
  #cookies: Map<string, string[]> | undefined;
  #attributes: Map<string, unknown> | undefined;
  #type: string | undefined;
  #media: string | undefined;

  constructor(
    method: string,
    target: string,
    path: string,
    source: RequestSource,
    raw: IncomingMessage | Http2ServerRequest | Request,
  ) {
    this.method = method;
    this.originalMethod = method;
    this.target = target;
    this.path = path;
    this.#source = source;
    this.#raw = raw;
  }

  /**
   * The native request: `IncomingMessage` under `node:http` (`Http2ServerRequest` under
   * `node:http2`), `Request` under `fetch`. Its body is then the app's to read: a client awaiting
   * `100 Continue` is sent it now. `instanceof Request` tells which.
   */
  get raw(): IncomingMessage | Http2ServerRequest | Request {
    this.#source.rawTaken?.();
    return this.#raw;
  }

  /** The raw query string, without `?`. */
  get query(): string {
    return queryOf(this.target);
  }

  /** The address of the connection's peer (a proxy, when there is one). */
  get remoteAddress(): string | undefined {
    return this.#source.remoteAddress;
  }

  /** The connection is TLS; behind a proxy that ends TLS it is not (see `trustProxy`). */
  get tls(): boolean {
    return this.#source.tls === true;
  }

  getMethod(): string {
    return this.method;
  }

  /** A header value by case-insensitive name. */
  getHeader(name: string): string | undefined {
    return this.#source.header(name.toLowerCase());
  }

  /** @internal The `Content-Type` header as sent, `''` when there is none; read once. */
  contentType(): string {
    return (this.#type ??= this.#source.header('content-type') ?? '');
  }

  /** @internal The media type of `Content-Type` (`mediaType`'s: `application/json`); read once. */
  mediaType(): string {
    return (this.#media ??= mediaType(this.contentType()));
  }

  /**
   * The host the request is for, without its port or a trailing dot, lower-case: that of an
   * absolute-form target (`GET http://host/path`, whose authority wins over `Host`, RFC 9112
   * §3.2.2), under Fetch that of the request's URL, else the `Host` header.
   */
  getHost(): string {
    return hostName(this.authority() ?? '');
  }

  /** @internal The host and port the request is for, as sent (`getHost()` before its cleaning). */
  authority(): string | undefined {
    return this.#source.authority ?? targetAuthority(this.target) ?? this.#source.header('host');
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

  /**
   * The raw body, read once (413 over the limit). Once read as text on a Fetch runtime (`text()`,
   * as the router reads a form or JSON body), that text's UTF-8 bytes: the same bytes, but for a
   * byte order mark or a malformed sequence the body had.
   */
  body(): Promise<Uint8Array> {
    return (this.#body ??=
      this.#text === undefined
        ? this.#source.body(this.bodyLimit)
        : this.#text.then((text) => ENCODER.encode(text)));
  }

  /**
   * The body as UTF-8 text, read once (413 over the limit): a leading byte order mark dropped,
   * each malformed sequence a U+FFFD, as the Fetch API's `text()` reads it.
   */
  text(): Promise<string> {
    return (this.#text ??=
      this.#body === undefined && this.#source.text !== undefined
        ? this.#source.text(this.bodyLimit)
        : this.body().then(utf8));
  }

  /**
   * @internal `then` of the body's text, in the step that decodes it when the adapter reads bytes
   * (node:http): one promise fewer than `text().then(then)`, whose text is not kept (`text()`
   * decodes the bytes again).
   */
  readText<T>(then: (text: string) => T): Promise<T> {
    return this.#text === undefined && this.#source.text === undefined
      ? this.body().then((bytes) => then(utf8(bytes)))
      : this.text().then(then);
  }

  /**
   * Parses the body (urlencoded, JSON, multipart) once; the router does it before middleware
   * for requests with a body, so `input()` is synchronous.
   */
  loadInput(multipartLimit = DEFAULT_MULTIPART_LIMIT): Promise<ParsedBody> {
    // `parseBody` sets `parsed` itself: no promise of ours in between.
    return (this.#input ??= parseBody(this, multipartLimit));
  }

  /**
   * A cookie of the request by name, decoded (the first, when the header has several); the
   * `cookie` package parses the header, once.
   */
  cookie(name: string): string | undefined {
    return this.cookieValues(name)[0];
  }

  /** `cookie(name)`. */
  getCookie(name: string): string | undefined {
    return this.cookieValues(name)[0];
  }

  /**
   * The value of a cookie set with `response().cookie(name, value, { signed: true })` whose
   * signature one of the app's `secret` keys made (constant-time comparison), else `undefined`.
   */
  signedCookie(name: string): string | undefined {
    for (const text of this.cookieValues(name)) {
      const value = unsign(name, text);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /**
   * Every value the `Cookie` header holds for `name`, in order, decoded: a browser sends two
   * when a cookie of the same name was also set for a parent domain or path.
   */
  cookieValues(name: string): readonly string[] {
    return (this.#cookies ??= parseCookies(this.getHeader('cookie') ?? '')).get(name) ?? [];
  }

  /** The route being served, with its parameters; also set while middleware runs. */
  getLoadedRoute(): LoadedRoute | undefined {
    const hit = this.loaded;
    return hit && new LoadedRoute(hit.route, hit.params);
  }

  /**
   * Keeps `value` under `name` for the rest of the request: how a middleware hands the route
   * what it found (the signed-in user, say). Its type is the one `RequestAttributes` declares.
   */
  setAttribute<K extends AttributeName>(name: K, value: AttributeValue<K>): void {
    (this.#attributes ??= new Map()).set(name, value);
  }

  /** The value `setAttribute(name, …)` kept, else `undefined`. */
  getAttribute<K extends AttributeName>(name: K): AttributeValue<K> | undefined {
    return this.#attributes?.get(name) as AttributeValue<K> | undefined;
  }

  /** Serves the route registered for `url` instead of the current one. */
  setRewriteUrl(url: string): void {
    this.rewriteUrl = url;
  }

  /**
   * Replaces the callback of the route about to load: a function given the route's parameters,
   * or a routed `'Class@method'` (one of the app's, once the generated module declares them).
   */
  setRewriteCallback(
    callback: ((...params: (string | undefined)[]) => unknown) | RoutedMethod,
  ): void {
    this.rewriteCallback = callback;
  }
}

/** The `'Class@method'` callbacks of the app's routes, once the generated module declares them. */
type RoutedMethod = [RouteName] extends [never]
  ? string
  : Extract<Extract<RouteName, string>, `${string}@${string}`>;

/**
 * The app's route names, once the generated module declares them (not the `'Class@method'`
 * names `url()` also takes: no route is named so); any name before.
 */
type KnownRouteName = [RouteName] extends [never]
  ? string
  : Exclude<Extract<RouteName, string>, `${string}@${string}`>;

/** The route a request was dispatched to. */
export class LoadedRoute {
  constructor(
    readonly route: RouteEntry,
    readonly parameters: Params,
  ) {}

  getUrl(): string {
    return this.route.url;
  }

  /** The route's name: one of the app's `RouteName`s once the generated module declares them. */
  getName(): KnownRouteName | undefined {
    return this.route.name as KnownRouteName | undefined;
  }

  /** The route's parameter values, in order (`undefined` for an optional one not given). */
  getParameters(): readonly (string | undefined)[] {
    return this.parameters;
  }
}
