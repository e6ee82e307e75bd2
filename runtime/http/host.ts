/**
 * The Host rule, in one place. A request is refused (400) when its Host header is empty or
 * malformed, when it has two (RFC 9112 §3.2), or when the authority it is routed by is
 * malformed. A valid host is a DNS-like name (letters, digits, `-`, `_`, as Docker service names
 * have; labels of at most 63 characters, at most 255 in all; the last not a number), a
 * dotted-decimal IPv4 address or a bracketed IPv6
 * literal, optionally a trailing dot, optionally `:port` (at most 65535, possibly empty). Routes
 * compare `hostName()`.
 */

/**
 * Whether the request is refused with a 400: its Host header (`host`) or the authority it is
 * routed by (`authority`: an absolute-form target's, which RFC 9112 §3.2.2 makes win over Host,
 * or the URL's under Fetch) is not a valid host. The two may differ: the Host header is ignored.
 */
export function badHost(host: string | undefined, authority: string | undefined): boolean {
  if (host !== undefined && !validHost(host)) return true;
  return authority !== host && authority !== undefined && !validHost(authority);
}

/** The authority of an absolute-form target (`http://a:80/b` gives `a:80`); else `undefined`. */
export function targetAuthority(target: string): string | undefined {
  if (target.charCodeAt(0) === 47 /* '/' */) return undefined;
  const start = pathStart(target);
  return start === -1 ? undefined : authorityBefore(target, start);
}

/** The authority of an http(s) URL whose path begins at `start` (`pathStart`); may be empty. */
export function authorityBefore(url: string, start: number): string {
  // After `http://` or `https://`, the schemes `pathStart` takes.
  return url.slice(url.charCodeAt(4) === 58 /* : */ ? 7 : 8, start);
}

/**
 * Where the path of an absolute-form target begins, after its http(s) scheme and authority
 * (`http://a:80/b` gives 11, `http://a?q` the `?`'s 8); `-1` for any other target (RFC 9112
 * §3.2.2 names http(s) URLs only).
 */
export function pathStart(target: string): number {
  // Read by hand: a regex (`/^https?:\/\/[^/?#]*/i`) was a tenth of a Fetch GET's own time on Bun.
  const colon = schemeLength(target);
  if (colon === -1 || target.charCodeAt(colon + 1) !== 47 || target.charCodeAt(colon + 2) !== 47)
    return -1;
  for (let i = colon + 3; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code === 47 /* / */ || code === 63 /* ? */ || code === 35 /* # */) return i;
  }
  return target.length;
}

/** The host domain routes and `url()` compare: lower-case, without port or trailing dot. */
export function hostName(host: string): string {
  const name = host.replace(PORT, '').toLowerCase();
  // An IPv6 address as the URL parser writes it (`[0:0::1]` is `[::1]`), as Bun's server and
  // every Fetch runtime's URL give it.
  if (name.charCodeAt(0) === 91 /* [ */) return ipv6Name(name);
  return name.charCodeAt(name.length - 1) === 46 /* '.' */ ? name.slice(0, -1) : name;
}

/**
 * Whether `name` (`hostName`'s form) is one of `allowed`: a host name or address as written
 * (`example.com`, `127.0.0.1`, `[::1]`), `.example.com` for it and every sub-domain, or `*`.
 */
export function allowedHost(name: string, allowed: readonly string[]): boolean {
  if (name === '') return false;
  let entries = written.get(allowed);
  if (entries === undefined) written.set(allowed, (entries = allowed.map(hostName)));
  for (const entry of entries) {
    if (entry === name || entry === '*') return true;
    if (entry.charCodeAt(0) === 46 /* . */ && (name.endsWith(entry) || name === entry.slice(1)))
      return true;
  }
  return false;
}

// --- internal ---

let lastIpv6: [string, string] | undefined;

function ipv6Name(literal: string): string {
  if (lastIpv6?.[0] === literal) return lastIpv6[1];
  let name = literal;
  try {
    name = new URL(`http://${literal}/`).hostname;
  } catch {
    // Not an address: `badHost` refuses it.
  }
  lastIpv6 = [literal, name];
  return name;
}

// Each `allowedHosts` list as `hostName` writes a host: lower-case, no trailing dot.
const written = new WeakMap<readonly string[], string[]>();

/** Where the `:` of an `http:` or `https:` scheme (any case) is; `-1` for any other. */
function schemeLength(target: string): number {
  if (
    (target.charCodeAt(0) | 32) !== 104 /* h */ ||
    (target.charCodeAt(1) | 32) !== 116 /* t */ ||
    (target.charCodeAt(2) | 32) !== 116 /* t */ ||
    (target.charCodeAt(3) | 32) !== 112 /* p */
  )
    return -1;
  if (target.charCodeAt(4) === 58 /* : */) return 4;
  return (target.charCodeAt(4) | 32) === 115 /* s */ && target.charCodeAt(5) === 58 ? 5 : -1;
}

const HOST =
  /^(?:[A-Za-z0-9_-]{1,63}(?:\.[A-Za-z0-9_-]{1,63})*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{0,5}))?$/;
const PORT = /:\d*$/;
const NUMERIC_LAST = /(?:^|\.)(?:\d+|0x[0-9a-f]*)\.?(?::\d*)?$/i;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}\\.?(?::\\d*)?$`);
const MAX_PORT = 65535;
const MAX_NAME = 255;

// Nearly every request of a server names the same host: the last valid one is not tested again.
let lastValid: string | undefined;

function validHost(host: string): boolean {
  if (host === lastValid) return true;
  const match = HOST.exec(host);
  if (match === null) return false;
  const port = match[1];
  const name = port === undefined ? host.length : host.length - port.length - 1;
  if (name > MAX_NAME || (port !== undefined && Number(port) > MAX_PORT)) return false;
  if (host.charCodeAt(0) === 91 /* [ */ && !ipv6(host.slice(0, host.indexOf(']') + 1)))
    return false;
  // A name whose last label is a number is an IPv4 address to the URL parser: one it refuses
  // (`256.1.1.1`, `1.2.3.4.5`), or reads in a form runtimes disagree on (`0x7f.1`, `127.1`,
  // `010.0.0.1`), is refused; only the dotted-decimal form is taken.
  if (NUMERIC_LAST.test(host) && !IPV4.test(host)) return false;
  lastValid = host;
  return true;
}

/**
 * Whether `literal` (`[…]`, hex digits, `:` and `.` only, as `HOST` has it) is an IPv6 address:
 * the WHATWG URL parser, which every runtime has, refuses `[:::]`, nine groups or two `::`.
 */
function ipv6(literal: string): boolean {
  return URL.canParse(`http://${literal}/`);
}
