import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import {
  badRequest,
  dispatch,
  MAX_TARGET_LENGTH,
  type Outcome,
  type StartOptions,
} from '../dispatch.js';
import { afterRefused, dropRest, readNodeBody } from '../body.js';
import { refuseContinue, sendContinue } from '../continue.js';
import { answeredEarly } from './client-error.js';
import { finalHeaders, isFraming, NULL_BODY_STATUS } from './_common.js';
import { logError } from '../log.js';
import { requestLog, streamFailed } from '../request-log.js';
import { compressor } from '../../features/compress.js';
import { parsedTarget } from '../path.js';
import { hostName } from '../host.js';
import { CourseRequest, type RequestSource } from '../request.js';
import type { RouteTable } from '../../types.js';

/** A `node:http` request listener serving `table`. */
export function createNodeHandler(
  table: RouteTable,
  options: StartOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const log = requestLog(options);
  const compress = compressor(options);
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (afterRefused(req)) return;
    const head = req.method === 'HEAD';
    let raw = req.url ?? '/';
    // As the URL parser reads it, so as the Fetch adapter measures it (node:http's 16 KiB
    // head bounds it). Node refuses controls, spaces and non-ASCII bytes itself.
    raw = parsedTarget(raw);
    if (raw.length > MAX_TARGET_LENGTH) return send(badRequest(414), res, head);
    const request = new CourseRequest(
      req.method ?? 'GET',
      raw,
      // The path is resolved by `dispatch`.
      raw,
      new NodeSource(req, options.bodyMemoryLimit),
      req,
    );
    if (log !== undefined) log.node(request, res);
    const outcome =
      compress === undefined
        ? dispatch(table, options, request)
        : compress(request, dispatch(table, options, request));
    if (!(outcome instanceof Promise)) return deliver(outcome, res, head);
    outcome.then(
      (done) => deliver(done, res, head),
      (error: unknown) => failed(error, res, head),
    );
  };
  // A request pipelined behind another waits for its answer's turn (node:http gives the answer
  // the connection then): served at once, a client writing thousands of requests it never reads
  // would have the server open and read as many files, and build as many answers, together.
  return (req, res) => {
    if (res.socket !== null) return serve(req, res);
    const socket = req.socket as PausableSocket;
    waiting(socket, 1);
    res.once('socket', () => {
      waiting(socket, -1);
      serve(req, res);
    });
  };
}

// --- internal ---

/** A connection as node:http pauses it: `_paused` and its parser (node's `socketOnDrain`). */
type PausableSocket = Socket & {
  _paused?: boolean;
  parser?: { pause(): void; resume(): void } | null;
};

// Requests waiting for their answer's turn, by connection. Past `MAX_WAITING`, the connection is
// not read until half of them are answered, as node:http stops reading one whose answers wait to
// be written: it reads the requests of a client that never reads its answers only as fast as it
// answers them, so that 200,000 requests in one write are not 200,000 objects at once.
const WAITING = new WeakMap<Socket, number>();
const MAX_WAITING = 16;

function waiting(socket: PausableSocket, change: 1 | -1): void {
  const count = (WAITING.get(socket) ?? 0) + change;
  WAITING.set(socket, count);
  if (change === 1 && count > MAX_WAITING && !socket._paused) {
    // node:http pauses the parser too once the bytes read so far are parsed.
    socket._paused = true;
    socket.pause();
  } else if (
    change === -1 &&
    count <= MAX_WAITING / 2 &&
    socket._paused &&
    // Paused by node:http for answers waiting to be written: it resumes on `drain`.
    !socket.writableNeedDrain
  ) {
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }
}

/** Headers, body and peer of a `node:http` request. */
class NodeSource implements RequestSource {
  /** Taken now: once the client has gone, the socket no longer tells it. */
  readonly remoteAddress: string | undefined;
  /** The Host header once read; `null` when there is none. */
  #host: string | null | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly budget: number | undefined,
  ) {
    this.remoteAddress = req.socket.remoteAddress;
  }

  get tls(): boolean {
    return (this.req.socket as { encrypted?: boolean }).encrypted === true;
  }

  header(name: string): string | undefined {
    if (name === 'host') {
      if (this.#host === undefined) this.#host = hostHeader(this.req.rawHeaders);
      return this.#host ?? undefined;
    }
    const value = this.req.headers[name];
    if (value !== undefined && FIRST_KEPT.has(name)) return joinedHeader(this.req.rawHeaders, name);
    return Array.isArray(value) ? value.join(', ') : value;
  }

  body(limit: number): Promise<Uint8Array> {
    return readNodeBody(this.req, limit, this.budget);
  }

  rawTaken(): void {
    sendContinue(this.req);
  }
}

// The headers whose repeats `req.headers` drops, keeping the first (node's `IncomingMessage`
// docs); a Fetch runtime's `Headers` joins them, and so does `joinedHeader`: two `Content-Type`
// or `Authorization` lines mean the same on every runtime (the first is not taken on trust).
const FIRST_KEPT = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** Every line of the header `name` (lower-case) in the raw lines, joined by `, ` as Fetch joins them. */
function joinedHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const line = raw[i]!;
    if (line.length === name.length && line.toLowerCase() === name)
      value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/**
 * The Host header from the raw lines: `req.headers` keeps the first of two Host headers, which
 * RFC 9112 makes a 400; joined as Fetch's `Headers` join them, the Host check refuses them.
 * The scan costs about 20 ns for a browser's ten headers.
 */
function hostHeader(raw: readonly string[]): string | null {
  let host: string | null = null;
  let authority: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // HTTP/2 (node:http2's compatibility API) names the host `:authority`.
    if (name === ':authority') authority = raw[i + 1]!;
    // Compared as sent first: clients write `Host`, and lower-casing each name costs more.
    else if (
      name.length === 4 &&
      (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')
    )
      host = host === null ? raw[i + 1]! : `${host}, ${raw[i + 1]!}`;
  }
  if (authority === undefined || host === null) return authority ?? host;
  // A Host naming another host than `:authority` makes the request malformed (RFC 9113
  // §8.3.1): joined, the two are refused as two hosts are.
  return hostName(host) === hostName(authority) ? authority : `${authority}, ${host}`;
}

/** Sends the outcome; a failure while sending ends the response, never the process. */
function deliver(outcome: Outcome, res: ServerResponse, head: boolean): void {
  try {
    send(outcome, res, head);
  } catch (error) {
    failed(error, res, head);
  }
}

// A header the route wrote past `response().header()` that HTTP cannot carry fails here: the
// client gets the 500 the Fetch adapter gives for it too.
function failed(error: unknown, res: ServerResponse, head: boolean): void {
  logError('course: response failed:', error);
  if (res.headersSent) return void res.destroy();
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  send(badRequest(500), res, head);
}

function send(outcome: Outcome, res: ServerResponse, head: boolean): void {
  // A body the router stopped reading (over its limit) is not drained for the next request:
  // the answer says `Connection: close`, whatever handler wrote it, and the connection ends
  // once the rest is dropped. So for a body refused before the `100 Continue` its client awaits.
  const req = res.req;
  if (!req.complete) {
    answeredEarly(req);
    if (req.readableFlowing === false || refuseContinue(req)) {
      res.shouldKeepAlive = false;
      dropRest(req);
    }
  }
  if (outcome instanceof Response) return sendFetchResponse(outcome, res, head);
  const body = outcome.body;
  const headers: Record<string, string | string[]> = finalHeaders(outcome);
  if (outcome.cookies.length > 0) headers['set-cookie'] = outcome.cookies;
  res.writeHead(outcome.status, headers);
  res.end(head || body === null || NULL_BODY_STATUS.has(outcome.status) ? undefined : body);
}

function sendFetchResponse(response: Response, res: ServerResponse, head: boolean): void {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  // Framing is node:http's: it writes Content-Length or chunked from what it sends.
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !isFraming(response, name)) res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (head || response.body === null) {
    // An unread body's source is told to stop, as when a client leaves.
    response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  // A stream that errors, or a client that leaves, ends both sides: the connection is cut and
  // the body's stream cancelled, so its source stops producing. Only the first is a failure.
  // The answer holds its connection (a request pipelined behind another is served in its turn),
  // so the connection's end closes it, and the pipeline with it.
  pipeline(Readable.fromWeb(response.body as WebStream<Uint8Array>), res, (error) => {
    if (!error) return;
    if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE')
      streamFailed(res, error);
    res.destroy();
  });
}
