// The router's own answers to errors: the status response of an exception, the error an
// exception handler is given, and the report of a server error to `onError` or the log.
import { HttpException, allowHeader, statusText } from './errors.js';
import type { StartOptions } from './context.js';
import { logError } from './log.js';
import type { CourseRequest } from './request.js';
import { CourseResponse, finalStatus } from './response.js';

/**
 * What an exception handler is given (`HandledError`): the error thrown, or, for a value thrown
 * that is no `Error` (`throw 'text'`, `throw undefined`), an `Error` of its text with the value
 * as its `cause`.
 */
export function handedError(error: unknown): Error {
  if (error instanceof Error) return error;
  let text: string;
  try {
    text = typeof error === 'string' ? error : `${String(error)} thrown`;
  } catch {
    text = 'a value thrown';
  }
  return new Error(text, { cause: error });
}

/**
 * A handler's answer to `error` with the error's headers it does not set itself: the
 * `Connection: close` of a refused body always (its rest is unread), the others (a 405's `Allow`)
 * when the answer keeps the error's status.
 */
export function withErrorHeaders(answer: CourseResponse, error: unknown): CourseResponse {
  if (!(error instanceof HttpException)) return answer;
  for (const name of Object.keys(error.headers)) {
    if (answer.headers[name] !== undefined) continue;
    if (name === 'connection' || answer.status === error.status)
      answer.headers[name] = error.headers[name]!;
  }
  return answer;
}

/** The 404, or the 405 with `Allow`, that `statusResponse` makes of the router's exceptions. */
export function missing(allowed: readonly string[]): CourseResponse {
  return allowed.length === 0
    ? plainAnswer(404, statusText(404))
    : plainAnswer(405, statusText(405), allowHeader(allowed));
}

/**
 * The answer to an error no handler took: an `HttpException`'s status and message (a 5xx's
 * message only with `debug`), else a 500; a 5xx is reported to `onError`.
 */
export function statusResponse(
  error: unknown,
  options: StartOptions,
  request: CourseRequest | undefined,
): CourseResponse {
  // An exception with a status no final response can have (`101`, `600`) is a server error.
  if (error instanceof HttpException && finalStatus(error.status)) {
    // A 5xx message is for the log, as any other server error's.
    const server = error.status >= 500;
    if (server && request) report(error, options, request);
    const body = ((!server || options.debug) && error.message) || statusText(error.status);
    return plainAnswer(error.status, body, error.headers);
  }
  if (request) report(error, options, request);
  return plainAnswer(
    500,
    options.debug && error instanceof Error ? String(error.stack) : statusText(500),
  );
}

/** A plain-text answer of the router's own. */
export function plainAnswer(
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): CourseResponse {
  const fresh = new CourseResponse();
  fresh.headers['content-type'] = 'text/plain; charset=utf-8';
  for (const name of Object.keys(headers)) fresh.headers[name] = headers[name]!;
  fresh.status = status;
  fresh.body = body;
  return fresh;
}

/** Gives an error that becomes a 5xx to `onError`, or to the log. */
export function report(error: unknown, options: StartOptions, request: CourseRequest): void {
  (options.onError ?? logFailure)(error, request);
}

function logFailure(error: unknown, request: CourseRequest): void {
  logError(`course: ${request.method} ${request.path} failed:`, error);
}
