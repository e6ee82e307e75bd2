import { FRAMING_HEADERS, isSized, type CourseResponse } from '../response.js';

/** Statuses that never carry a body. */
export const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * The headers both adapters send for `response`: its own plus `content-length`, computed from
 * the body whatever the record says. A framing header written into the record past `header()`
 * (which refuses them) throws, and the client gets a 500, as for any header HTTP cannot carry;
 * only the router's own `Connection: close` (a refused upload) passes.
 */
export function finalHeaders(response: CourseResponse): Record<string, string> {
  const headers = checkedHeaders(response);
  const length = bodyLength(response);
  if (length !== null) headers['content-length'] = String(length);
  return headers;
}

/** The `Content-Length` of `response`: its body's bytes; `null` for a status with no body. */
export function bodyLength(response: CourseResponse): number | null {
  if (NULL_BODY_STATUS.has(response.status)) return null;
  const body = response.body;
  return body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/**
 * The response's headers, checked as `finalHeaders` checks them, without `content-length`: a
 * Fetch runtime's server writes it from the body (on Deno, each header of a `Response` past the
 * first cost 4–7 µs to construct).
 */
export function checkedHeaders(response: CourseResponse): Record<string, string> {
  const headers = response.headers;
  if (
    headers['transfer-encoding'] !== undefined ||
    headers['te'] !== undefined ||
    headers['trailer'] !== undefined ||
    headers['upgrade'] !== undefined ||
    headers['keep-alive'] !== undefined ||
    headers['proxy-connection'] !== undefined ||
    (headers['connection'] !== undefined && headers['connection'] !== 'close')
  )
    throw new TypeError('course: a response holds a framing header, which the adapter writes');
  if (NULL_BODY_STATUS.has(response.status) && headers['content-length'] !== undefined)
    throw new TypeError(`course: a ${response.status} response has no Content-Length`);
  return headers;
}

/**
 * Whether a header of a `Response` a route returned is one the adapter writes itself; the
 * `Content-Length` of the router's own sized responses (`sizedResponse`) is sent as it is.
 */
export function isFraming(response: Response, name: string): boolean {
  return FRAMING_HEADERS.has(name) && !(name === 'content-length' && isSized(response));
}
