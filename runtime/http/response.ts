import { clearCookie, setCookie, type CookieOptions } from '../features/cookies.js';
import { percentEncode } from './path.js';
import { HttpException } from './errors.js';

/** The status of a redirect a browser follows (304, 305 and 306 are no redirects). */
export type RedirectStatus = 300 | 301 | 302 | 303 | 307 | 308;

/**
 * The response being built for the current request: what `response()` returns.
 * A callback may also return a Fetch `Response`, which is sent as is.
 */
export class CourseResponse {
  status = 200;
  /** Lower-case header names. */
  readonly headers: Record<string, string> = new HeaderRecord();
  body: string | Uint8Array | null = null;
  /** `Set-Cookie` values. */
  readonly cookies: string[] = [];
  /** Whether anything was set through this object (exception handlers use it). */
  written = false;

  /** Sets the status code: 200–599 (a 1xx is never a final response). */
  httpCode(code: number): this {
    if (!finalStatus(code)) {
      throw new RangeError(`course: invalid HTTP status ${String(code)}`);
    }
    this.status = code;
    this.written = true;
    return this;
  }

  /**
   * Sets a header. A name that is not an HTTP token, a value HTTP cannot carry (anything but
   * tab, space and visible ASCII: CR, LF, NUL, other controls, non-ASCII), or a header that frames
   * the message (`FRAMING_HEADERS`: `Content-Length`, `Transfer-Encoding`, `Connection`…, which
   * the adapter writes) throws here, so the error takes the request's error path instead of
   * failing, or breaking the connection, while the response is sent.
   */
  header(name: string, value: string | number): this {
    const text = String(value);
    checkHeader(name, text);
    this.headers[name.toLowerCase()] = text;
    this.written = true;
    return this;
  }

  /** Writes `value` as JSON with `Content-Type: application/json; charset=utf-8`, as the original. */
  json(value: unknown, status?: number): this {
    if (status !== undefined) this.httpCode(status);
    this.headers['content-type'] = 'application/json; charset=utf-8';
    this.body = JSON.stringify(value) ?? 'null';
    this.written = true;
    return this;
  }

  /**
   * Redirects to `url` (302 by default; 3xx only), wherever the app says: `toRoute()` is the one
   * that keeps clients on the site. A control character (CR, LF, NUL, tab…) is a 400, as a
   * target read from the request that holds one is a malformed request; anything
   * else a URL cannot hold (non-ASCII, space, `\\`, `"`, a `%` without two hex digits) is
   * percent-encoded (UTF-8), once: valid `%XX` escapes are kept.
   */
  redirect(url: string, code: RedirectStatus = 302): this {
    if (!Number.isInteger(code) || code < 300 || code > 399) {
      throw new RangeError(`course: a redirect needs a 3xx status, got ${String(code)}`);
    }
    if (hasControl(url)) throw refusedTarget();
    this.status = code;
    this.headers['location'] = encodeTarget(url);
    this.written = true;
    return this;
  }

  /**
   * Sets a cookie: `Set-Cookie` with the value percent-encoded and the attributes given
   * (`httpOnly`, `secure`, `sameSite`, `maxAge` in seconds, `expires`, `path`, `domain`,
   * `partitioned`; `signed` signs it with the app's `secret`).
   */
  cookie(name: string, value: string, options?: CookieOptions): this {
    setCookie(this, name, value, options);
    return this;
  }

  /** Removes a cookie from the browser: give the `path` and `domain` it was set with. */
  clearCookie(name: string, options?: CookieOptions): this {
    clearCookie(this, name, options);
    return this;
  }

  /** Replaces the body with `text` (HTML unless a content type was set; none for no text). */
  write(text: string): this {
    this.body = text;
    // An empty body has no type: `httpCode(204).write('')` says nothing of HTML.
    if (text !== '') this.headers['content-type'] ??= 'text/html; charset=utf-8';
    this.written = true;
    return this;
  }
}

/**
 * A `Response` of the router's own whose body is exactly `length` bytes (a static file streamed
 * from its descriptor): the adapters send its `Content-Length`, where a route's own `Response`
 * has it written from what is sent. A client then knows the size of a download as it starts.
 * A runtime may still send it chunked (Bun does, for any stream).
 * @internal
 */
export function sizedResponse(
  body: ReadableStream<Uint8Array>,
  init: { status: number; headers: Record<string, string> },
  length: number,
): Response {
  const response = new Response(body, {
    status: init.status,
    headers: { ...init.headers, 'content-length': String(length) },
  });
  SIZED.add(response);
  return response;
}

/** Whether the adapters send the `Content-Length` of `response` (`sizedResponse`). @internal */
export function isSized(response: Response): boolean {
  return SIZED.has(response);
}

const SIZED = new WeakSet<Response>();

/**
 * Headers that frame the message or concern the connection (RFC 9110 §7.6.1, RFC 9112 §6): the
 * adapters write them from the body they send, so an app's value can only contradict it (a
 * `Content-Length` longer than the body swallows the next response on the connection).
 */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Throws unless `name` is an HTTP token that is not a framing header (`FRAMING_HEADERS`) and
 * `value` only tab, space and visible ASCII.
 */
export function checkHeader(name: string, value: string): void {
  if (!isToken(name)) throw new TypeError(`course: refused header name ${JSON.stringify(name)}`);
  if (FRAMING_HEADERS.has(name.toLowerCase()))
    throw new TypeError(
      `course: refused header ${JSON.stringify(name)}: the adapter frames the message ` +
        '(Content-Length, Transfer-Encoding, Connection… are written from the body it sends)',
    );
  if (!VALUE.test(value))
    throw new TypeError(
      `course: refused header ${JSON.stringify(name)}: its value holds a control or non-ASCII ` +
        'character, which HTTP cannot carry (percent-encode it)',
    );
}

/** The 400 of a redirect target refused: one with a control character, or off the site. */
export function refusedTarget(): HttpException {
  return new HttpException(400, 'Refused redirect target');
}

/** Whether `text` holds a C0 control character or DEL (CR, LF, NUL, tab…). */
export function hasControl(text: string): boolean {
  return CONTROL.test(text);
}

/** Whether `text` is an HTTP token (RFC 9110 §5.6.2): a header's name, a method. */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

// --- internal ---

// Header records have no `Object.prototype` behind them (`__proto__` is a name like any other),
// and, made by `new`, stay in V8's fast mode where `Object.create(null)` is a dictionary.
const HeaderRecord = function HeaderRecord() {} as unknown as new () => Record<string, string>;
HeaderRecord.prototype = Object.create(null) as object;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e]*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// Runs of what a URL does not hold as it is: all but RFC 3986's reserved and unreserved
// characters, and a `%` that does not start an escape.
const UNENCODED = /(?:[^!#$%&-;=?-[\]_a-z~]|%(?![0-9A-Fa-f]{2}))+/g;

/** `url` with what `UNENCODED` finds percent-encoded as UTF-8 (a lone surrogate as U+FFFD). */
function encodeTarget(url: string): string {
  return url.replace(UNENCODED, percentEncode);
}

/** Whether `code` can be a final response's status: an integer 200–599 (a 1xx is interim). */
export function finalStatus(code: number): boolean {
  return Number.isInteger(code) && code >= 200 && code <= 599;
}
