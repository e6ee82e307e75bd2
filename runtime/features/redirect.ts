import { requireContext, type StartOptions } from '../http/context.js';
import { isSecure } from '../http/origin.js';
import { cleanTarget } from '../http/path.js';
import type { CourseRequest } from '../http/request.js';
import {
  hasControl,
  refusedTarget,
  type CourseResponse,
  type RedirectStatus,
} from '../http/response.js';

/**
 * Redirects to `url` (302 unless `code` says otherwise; 3xx only), on this site or on a host
 * listed in `Course.start(…, { redirectHosts })`. The target is resolved as a browser resolves
 * it (WHATWG URL) against the request's URL; one that lands on another origin (`//evil`,
 * `/\evil`, `http:evil` from an https page, `javascript:`…) or holds a control character is
 * refused with a 400, so a `?next=` value can never send a user elsewhere. An on-site target is
 * sent as its path (`/a/b?c#d`): whatever scheme the client sees, it stays on this host.
 *
 * @example return toRoute(url('user.show', { id }));
 */
export function toRoute(url: string, code: RedirectStatus = 302): CourseResponse {
  const { request, response, options } = requireContext('toRoute');
  const location = hasControl(url) ? undefined : resolve(url, request, options);
  if (location === undefined) throw refusedTarget();
  return response.redirect(location, code);
}

/**
 * Sends the client to the current path without its query string (302); `false`, doing
 * nothing, when there is no query.
 */
export function removeParam(): boolean {
  const { request, response } = requireContext('removeParam');
  if (request.query === '') return false;
  const target = cleanTarget(request.target);
  response.redirect(target.slice(0, target.indexOf('?')) || '/', 302);
  return true;
}

// --- internal ---

/** The Location for `url`, or `undefined` when it leaves the site for a host not allowed. */
function resolve(url: string, request: CourseRequest, options: StartOptions): string | undefined {
  let here: URL;
  let target: URL;
  try {
    here = new URL(cleanTarget(request.target), `${scheme(request, options)}://${hostOf(request)}`);
    target = new URL(url, here);
  } catch {
    return undefined;
  }
  // `blob:http://host/…` has that host's origin too, but is no place to send a browser to.
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  if (target.origin === here.origin) {
    // `pathname` may start with `//` (`/.//x`); as a Location that would name a host.
    const path = target.pathname.startsWith('//') ? `/.${target.pathname}` : target.pathname;
    return path + target.search + target.hash;
  }
  const allowed = options.redirectHosts ?? [];
  return allowed.includes(target.hostname) || allowed.includes(target.host)
    ? target.href
    : undefined;
}

/** The scheme the client used (`isSecure`: the connection's, or a trusted proxy's report). */
function scheme(request: CourseRequest, options: StartOptions): string {
  return isSecure(request, options.trustProxy) ? 'https' : 'http';
}

/** The host the request is for, with its port (`authority()`), else `host.invalid` (never a host). */
function hostOf(request: CourseRequest): string {
  return request.authority() || 'host.invalid';
}
