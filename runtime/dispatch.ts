import { storage } from './context.js';
import {
  HttpException,
  MethodNotAllowedHttpException,
  NotFoundHttpException,
  statusText,
} from './errors.js';
import type { CourseRequest } from './request.js';
import { CourseResponse } from './response.js';
import { applyResult } from './result.js';
import type { MatchHit, RouteTable } from './types.js';

/** Options of `Course.start()`. */
export interface StartOptions {
  /** Show error messages and stacks in 500 responses. Never in production. */
  debug?: boolean;
  /** Called with every error that becomes a 5xx; defaults to `console.error`. */
  onError?: (error: unknown, request: CourseRequest) => void;
}

/** What a request ends with: our response, or a Fetch `Response` a route returned. */
export type Outcome = CourseResponse | Response;

/** Serves one request: match, middleware, callback, and the error boundary. */
export function dispatch(
  table: RouteTable,
  options: StartOptions,
  request: CourseRequest,
): Promise<Outcome> {
  const response = new CourseResponse();
  return storage.run({ table, request, response }, () => serve(table, options, request, response));
}

/** The response for a request that never reached the router (a malformed target). */
export function badRequest(): CourseResponse {
  return errorResponse(new HttpException(400), {}, undefined);
}

// --- internal ---

async function serve(
  table: RouteTable,
  options: StartOptions,
  request: CourseRequest,
  response: CourseResponse,
): Promise<Outcome> {
  try {
    const hit = table.match(request.method, request.path);
    if (hit === undefined) throw miss(table, request.path);
    request.loaded = hit;
    return await run(hit, request, response);
  } catch (error) {
    return errorResponse(error, options, request);
  }
}

async function run(
  hit: MatchHit,
  request: CourseRequest,
  response: CourseResponse,
): Promise<Outcome> {
  const middleware = hit.route.middleware;
  for (let i = 0; i < middleware.length; i++) {
    const entry = middleware[i]!;
    const instance = new entry.use();
    const stop: unknown = await instance.handle(request as never, ...entry.args);
    if (stop !== undefined && stop !== null) return applyResult(stop, response);
  }
  const value: unknown = await hit.route.call(hit.params);
  return applyResult(value, response);
}

function miss(table: RouteTable, path: string): HttpException {
  const allowed = table.allowed(path);
  return allowed.length === 0
    ? new NotFoundHttpException()
    : new MethodNotAllowedHttpException(allowed);
}

function errorResponse(
  error: unknown,
  options: StartOptions,
  request: CourseRequest | undefined,
): CourseResponse {
  const fresh = new CourseResponse();
  if (error instanceof HttpException) {
    fresh.status = error.status;
    for (const [name, value] of Object.entries(error.headers)) fresh.headers[name] = value;
    fresh.headers['content-type'] = 'text/plain; charset=utf-8';
    fresh.body = error.message || statusText(error.status);
    return fresh;
  }
  if (request) (options.onError ?? logError)(error, request);
  fresh.status = 500;
  fresh.headers['content-type'] = 'text/plain; charset=utf-8';
  fresh.body = options.debug && error instanceof Error ? String(error.stack) : statusText(500);
  return fresh;
}

function logError(error: unknown, request: CourseRequest): void {
  console.error(`course: ${request.method} ${request.path} failed:`, error);
}
