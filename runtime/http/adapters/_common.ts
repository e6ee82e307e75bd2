import type { CourseResponse } from '../response.js';

/** Statuses that never carry a body. */
export const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** The headers both adapters send for `response`: its own plus `content-length`. */
export function finalHeaders(response: CourseResponse): Record<string, string> {
  const headers = response.headers;
  if (headers['content-length'] === undefined && !NULL_BODY_STATUS.has(response.status)) {
    const body = response.body;
    headers['content-length'] = String(
      body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    );
  }
  return headers;
}

/** The response's headers as `[name, value]` pairs, `set-cookie` repeated per cookie. */
export function headerPairs(response: CourseResponse): [string, string][] {
  const pairs = Object.entries(finalHeaders(response));
  for (const cookie of response.cookies) pairs.push(['set-cookie', cookie]);
  return pairs;
}
