import { requireContext } from './context.js';
import { HttpException } from './errors.js';
import { cleanTarget } from './path.js';
import type { CourseResponse } from './response.js';

/**
 * Redirects to `url` (302 unless `code` says otherwise; 3xx only). The target must be on this
 * site or on a host listed in `Course.start(…, { redirectHosts })`: an off-site, protocol-
 * relative, non-http or control-character target is refused with a 400, so a `?next=` value
 * can never send a user elsewhere.
 *
 * @example return toRoute(url('user.show', { id }));
 */
export function toRoute(url: string, code = 302): CourseResponse {
  const { request, response, options } = requireContext('toRoute');
  if (!safeTarget(url, request.getHost(), options.redirectHosts ?? [])) {
    throw new HttpException(400, 'Refused redirect target');
  }
  return response.redirect(url, code);
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

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function safeTarget(url: string, host: string, allowed: readonly string[]): boolean {
  if (CONTROL.test(url) || url.includes('\\')) return false;
  let target: URL;
  try {
    target = new URL(url, `http://${host || 'localhost'}`);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  const relative = url.startsWith('/') && !url.startsWith('//');
  return relative || target.hostname === (host || 'localhost') || allowed.includes(target.hostname);
}
