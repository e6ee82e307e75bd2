import { CourseResponse } from './response.js';

const HTML = 'text/html; charset=utf-8';
// No `charset`: RFC 8259 §11 defines none for JSON, which is UTF-8. Deno's server sends a
// `Response` whose one header is `Content-Type: application/json` without building a header
// list (a twentieth of its JSON POST's CPU). `response().json()` keeps the original's type.
const JSON_TYPE = 'application/json';

/**
 * Turns a callback's return value into the response: a string is HTML,
 * a number or boolean its text, a plain object or array JSON, a `Response` is used as is,
 * and `undefined`/`null` keep whatever was written through `response()`.
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
      res.body = JSON.stringify(value);
      res.headers['content-type'] = JSON_TYPE;
      return res;
    default:
      throw new TypeError(`course: a route returned a ${typeof value}, which has no response form`);
  }
}
