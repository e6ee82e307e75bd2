import {
  badRequest,
  dispatch,
  MAX_TARGET_LENGTH,
  type Outcome,
  type StartOptions,
} from '../dispatch.js';
import { readFetchBody } from '../body.js';
import {
  bodyLength,
  checkedHeaders,
  finalHeaders,
  isFraming,
  NULL_BODY_STATUS,
} from './_common.js';
import { authorityBefore, pathStart } from '../host.js';
import { logError } from '../log.js';
import { runtimeName } from '../../platform.js';
import { requestLog, type RequestLog } from '../request-log.js';
import { compressor, type Compressor } from '../../features/compress.js';
import { parsedTarget } from '../path.js';
import { CourseRequest, type RequestSource } from '../request.js';
import type { CourseResponse } from '../response.js';
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
  const log = requestLog(options);
  const compress = compressor(options);
  return (native, info) => {
    // Not an `async` function: a route that answers at once is not made to wait for a tick.
    try {
      return Promise.resolve(respond(table, options, native, info, log, compress));
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
  log: RequestLog | undefined,
  compress: Compressor | undefined,
): Response | Promise<Response> {
  const method = native.method;
  const head = method === 'HEAD';
  // Each read of `Request.url` serialises the URL again.
  const url = native.url;
  // The router works on the path and query, as `node:http` gives them. Only an http(s) URL
  // names a route (a runtime may be handed any URL: `ftp:`, `blob:`, `data:`).
  const start = pathStart(url);
  if (start === -1) return toResponse(badRequest(400), head);
  // As a browser sends it: Deno's server passes the target on as the client wrote it.
  const rest = parsedTarget(url.slice(start));
  const raw = rest.charCodeAt(0) === 47 /* '/' */ ? rest : `/${rest}`;
  if (raw.length > MAX_TARGET_LENGTH) return toResponse(badRequest(414), head);
  // A runtime builds the URL from Host, or from an absolute-form target (which wins over Host,
  // RFC 9112 §3.2.2): the URL's host is the one routes see, whatever Host says.
  const authority = authorityBefore(url, start) || undefined;
  const request = new CourseRequest(
    method,
    raw,
    // The path is resolved by `dispatch`.
    raw,
    new FetchSource(native, authority, info?.remoteAddress, options),
    native,
  );
  if (log !== undefined || compress !== undefined) {
    const started = performance.now();
    const served = dispatch(table, options, request);
    const outcome = compress === undefined ? served : compress(request, served);
    return log === undefined
      ? Promise.resolve(outcome).then(head ? headResponse : fullResponse)
      : logged(log, request, started, outcome, head);
  }
  // Module functions, not a closure for each request.
  return dispatch(table, options, request, head ? headResponse : fullResponse);
}

const fullResponse = (outcome: Outcome): Response => toResponse(outcome, false);
const headResponse = (outcome: Outcome): Response => toResponse(outcome, true);

/** Headers, body and peer of a Fetch `Request`. */
class FetchSource implements RequestSource {
  readonly #native: Request;
  readonly #options: StartOptions;
  #headers: Headers | undefined;

  constructor(
    native: Request,
    readonly authority: string | undefined,
    readonly remoteAddress: string | undefined,
    options: StartOptions,
  ) {
    this.#native = native;
    this.#options = options;
  }

  get tls(): boolean {
    return this.#native.url.startsWith('https:');
  }

  header(name: string): string | undefined {
    // Read once: each read of `headers` is a getter call (27 ns on Deno).
    const headers = (this.#headers ??= this.#native.headers);
    // A Fetch runtime may leave Host out of the headers; the URL always has it.
    return headers.get(name) ?? (name === 'host' ? this.authority : undefined);
  }

  body(limit: number): Promise<Uint8Array> {
    const { requestTimeout, bodyMemoryLimit } = this.#options;
    return readFetchBody(this.#native, limit, requestTimeout, bodyMemoryLimit);
  }

  text(limit: number): Promise<string> {
    const { requestTimeout, bodyMemoryLimit } = this.#options;
    return readFetchBody(this.#native, limit, requestTimeout, bodyMemoryLimit, true);
  }
}

/** The response of `outcome`, written to the request log once it is made. */
async function logged(
  log: RequestLog,
  request: CourseRequest,
  started: number,
  outcome: Outcome | Promise<Outcome>,
  head: boolean,
): Promise<Response> {
  const done = await outcome;
  // A response of ours leaves `Content-Length` to the runtime: its length is the body's.
  const bytes = done instanceof Response ? undefined : bodyLength(done);
  return log.fetch(request, started, toResponse(done, head), bytes);
}

/**
 * The framing headers of a `Response` a route returned, which the runtime writes itself from the
 * body it sends (as node:http does): left in, they could contradict it. `undefined` when none.
 */
function framing(response: Response): string[] | undefined {
  let found: string[] | undefined;
  response.headers.forEach((_, name) => {
    if (isFraming(response, name)) (found ??= []).push(name);
  });
  return found;
}

function toResponse(outcome: Outcome, head: boolean): Response {
  if (outcome instanceof Response) {
    const framed = framing(outcome);
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
    return headAnswer(init);
  }
  const body = outcome.body;
  // An empty text is no body: the Fetch API would type a `''` body `text/plain`.
  const empty = head || body === null || body === '' || NULL_BODY_STATUS.has(outcome.status);
  try {
    return new Response(empty ? null : body, {
      status: outcome.status,
      headers: fetchHeaders(outcome, head),
    });
  } catch (error) {
    // A header the route wrote past `response().header()` that HTTP cannot carry: the client
    // gets the 500 the node:http adapter gives for it too, not a rejected promise.
    logError('course: response failed:', error);
    return toResponse(badRequest(500), head);
  }
}

/**
 * The `Response` of a HEAD answer: no body. One of no known length (compressed, streamed) must
 * not have the runtime write a `Content-Length` of 0 for the body it does not send (RFC 9110
 * §8.6: the GET's length, or none): Bun's server writes none for an answer that says it is
 * chunked, as its GET of a stream is; Deno's and others', for an empty stream.
 */
function headAnswer(init: { status: number; statusText: string; headers: Headers }): Response {
  if (init.headers.has('content-length') || NULL_BODY_STATUS.has(init.status))
    return new Response(null, init);
  if (runtimeName() !== 'Bun')
    return new Response(new ReadableStream({ start: (c) => c.close() }), init);
  const headers = new Headers(init.headers);
  headers.set('transfer-encoding', 'chunked');
  return new Response(null, { ...init, headers });
}

/**
 * The headers of the `Response` made of `outcome`: its record as it is (a record converts faster
 * than pairs), pairs when `set-cookie` repeats. `Content-Length` is the runtime's to write from
 * the body, as for Hono's responses; a HEAD answer, which has no body, keeps it.
 */
function fetchHeaders(
  outcome: CourseResponse,
  head: boolean,
): Record<string, string> | [string, string][] {
  const headers =
    head || outcome.headers['content-length'] !== undefined
      ? finalHeaders(outcome)
      : checkedHeaders(outcome);
  if (outcome.cookies.length === 0) return headers;
  const pairs = Object.entries(headers);
  for (const cookie of outcome.cookies) pairs.push(['set-cookie', cookie]);
  return pairs;
}
