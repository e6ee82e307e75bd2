import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { requireContext } from './context.js';
import { HttpException } from './errors.js';
import type { CourseRequest } from './request.js';

/** The form field, header and cookie of the CSRF token. */
export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'CSRF-TOKEN';

/** The request's CSRF token did not match (403); exception handlers see it. */
export class TokenMismatchException extends HttpException {
  constructor() {
    super(403, 'Invalid CSRF token');
    this.name = 'TokenMismatchException';
  }
}

/**
 * Checks that POST, PUT, PATCH and DELETE requests carry the token of their signed
 * `CSRF-TOKEN` cookie, in the `csrf_token` field or the `X-CSRF-TOKEN` header (constant-time
 * comparison). Extend it to list paths in `except` (exact, or a prefix ending in `*`) and
 * paths in `include` that are checked even inside an `except`.
 */
export class BaseCsrfVerifier {
  protected except: string[] = [];
  protected include: string[] = [];

  async handle(request: CourseRequest): Promise<void> {
    if (!CHECKED.has(request.method) || !this.applies(request.path)) return;
    const token = cookieToken(request);
    const field = (await request.loadInput()).post[CSRF_FIELD];
    const given = typeof field === 'string' ? field : request.getHeader(CSRF_HEADER);
    if (token === undefined || given === undefined || !sameText(token, given)) {
      throw new TokenMismatchException();
    }
  }

  /** Whether `path` is checked: not excepted, or included again. */
  protected applies(path: string): boolean {
    return !listed(this.except, path) || listed(this.include, path);
  }
}

/**
 * The CSRF token of the current request: the one of its cookie, or a new one whose signed
 * cookie is set on the response. Put it in forms as `csrf_token` or send it as `X-CSRF-TOKEN`.
 */
export function csrfToken(): string {
  const { request, response } = requireContext('csrfToken');
  const existing = request.csrfToken ?? cookieToken(request);
  if (existing !== undefined) return (request.csrfToken = existing);
  const token = randomBytes(32).toString('hex');
  request.csrfToken = token;
  const secure = request.getHeader('x-forwarded-proto') === 'https' ? '; Secure' : '';
  response.cookies.push(
    `${CSRF_COOKIE}=${token}.${sign(token)}; Path=/; HttpOnly; SameSite=Lax${secure}`,
  );
  return token;
}

// --- internal ---

const CHECKED = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
let processSecret: string | undefined;

function secret(): string {
  const configured = requireContext('csrf').options.secret ?? process.env['COURSE_SECRET'];
  if (configured) return configured;
  // Without a configured secret, tokens are valid for this process only.
  return (processSecret ??= randomBytes(32).toString('hex'));
}

function sign(token: string): string {
  return createHmac('sha256', secret()).update(token).digest('base64url');
}

/** The token of a correctly signed cookie, or `undefined`. */
function cookieToken(request: CourseRequest): string | undefined {
  const cookie = request.getCookie(CSRF_COOKIE);
  const dot = cookie?.lastIndexOf('.') ?? -1;
  if (!cookie || dot <= 0) return undefined;
  const token = cookie.slice(0, dot);
  return sameText(cookie.slice(dot + 1), sign(token)) ? token : undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function listed(list: readonly string[], path: string): boolean {
  const normal = path.replace(/\/+$/, '') || '/';
  return list.some((entry) =>
    entry.endsWith('*')
      ? normal.startsWith(entry.slice(0, -1))
      : (entry.replace(/\/+$/, '') || '/') === normal,
  );
}
