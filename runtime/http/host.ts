/**
 * The Host rule, in one place. A request is refused (400) when its Host header is empty or
 * malformed, when it has two (RFC 9112 §3.2), or when an absolute-form target names another
 * authority than the Host header. A valid Host is a DNS-like name (letters, digits, `-`, `_`,
 * as Docker service names have), an IPv4 address or a bracketed IPv6 literal, optionally a
 * trailing dot, optionally `:port` (digits, possibly none). Routes compare `hostName()`.
 */

/** Whether the request's Host header and target are refused with a 400. */
export function badHost(host: string | undefined, target: string): boolean {
  if (host !== undefined && host !== validHost) {
    if (!HOST.test(host)) return true;
    validHost = host;
  }
  // Absolute-form (`GET http://a/b`): RFC 9112 makes its authority the host; one that differs
  // from the Host header would let a proxy check one host while the app routes another.
  if (target.charCodeAt(0) === 47 /* '/' */) return false;
  const authority = ABSOLUTE.exec(target)?.[1];
  return authority !== undefined && authority.toLowerCase() !== (host ?? '').toLowerCase();
}

/** The host domain routes and `url()` compare: lower-case, without port or trailing dot. */
export function hostName(host: string): string {
  const name = host.replace(PORT, '').toLowerCase();
  return name.charCodeAt(name.length - 1) === 46 /* '.' */ ? name.slice(0, -1) : name;
}

// --- internal ---

const HOST = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{0,5})?$/;
const PORT = /:\d*$/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

// Nearly every request of a server names the same host: the last valid one is not tested again.
let validHost = '';
