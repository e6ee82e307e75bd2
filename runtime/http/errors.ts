import { STATUS_CODES } from 'node:http';
import { checkHeader } from './response.js';

/** An error that becomes an HTTP status: thrown by the router or by application code. */
export class HttpException extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  /** `headers` are checked as `response().header()` checks them: a bad one throws here. */
  constructor(status: number, message?: string, headers: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(headers)) checkHeader(name, value);
    super(message ?? statusText(status));
    this.name = 'HttpException';
    this.status = status;
    this.headers = headers;
  }

  /** The error code, as the original's `getCode()`. */
  getCode(): number {
    return this.status;
  }
}

/** No route matches the request (404). */
export class NotFoundHttpException extends HttpException {
  constructor(message = 'Not Found') {
    super(404, message);
    this.name = 'NotFoundHttpException';
  }
}

/** The URL matches a route, but not for this verb (405, with `Allow`). */
export class MethodNotAllowedHttpException extends HttpException {
  readonly allowed: readonly string[];

  constructor(allowed: readonly string[]) {
    super(405, 'Method Not Allowed', allowHeader(allowed));
    this.name = 'MethodNotAllowedHttpException';
    this.allowed = allowed;
  }
}

/** The headers of a 405 for a path that `allowed` methods take. */
export function allowHeader(allowed: readonly string[]): Record<string, string> {
  return { allow: allowed.join(', ') };
}

/** The short reason phrase for a status, used as the body of error responses. */
export function statusText(status: number): string {
  return (
    // 419, which some frameworks answer an expired form with, has no phrase in HTTP's registry.
    (status === 419 ? 'Page Expired' : STATUS_CODES[status]) ??
    (status >= 500 ? 'Server Error' : 'Error')
  );
}
