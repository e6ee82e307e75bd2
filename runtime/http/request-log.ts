import type { ServerResponse } from 'node:http';
import type { StartOptions } from './context.js';
import { escapeLog } from './log.js';
import { NULL_BODY_STATUS } from './adapters/_common.js';
import type { CourseRequest } from './request.js';

/** A logger `requestLog` writes to: pino's, or any object with these two methods. */
export interface RequestLogger {
  info(entry: RequestLogEntry, message?: string): void;
  error(entry: RequestLogEntry, message?: string): void;
}

/** One line of the request log; request data in it has its control characters escaped. */
export interface RequestLogEntry {
  time: string;
  /** `X-Request-Id` when the client (a proxy) sent a plain one, else one made here. */
  id: string;
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The matched route's name, else its URL pattern; `null` when no route matched. */
  route: string | null;
  status: number;
  /** Milliseconds from the request's head to the response's end (Fetch: to the `Response`). */
  ms: number;
  /** Body bytes, when `Content-Length` says them (0 for a 204 or 304); `null` for a stream of unknown length. */
  bytes: number | null;
  /** The client left before the response ended (node:http only). */
  aborted?: true;
  /**
   * The response's body stream failed after its head was sent (node:http only): the error's name
   * and message. The entry goes to the logger's `error`; the client saw the connection cut.
   */
  error?: string;
}

/** What the adapters call for each request when `requestLog` is on. */
export interface RequestLog {
  node(request: CourseRequest, res: ServerResponse): void;
  /** `bytes`: the body's length when the `Response` does not say it (`Content-Length`). */
  fetch(request: CourseRequest, started: number, answer: Response, bytes?: number | null): Response;
}

/** The request log `options` ask for, or `undefined` when it is off (the adapters do nothing). */
export function requestLog(options: StartOptions): RequestLog | undefined {
  const option = options.requestLog;
  if (option === undefined || option === false) return undefined;
  const write = option === true ? jsonLine : toLogger(option);
  return {
    node(request, res) {
      const started = performance.now();
      res.once('close', () => {
        const entry = entryOf(request, res.statusCode, started, sentLength(res));
        const failure = failures.get(res);
        if (failure !== undefined) entry.error = failure;
        else if (!res.writableFinished) entry.aborted = true;
        write(entry);
      });
    },
    fetch(request, started, answer, bytes) {
      const length = answer.headers.get('content-length');
      const sent = bytes !== undefined ? bytes : length === null ? null : Number(length);
      write(entryOf(request, answer.status, started, sent));
      return answer;
    },
  };
}

/**
 * Notes that the body stream of `res` failed (not that its client left), for its log entry.
 * Called before the response is destroyed, so before its `close`.
 */
export function streamFailed(res: ServerResponse, error: unknown): void {
  failures.set(res, escapeLog(describe(error)));
}

// --- internal ---

const failures = new WeakMap<ServerResponse, string>();

function describe(error: unknown): string {
  if (error instanceof Error) return Error.prototype.toString.call(error);
  try {
    return String(error);
  } catch {
    return 'a value that is not an Error';
  }
}

// A client's request id is kept only when it is short and plain; anything else gets a new one.
const PLAIN_ID = /^[\w.:@+=/-]{1,128}$/;

function entryOf(
  request: CourseRequest,
  status: number,
  started: number,
  bytes: number | null,
): RequestLogEntry {
  const given = request.getHeader('x-request-id');
  const route = request.loaded?.route;
  const target = request.target;
  const query = target.indexOf('?');
  return {
    time: new Date().toISOString(),
    id: given !== undefined && PLAIN_ID.test(given) ? given : crypto.randomUUID(),
    method: escapeLog(request.originalMethod),
    path: escapeLog(query === -1 ? target : target.slice(0, query)),
    route: route === undefined ? null : escapeLog(route.name ?? route.url),
    status,
    ms: Math.round((performance.now() - started) * 1000) / 1000,
    // A 204 or 304 has no body whatever its headers say.
    bytes: NULL_BODY_STATUS.has(status) ? 0 : bytes,
  };
}

/**
 * The `Content-Length` node:http sent: set through `setHeader`, or written with `writeHead`'s
 * headers, which only the head it wrote holds (`_header`, as morgan reads it).
 */
function sentLength(res: ServerResponse): number | null {
  const set = res.getHeader('content-length');
  const text = set ?? CONTENT_LENGTH.exec((res as { _header?: unknown })._header as string)?.[1];
  const length = Number(text);
  return text === undefined || Number.isNaN(length) ? null : length;
}

const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

function jsonLine(entry: RequestLogEntry): void {
  const line = `${JSON.stringify(entry)}\n`;
  const stdout = (globalThis as { process?: { stdout?: { write(text: string): unknown } } }).process
    ?.stdout;
  if (stdout) stdout.write(line);
  else console.log(line.slice(0, -1));
}

function toLogger(logger: RequestLogger): (entry: RequestLogEntry) => void {
  return (entry) => {
    if (entry.status >= 500 || entry.error !== undefined) logger.error(entry, 'request');
    else logger.info(entry, 'request');
  };
}
