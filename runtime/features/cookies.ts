import { parseCookie, stringifySetCookie } from 'cookie';
import type { CourseResponse } from '../http/response.js';
import { signature, verified } from './signing.js';

/** Attributes of a cookie set by `response().cookie()` (`maxAge` in seconds). */
export interface CookieOptions {
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'strict' | 'lax' | 'none';
  /** Seconds until the cookie expires; `Max-Age` wins over `expires` in browsers. */
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  /** CHIPS: the cookie is kept per top-level site (needs `secure`). */
  partitioned?: boolean;
  priority?: 'low' | 'medium' | 'high';
  /** Sign the value with the app's `secret`; read it back with `request().signedCookie()`. */
  signed?: boolean;
}

/** At most this many cookies of a `Cookie` header are read; the rest are ignored. */
export const MAX_COOKIES = 256;

/**
 * The cookies of a `Cookie` header by name, each name's values in order, decoded (`%XX`; a
 * value that does not decode stays as sent). The `cookie` package parses each pair; the header
 * is cut at `;` first, so that a name sent twice (a parent domain's cookie beside this host's)
 * keeps both values. The map has no prototype behind it.
 */
export function parseCookies(header: string): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  let count = 0;
  for (const pair of header.split(';', MAX_COOKIES + 1)) {
    if (++count > MAX_COOKIES) break;
    const parsed = parseCookie(pair);
    for (const name in parsed) {
      const value = parsed[name]!;
      const values = cookies.get(name);
      if (values) values.push(value);
      else cookies.set(name, [value]);
    }
  }
  return cookies;
}

/**
 * Whether a cookie named `name` is among those of `header` that `parseCookies` does not read
 * (past the first `MAX_COOKIES`): a check that wants the one cookie of a name looks there too.
 */
export function namedPastRead(header: string, name: string): boolean {
  let at = -1;
  for (let count = 0; count < MAX_COOKIES; count++) {
    at = header.indexOf(';', at + 1);
    if (at === -1) return false;
  }
  for (const pair of header.slice(at + 1).split(';')) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && pair.slice(0, equals).trim() === name) return true;
  }
  return false;
}

/**
 * Adds a `Set-Cookie` to `response`. The value is percent-encoded (`;`, `,`, CR, LF, non-ASCII
 * cannot break out of it); a name, path or domain that a header cannot carry throws.
 */
export function setCookie(
  response: CourseResponse,
  name: string,
  value: string,
  options: CookieOptions = {},
): void {
  const { signed, ...attributes } = checked(name, options);
  const text = signed ? `${value}.${signature(signedData(name, value))}` : value;
  response.cookies.push(stringifySetCookie(name, text, attributes));
  response.written = true;
}

/** Adds a `Set-Cookie` that removes `name` (give the `path` and `domain` it was set with). */
export function clearCookie(
  response: CourseResponse,
  name: string,
  options: CookieOptions = {},
): void {
  setCookie(response, name, '', { ...options, signed: false, maxAge: 0, expires: new Date(0) });
}

/** The value of a signed cookie whose signature one of the app's keys made, else `undefined`. */
export function unsign(name: string, text: string | undefined): string | undefined {
  const dot = text?.lastIndexOf('.') ?? -1;
  if (text === undefined || dot < 0) return undefined;
  const value = text.slice(0, dot);
  return verified(signedData(name, value), text.slice(dot + 1)) ? value : undefined;
}

// --- internal ---

/**
 * `options`, with the `Path=/` a `__Host-` cookie must carry when none is given; throws for a
 * cookie browsers would drop without a word (`SameSite=None`, `Partitioned`, a `__Secure-` or
 * `__Host-` name without `Secure`; a `__Host-` cookie with a `Domain` or another path) and for a
 * `maxAge` that is no whole number of seconds.
 */
function checked(name: string, options: CookieOptions): CookieOptions {
  const problem = (what: string) =>
    new TypeError(`course: cookie ${JSON.stringify(name)}: ${what} (browsers drop it otherwise)`);
  const { secure, sameSite, partitioned, maxAge, path, domain } = options;
  // Browsers read the prefixes in any case.
  const host = /^__host-/i.test(name);
  if (maxAge !== undefined && !Number.isSafeInteger(maxAge))
    throw new TypeError(
      `course: cookie ${JSON.stringify(name)}: maxAge is a whole number of seconds, not ${String(maxAge)}`,
    );
  if (secure) {
    if (!host) return options;
    if (domain !== undefined) throw problem('a __Host- cookie may not have a domain');
    if (path !== undefined && path !== '/') throw problem("a __Host- cookie's path is '/'");
    return path === undefined ? { ...options, path: '/' } : options;
  }
  // The `cookie` package takes it in any case.
  if (String(sameSite).toLowerCase() === 'none')
    throw problem("sameSite: 'none' needs secure: true");
  if (partitioned) throw problem('partitioned needs secure: true');
  if (host || /^__secure-/i.test(name))
    throw problem(`a ${name.slice(0, name.indexOf('-') + 1)} cookie needs secure: true`);
  return options;
}

/** The name is signed with the value: a signed value cannot be moved into another cookie. */
function signedData(name: string, value: string): string {
  return `${name}=${value}`;
}
