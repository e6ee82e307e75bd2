import { CourseResponse } from './response.js';

const HTML = 'text/html; charset=utf-8';
// No `charset`: RFC 8259 §11 defines none for JSON, which is UTF-8. Deno's server sends a
// `Response` whose one header is `Content-Type: application/json` without building a header
// list (a twentieth of its JSON POST's CPU). `response().json()` keeps the original's type.
const JSON_TYPE = 'application/json';

/**
 * Turns a callback's return value into the response: a string is HTML,
 * a number or boolean its text, a plain object or array JSON, a `Response` is used as is,
 * and `undefined`/`null` keep whatever was written through `response()`. What has no such form
 * (a function, a symbol, a `Map`…) is a `TypeError`: a 500 that names it.
 */
export function applyResult(value: unknown, res: CourseResponse): CourseResponse | Response {
  if (value === undefined || value === null || value === res) return res;
  switch (typeof value) {
    case 'string':
      res.body = value;
      if (value !== '') res.headers['content-type'] ??= HTML;
      return res;
    case 'number':
    case 'boolean':
    case 'bigint':
      res.body = String(value);
      res.headers['content-type'] ??= HTML;
      return res;
    case 'object':
      if (value instanceof Response) {
        // Its body could not be sent: an error, in both adapters, that handlers may take.
        if (value.bodyUsed || value.body?.locked === true) {
          throw new TypeError('course: a route returned a Response whose body was already read');
        }
        return value;
      }
      if (value instanceof CourseResponse) return value;
      if (value instanceof Uint8Array) {
        res.body = value;
        res.headers['content-type'] ??= 'application/octet-stream';
        return res;
      }
      // A plain object or array is JSON at once; another object, unless JSON would send it as `{}`.
      if (!plain(value)) refuseFormless(value);
      res.body = JSON.stringify(value);
      res.headers['content-type'] = JSON_TYPE;
      return res;
    default:
      throw new TypeError(`course: a route returned a ${typeof value}, which has no response form`);
  }
}

function plain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/**
 * Throws for an object JSON would send as `{}`, losing what it holds: a `Map`, a `Set`, an
 * `Error`, an iterator, a stream or a `Blob` (none with a `toJSON` of its own).
 */
function refuseFormless(value: object): void {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return;
  const what =
    value instanceof Map || value instanceof WeakMap
      ? 'a Map'
      : value instanceof Set || value instanceof WeakSet
        ? 'a Set'
        : value instanceof Error
          ? 'an Error (throw it)'
          : isIterator(value)
            ? 'an iterator'
            : isBody(value)
              ? 'a stream or Blob (return new Response(it))'
              : undefined;
  if (what !== undefined)
    throw new TypeError(`course: a route returned ${what}, which has no response form`);
}

function isIterator(value: object): boolean {
  const it = value as {
    next?: unknown;
    [Symbol.iterator]?: unknown;
    [Symbol.asyncIterator]?: unknown;
  };
  return (
    typeof it.next === 'function' &&
    (typeof it[Symbol.iterator] === 'function' || typeof it[Symbol.asyncIterator] === 'function')
  );
}

function isBody(value: object): boolean {
  return (
    (typeof ReadableStream === 'function' && value instanceof ReadableStream) ||
    (typeof Blob === 'function' && value instanceof Blob)
  );
}
