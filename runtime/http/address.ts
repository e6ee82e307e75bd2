/**
 * One spelling for each IP address a proxy reports, so that each client is one
 * `requestLimit` key: IPv4 in dotted decimal (`7.7.7.7` for `007.7.7.7`, `0x7.7.7.7` or
 * `7.7.7.7:5000`), IPv6 as the URL parser writes it (lower-case, compressed), without brackets,
 * and an IPv4 address mapped into IPv6 (`::ffff:7.7.7.7`) as its IPv4 form. A port after the
 * address is dropped. `undefined` when `text` is no IP address: a host name, `unknown`
 * (RFC 7239's), anything else.
 */
export function ipAddress(text: string): string | undefined {
  if (text === '' || NOT_HOST.test(text)) return undefined;
  // An IPv6 address with no brackets (and so no port): the URL parser wants them.
  const literal =
    text.charCodeAt(0) !== 91 /* [ */ && text.split(':').length > 2 ? `[${text}]` : text;
  let host: string;
  try {
    host = new URL(`http://${literal}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.charCodeAt(0) !== 91 /* [ */) return DOTTED.test(host) ? host : undefined;
  const address = host.slice(1, -1);
  const mapped = MAPPED.exec(address);
  if (mapped === null) return address;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

// --- internal ---

// What would make the URL parser read part of `text` as something other than the host.
const NOT_HOST = /[\s/?#@\\]/;
// The URL parser writes every IPv4 address so; a host name that is not one stays as it was.
const DOTTED = /^\d+\.\d+\.\d+\.\d+$/;
// `::ffff:a.b.c.d`, as the URL parser writes it: `::ffff:0a0b:0c0d` with the zeros left out.
const MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;
