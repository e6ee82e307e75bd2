import { randomBytes } from 'node:crypto';
import { requireContext } from '../http/context.js';
import { HttpException } from '../http/errors.js';
import { crossOrigin, isSecure } from '../http/origin.js';
import type { CourseRequest } from '../http/request.js';
import { namedPastRead, setCookie } from './cookies.js';
import { corsAllowsOrigin } from './cors.js';
import { sameText, signature, verified } from './signing.js';

/** The form field, header and cookies of the CSRF token. */
export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'CSRF-TOKEN';
/** The cookie on https: a browser lets only this host set a `__Host-` cookie. */
export const CSRF_HOST_COOKIE = '__Host-CSRF-TOKEN';

/** The request's CSRF token did not match (403); exception handlers see it. */
export class TokenMismatchException extends HttpException {
  constructor() {
    super(403, 'Invalid CSRF token');
    this.name = 'TokenMismatchException';
  }
}

/**
 * Checks every request whose verb is not GET, HEAD, OPTIONS or TRACE: a browser's request from
 * another origin (`Sec-Fetch-Site`, else `Origin`) is refused (403), and the request must
 * carry the token of its signed cookie (`__Host-CSRF-TOKEN` on https, else `CSRF-TOKEN`) in
 * the `X-CSRF-TOKEN` header or, without that header, the `csrf_token` field (constant-time
 * comparison), else a `TokenMismatchException`. It runs before the body is read. Extend it to list paths in `except` (exact, or a prefix ending in
 * `*`) and paths in `include` that are checked even inside an `except`.
 */
export class BaseCsrfVerifier {
  protected except: string[] = [];
  protected include: string[] = [];

  async handle(request: CourseRequest): Promise<void> {
    if (SAFE.has(request.method) || !this.applies(request.path)) return;
    // An origin the route's `Cors` middleware allows passes this check; the token is still needed.
    if (crossOrigin(request, secure(request)) && !corsAllowsOrigin(request))
      throw new HttpException(403, 'Cross-origin request refused');
    // The body is read last, only for a form's field: a request refused for its origin, its
    // cookie or its header costs no body read or parse.
    const token = cookieToken(request);
    if (token === undefined) throw new TokenMismatchException();
    let given = request.getHeader(CSRF_HEADER) || undefined;
    if (given === undefined) {
      const { multipartLimit } = requireContext('csrf').options;
      const field = (await request.loadInput(multipartLimit)).post[CSRF_FIELD];
      if (typeof field === 'string') given = field;
    }
    if (given === undefined || !sameText(token, unmasked(given)))
      throw new TokenMismatchException();
  }

  /** Whether `path` is checked: not excepted, or included again. */
  protected applies(path: string): boolean {
    return !listed(this.except, path) || listed(this.include, path);
  }
}

/**
 * The CSRF token of the current request, for its forms (`csrf_token`) and scripts
 * (`X-CSRF-TOKEN`): the token of its cookie, or of a new one whose signed cookie is set on the
 * response, masked with random bytes drawn for each response. The same within a request, it
 * differs on every page: a compressed page that also reflects input cannot give it away
 * byte by byte (BREACH), as the token itself would.
 */
export function csrfToken(): string {
  const { request, response } = requireContext('csrfToken');
  if (request.csrfToken !== undefined) return request.csrfToken;
  let token = cookieToken(request);
  if (token === undefined) {
    token = randomBytes(TOKEN_BYTES).toString('hex');
    const https = secure(request);
    setCookie(response, https ? CSRF_HOST_COOKIE : CSRF_COOKIE, `${token}.${signature(token)}`, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: https,
    });
  }
  return (request.csrfToken = masked(token));
}

// --- internal ---

const TOKEN_BYTES = 32;
// A masked token: base64url of a random mask and the token's bytes XORed with it.
const MASKED = /^[\w-]{86}$/;

/** `token` (hex) as `csrfToken()` gives it: a fresh mask, then the token XORed with it. */
function masked(token: string): string {
  const bytes = Buffer.from(token, 'hex');
  const mask = randomBytes(TOKEN_BYTES);
  const out = Buffer.allocUnsafe(TOKEN_BYTES * 2);
  for (let i = 0; i < TOKEN_BYTES; i++) {
    out[i] = mask[i]!;
    out[TOKEN_BYTES + i] = bytes[i]! ^ mask[i]!;
  }
  return out.toString('base64url');
}

/**
 * The token a request sent, unmasked (`masked`); a token sent as the cookie holds it (64 hex
 * digits, as pages made before tokens were masked have it) is taken as it is, and so is
 * anything else, which matches no token.
 */
function unmasked(given: string): string {
  if (!MASKED.test(given)) return given;
  const bytes = Buffer.from(given, 'base64url');
  // Only the spelling `masked` writes: the last character's four spare bits set otherwise would
  // be another string for the same token.
  if (bytes.toString('base64url') !== given) return given;
  let token = '';
  for (let i = 0; i < TOKEN_BYTES; i++)
    token += (bytes[TOKEN_BYTES + i]! ^ bytes[i]!).toString(16).padStart(2, '0');
  return token;
}

// Every other verb (WebDAV's PROPFIND, LOCK… too, which `Course.any` routes answer) is checked.
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
function secure(request: CourseRequest): boolean {
  return isSecure(request, requireContext('csrf').options.trustProxy);
}

/**
 * The token of a correctly signed cookie, or `undefined`. On https only the `__Host-` cookie
 * counts: a sibling sub-domain can set a validly signed `CSRF-TOKEN` for the whole domain
 * (cookie tossing), but no `__Host-` one.
 */
function cookieToken(request: CourseRequest): string | undefined {
  const cookie = onlyCookie(request, secure(request) ? CSRF_HOST_COOKIE : CSRF_COOKIE);
  const dot = cookie?.lastIndexOf('.') ?? -1;
  if (!cookie || dot <= 0) return undefined;
  const token = cookie.slice(0, dot);
  return verified(token, cookie.slice(dot + 1)) ? token : undefined;
}

/**
 * The value of the one cookie named `name`; `undefined` when there is none, or several: a
 * second one was set for a parent domain or path by someone else, and which one the browser
 * sends first is not ours to choose. One past the cookies read counts too: many cookies tossed
 * before it must not hide it.
 */
function onlyCookie(request: CourseRequest, name: string): string | undefined {
  const values = request.cookieValues(name);
  if (values.length !== 1) return undefined;
  return namedPastRead(request.getHeader('cookie') ?? '', name) ? undefined : values[0];
}

function listed(list: readonly string[], path: string): boolean {
  const normal = path.replace(/\/+$/, '') || '/';
  return list.some((entry) =>
    entry.endsWith('*')
      ? normal.startsWith(entry.slice(0, -1))
      : (entry.replace(/\/+$/, '') || '/') === normal,
  );
}
