import {
  badRequest,
  dispatch,
  MAX_TARGET_LENGTH,
  type Outcome,
  type StartOptions,
} from '../dispatch.js';
import { readFetchBody } from '../body.js';
import { headerPairs, isFraming, NULL_BODY_STATUS } from './_common.js';
import { logError } from '../log.js';
import { CourseRequest } from '../request.js';
import type { RouteTable } from '../../types.js';

/** What a Fetch runtime knows about the connection (Bun's `server.requestIP`, Deno's `info.remoteAddr`). */
export interface FetchInfo {
  remoteAddress?: string;
}

/** A Fetch-API handler (`(Request) => Promise<Response>`) serving `table`. */
export function createFetchHandler(
  table: RouteTable,
  options: StartOptions,
): (request: Request, info?: FetchInfo) => Promise<Response> {
  return (native, info) => {
    // Not an `async` function: a route that answers at once is not made to wait for a tick.
    try {
      return Promise.resolve(respond(table, options, native, info));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
}

// --- internal ---

function respond(
  table: RouteTable,
  options: StartOptions,
  native: Request,
  info: FetchInfo | undefined,
): Response | Promise<Response> {
  const head = native.method === 'HEAD';
  // Each read of `Request.url` serialises the URL again.
  const url = native.url;
  // Only http(s) URLs name a route (a runtime may be handed any URL: `ftp:`, `blob:`, `data:`).
  if (!HTTP_URL.test(url)) return toResponse(badRequest(400), head);
  const raw = pathOf(url);
  if (raw.length > MAX_TARGET_LENGTH) return toResponse(badRequest(414), head);
  const headers = native.headers;
  const request = new CourseRequest(
    native.method,
    raw,
    // The path is resolved by `dispatch`.
    raw,
    {
      // A Fetch runtime may leave Host out of the headers; the URL always has it.
      header: (name) => headers.get(name) ?? (name === 'host' ? hostOf(url) : undefined),
      body: (limit) => readFetchBody(native, limit, options.requestTimeout),
      remoteAddress: info?.remoteAddress,
      tls: url.startsWith('https:'),
      // A runtime builds the URL from Host, or from an absolute-form target (which wins over
      // Host, RFC 9112 §3.2.2): the URL's host is the one routes see, whatever Host says.
      authority: hostOf(url),
    },
    native,
  );
  const outcome = dispatch(table, options, request);
  return outcome instanceof Promise
    ? outcome.then((done) => toResponse(done, head))
    : toResponse(outcome, head);
}

const HTTP_URL = /^https?:\/\//;

// `Request.url` is absolute, with its fragment: the router works on the path and query, as
// `node:http` gives them.
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (slash === -1) return '/';
  const hash = url.indexOf('#', slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

function hostOf(url: string): string | undefined {
  const start = url.indexOf('://');
  if (start === -1) return undefined;
  const end = url.indexOf('/', start + 3);
  return url.slice(start + 3, end === -1 ? undefined : end) || undefined;
}

/**
 * The framing headers of a `Response` a route returned, which the runtime writes itself from the
 * body it sends (as node:http does): left in, they could contradict it. `undefined` when none.
 */
function framing(headers: Headers): string[] | undefined {
  let found: string[] | undefined;
  headers.forEach((_, name) => {
    if (isFraming(name)) (found ??= []).push(name);
  });
  return found;
}

function toResponse(outcome: Outcome, head: boolean): Response {
  if (outcome instanceof Response) {
    const framed = framing(outcome.headers);
    if (!head && !framed) return outcome;
    const init = {
      status: outcome.status,
      statusText: outcome.statusText,
      headers: outcome.headers,
    };
    if (framed) {
      init.headers = new Headers(outcome.headers);
      for (const name of framed) init.headers.delete(name);
    }
    if (!head) return new Response(outcome.body, init);
    // The body is not sent: its source is told to stop.
    outcome.body?.cancel().catch(() => {});
    return new Response(null, init);
  }
  const body = outcome.body;
  const empty = head || body === null || NULL_BODY_STATUS.has(outcome.status);
  try {
    return new Response(empty ? null : body, {
      status: outcome.status,
      headers: headerPairs(outcome),
    });
  } catch (error) {
    // A header the route wrote past `response().header()` that HTTP cannot carry: the client
    // gets the 500 the node:http adapter gives for it too, not a rejected promise.
    logError('course: response failed:', error);
    return toResponse(badRequest(500), head);
  }
}
