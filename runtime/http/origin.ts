import type { CourseRequest } from './request.js';

/**
 * Whether a browser sent this request from another origin, as Go's `CrossOriginProtection`
 * decides: by `Sec-Fetch-Site` (only `same-origin` and `none`, a request the user typed, pass;
 * `same-site` is refused too, since a sibling sub-domain is where a tossed cookie comes from),
 * else by comparing `Origin` with the request's own origin: its scheme (`secure`: https, as
 * `isSecure` decides) and its host (`CourseRequest.authority`). A request with neither header is
 * not a browser's, or comes from a browser too old to send them: the CSRF token alone decides.
 */
export function crossOrigin(request: CourseRequest, secure: boolean): boolean {
  const site = request.getHeader('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = request.getHeader('origin');
  return (
    origin !== undefined && !sameOrigin(origin, secure ? 'https:' : 'http:', request.authority())
  );
}

/**
 * Whether the client reached the app over https: the connection is TLS, or, only when
 * `trustProxy` proxies are believed, their `X-Forwarded-Proto` says `https` (the entry
 * `trustProxy` from the right, or the first when a proxy replaced the header).
 */
export function isSecure(request: CourseRequest, trustProxy = 0): boolean {
  if (request.tls) return true;
  if (trustProxy <= 0) return false;
  const protos = (request.getHeader('x-forwarded-proto') ?? '').split(',');
  return protos[Math.max(0, protos.length - trustProxy)]!.trim().toLowerCase() === 'https';
}

// --- internal ---

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * `Origin` names `scheme` and `host` (its default port made explicit or not), written as a
 * browser writes an origin: lower-case, no path or userinfo, an IPv4 address in dotted decimal,
 * which the URL parser would tidy away (`http://evil@localhost/x` is no origin of `localhost`).
 */
function sameOrigin(origin: string, scheme: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    // An opaque origin (`null`) does not parse: refused.
    const from = new URL(origin);
    if (from.protocol !== scheme) return false;
    if (origin !== from.origin && origin !== `${from.origin}:${DEFAULT_PORTS[scheme]}`)
      return false;
    return new URL(`${scheme}//${host}`).host === from.host;
  } catch {
    return false;
  }
}
