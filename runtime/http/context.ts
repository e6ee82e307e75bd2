import { AsyncLocalStorage } from 'node:async_hooks';
import type { CourseRequest } from './request.js';
import type { RequestLogger } from './request-log.js';
import type { CompressOptions } from '../features/compress.js';
import type { CourseResponse } from './response.js';
import type { Store } from '../stores/types.js';
import type { RouteTable } from '../types.js';

/** Options of `Course.start()`. */
export interface StartOptions {
  /** Show error messages and stacks in 500 responses. Never in production. */
  debug?: boolean;
  /** Called with every error that becomes a 5xx; defaults to `console.error`. */
  onError?: (error: unknown, request: CourseRequest) => void;
  /**
   * Key that signs CSRF and signed cookies [`COURSE_SECRET`, else random per process]. A list
   * rotates keys: the first signs, every one verifies.
   */
  secret?: string | readonly string[];
  /** Longest parameter value, in characters; longer is a 414 [1,000]. */
  maxParamLength?: number;
  /** Largest form or JSON body the router reads, in bytes [1 MiB]. */
  bodyLimit?: number;
  /** Largest multipart body (files included), in bytes [10 MiB]. */
  multipartLimit?: number;
  /**
   * Most bytes of request bodies the process receives at once, all requests together; a body
   * that would go past it is a 503 that closes its connection, so stalled uploads cannot take
   * the memory [256 MiB].
   */
  bodyMemoryLimit?: number;
  /**
   * Longest time a request may take to arrive, in ms; past it, a 408 [60,000]. `listen()`'s
   * server applies it to the whole request (and 15 s, or this if shorter, to its head); the
   * Fetch adapter to reading a body.
   */
  requestTimeout?: number;
  /** State of `requestLimit` and `requestRepeat` [a `MemoryStore`; `RedisStore` for several processes]. */
  store?: Store;
  /** Who the client is for `requestLimit`/`requestRepeat` [its address, see `trustProxy`]. */
  identify?: (request: CourseRequest) => string;
  /**
   * Proxies in front of the app whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed
   * [0: the socket address is the client, and a request is https only over TLS]. With 1, the
   * last address the nearest proxy appended is the client.
   */
  trustProxy?: number;
  /** Key mixed into every password hash (HMAC pepper) [empty, as the original]. */
  pepper?: string;
  /**
   * The hosts the app answers for: a request for another (or naming none) is a 400, so a page
   * on a name an attacker points at this server (DNS rebinding) gets nothing. Host names or
   * addresses (`example.com`, `127.0.0.1`, `[::1]`), `.example.com` for it and its sub-domains,
   * `*` for any; in any case, without port [any host].
   */
  allowedHosts?: readonly string[];
  /** Hosts `toRoute`/`redirect` may send clients to, besides this app [none]. */
  redirectHosts?: readonly string[];
  /**
   * Logs each request when it ends: `true` as JSON lines on stdout, or through a logger (pino,
   * any `{ info, error }`) [off].
   */
  requestLog?: boolean | RequestLogger;
  /**
   * Compresses responses (brotli, gzip) whose type compresses, over `threshold` bytes, for
   * clients that accept it [off].
   */
  compress?: boolean | CompressOptions;
}

/** What `request()`, `response()` and `url()` see while a request is served. */
export interface RequestContext {
  readonly table: RouteTable;
  readonly options: StartOptions;
  readonly request: CourseRequest;
  readonly response: CourseResponse;
}

/**
 * What the store holds: the request's context while it is served, `undefined` once it is
 * answered (`dispatch`). Deno keeps each store alive until a full collection, and a whole
 * request held that long made every young collection copy it (half a POST's CPU).
 * @internal
 */
export interface Scope {
  context: RequestContext | undefined;
}

// One store per process even when two copies of the runtime are loaded (a test runner's
// module graph beside Node's), so helpers always see the request being served; and so one
// request served inline (`inlined`).
const KEY = Symbol.for('course-router.scope');
const INLINE = Symbol.for('course-router.inline');
const holder = globalThis as {
  [KEY]?: AsyncLocalStorage<Scope>;
  [INLINE]?: { scope: Scope | undefined };
};
/** @internal */
export const storage = (holder[KEY] ??= new AsyncLocalStorage<Scope>());

/**
 * The scope of a request served without the store, while its code runs (`inlined`): a route
 * the build proved synchronous (`RouteEntry.sync`) creates no continuation that runs before it
 * is answered, so it needs no `storage.run()`, which is most of a request's cost on Deno. Set
 * only within one synchronous stretch, and only where no store is current (`inlinable`): no later
 * task sees it, and a store entered within the stretch (a callback bound to another request
 * with `AsyncResource.bind`) comes first.
 */
const inline = (holder[INLINE] ??= { scope: undefined });

/** The context of the request being served, or `undefined` outside one. */
export function currentContext(): RequestContext | undefined {
  return (storage.getStore() ?? inline.scope)?.context;
}

/** The context of the request being served; throws outside one. */
export function requireContext(helper: string): RequestContext {
  const context = currentContext();
  if (!context) throw new Error(`course: ${helper}() is only available while a request is served`);
  return context;
}

/**
 * Whether a request may be served inline: no store is current. Within another request's store
 * (a nested `app.request()`, a task a request left running), the tasks its code leaves would
 * find that request: it enters its own.
 * @internal
 */
export function inlinable(): boolean {
  return storage.getStore() === undefined;
}

/**
 * `run(a, b, c)` with `scope` as the request being served, without entering the store: for code
 * the build proved synchronous, where `inlinable`.
 * @internal
 */
export function inlined<A, B, C, R>(
  scope: Scope,
  run: (a: A, b: B, c: C) => R,
  a: A,
  b: B,
  c: C,
): R {
  const outer = inline.scope;
  inline.scope = scope;
  try {
    return run(a, b, c);
  } finally {
    inline.scope = outer;
  }
}

/**
 * `run(...args)` in the store with `scope`: every continuation it creates finds the request.
 * @internal
 */
export function entered<A extends unknown[], R>(
  scope: Scope,
  run: (...args: A) => R,
  ...args: A
): R {
  const outer = inline.scope;
  inline.scope = undefined;
  try {
    return storage.run(scope, run, ...args);
  } finally {
    inline.scope = outer;
  }
}

/**
 * `run(...args)`, in the store when it is called from a request served inline: for work that
 * goes on after an `await` (an exception handler, a rewrite, a promise a route returned).
 * @internal
 */
export function stored<A extends unknown[], R>(run: (...args: A) => R, ...args: A): R {
  const scope = inline.scope;
  return scope === undefined ? run(...args) : entered(scope, run, ...args);
}

/** Whether a request is being served inline now (`inlined`). @internal */
export function servingInline(): boolean {
  return inline.scope !== undefined;
}
