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

  /** Sets the status code. */
  httpCode(code: number): this {
    if (!Number.isInteger(code) || code < 100 || code > 599) {
      throw new RangeError(`course: invalid HTTP status ${String(code)}`);
    }
    this.status = code;
    this.written = true;
    return this;
  }

  /** Sets a header; names and values with CR, LF or NUL are refused. */
  header(name: string, value: string | number): this {
    const text = String(value);
    if (!TOKEN.test(name) || UNSAFE.test(text)) {
      throw new TypeError(`course: refused header ${JSON.stringify(name)}`);
    }
    this.headers[name.toLowerCase()] = text;
    this.written = true;
    return this;
  }

  /** Writes `value` as JSON with `Content-Type: application/json; charset=utf-8`. */
  json(value: unknown, status?: number): this {
    if (status !== undefined) this.httpCode(status);
    this.headers['content-type'] = 'application/json; charset=utf-8';
    this.body = JSON.stringify(value) ?? 'null';
    this.written = true;
    return this;
  }

  /** Redirects to `url` (302 by default); only 3xx codes and URLs without CR/LF/NUL. */
  redirect(url: string, code = 302): this {
    if (!Number.isInteger(code) || code < 300 || code > 399) {
      throw new RangeError(`course: a redirect needs a 3xx status, got ${String(code)}`);
    }
    if (UNSAFE.test(url)) throw new TypeError('course: refused redirect target with CR, LF or NUL');
    this.status = code;
    this.headers['location'] = url;
    this.written = true;
    return this;
  }

  /** Replaces the body with `text` (HTML unless a content type was set). */
  write(text: string): this {
    this.body = text;
    this.written = true;
    return this;
  }
}

// --- internal ---

// Header records have no `Object.prototype` behind them (`__proto__` is a name like any other),
// and, made by `new`, stay in V8's fast mode where `Object.create(null)` is a dictionary.
const HeaderRecord = function HeaderRecord() {} as unknown as new () => Record<string, string>;
HeaderRecord.prototype = Object.create(null) as object;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE = /[\r\n\0]/;
