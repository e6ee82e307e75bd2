import { pathStart } from './host.js';

/**
 * Request-target handling shared by both adapters, so that they answer alike.
 */

/**
 * The path the matcher sees for a raw request target (`/a/b/?x=1` or absolute-form): no
 * query, no trailing slash, percent-decoded once but for `%2F` and `%25`. `undefined` means a
 * 400. A target that is already normal is returned as is, without allocating.
 */
export function normalizePath(raw: string): string | undefined {
  let end = raw.indexOf('?');
  if (end === -1) end = raw.length;
  let start = 0;
  if (raw.charCodeAt(0) !== 47 /* '/' */) {
    // Absolute-form: `http://host` and `http://host?q` have the path `/`, as the URL parser
    // gives them; any other target that does not start with `/` is a 400.
    start = pathStart(raw);
    if (start === -1) return undefined;
  }
  // Trailing slashes are optional on both sides: `/a`, `/a/` and `/a//` are one path.
  while (end - start > 1 && raw.charCodeAt(end - 1) === 47 /* '/' */) end--;
  let path = start === 0 && end === raw.length ? raw : raw.slice(start, end);
  if (path.length === 0) return '/';
  if (UNCLEAN.test(path)) path = cleanPath(path);
  return path.indexOf('%') === -1 ? path : decodePath(path);
}

/**
 * The raw path of a target made safe to echo: `\` as `/`, empty and dot segments resolved
 * (as a browser's URL parser does, so both adapters see one path), never starting with `//`
 * (which a browser reads as another host). With `keepTrailingSlash` (what `url()` echoes), a
 * path ending in `/`, `/.` or `/..` keeps a trailing `/`, as the URL parser writes it.
 */
export function cleanPath(path: string, keepTrailingSlash = false): string {
  const out: string[] = [];
  const segments = path.replace(/\\/g, '/').split('/');
  // As the URL parser does: an empty segment counts until the end, so `..` may remove it
  // (`/a//..` is `/a/`), and only then are empty segments dropped.
  for (const segment of segments) {
    if (DOTDOT.test(segment)) out.pop();
    else if (!DOT.test(segment)) out.push(segment);
  }
  const clean = `/${out.filter((segment) => segment !== '').join('/')}`;
  // A path that ends in `/`, `/.` or `/..` ends in `/` for the URL parser (`/a/b/..` is `/a/`).
  const last = segments[segments.length - 1]!;
  const trailing = last === '' || DOT.test(last) || DOTDOT.test(last);
  return keepTrailingSlash && trailing && clean !== '/' ? `${clean}/` : clean;
}

/** The request target with its path cleaned (`cleanPath`) and its query kept. */
export function cleanTarget(raw: string): string {
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const clean =
    UNCLEAN.test(path) || !path.startsWith('/')
      ? cleanPath(path.slice(Math.max(0, pathStart(path))), true)
      : path;
  return q === -1 ? clean : clean + raw.slice(q);
}

/**
 * `target` as the WHATWG URL parser reads it: no fragment, which no client sends and the parser
 * cuts off (`/public/x#/../../admin` is `/public/x`, never `/admin`); in the path, controls,
 * spaces, `"<>^` backtick `{}` and non-ASCII percent-encoded (UTF-8), in the query controls,
 * spaces, `"'<>` and non-ASCII. node:http passes some on raw, Deno's server all of them: both
 * adapters see, and `url()` gives back, the target a browser would have sent. A target with none
 * of them is returned as is. `\` is read as `/` by the path rules.
 */
export function parsedTarget(target: string): string {
  if (!UNPARSED.test(target)) return target;
  const raw = withoutFragment(target);
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const encoded = path.replace(PATH_ENCODED, percentEncode);
  return q === -1 ? encoded : encoded + raw.slice(q).replace(QUERY_ENCODED, percentEncode);
}

/** `text` percent-encoded as UTF-8, every character of it (a lone surrogate as U+FFFD). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of UTF8.encode(text))
    out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A request target without its fragment (`#…`), which the URL parser cuts off. */
export function withoutFragment(target: string): string {
  const hash = target.indexOf('#');
  return hash === -1 ? target : target.slice(0, hash);
}

/** The query string of a raw request target, without `?` (empty when absent). */
export function queryOf(raw: string): string {
  const q = raw.indexOf('?');
  return q === -1 ? '' : raw.slice(q + 1);
}

/**
 * Decodes every escape once, except `%2F` (a slash inside a segment must not split it) and
 * `%25` (so the kept escapes cannot be forged); `decodeParam` finishes a parameter value.
 * A malformed escape or `%00` gives `undefined`.
 */
export function decodePath(path: string): string | undefined {
  let out = '';
  let last = 0;
  ESCAPES.lastIndex = 0;
  for (let m = ESCAPES.exec(path); m !== null; m = ESCAPES.exec(path)) {
    out += path.slice(last, m.index);
    const run = decodeRun(m[0]);
    if (run === undefined) return undefined;
    out += run;
    last = m.index + m[0].length;
  }
  out += path.slice(last);
  // A `%` left over, other than the kept escapes, was not followed by two hex digits.
  return STRAY.test(out.replace(KEPT, '')) ? undefined : out;
}

/**
 * Finishes decoding a parameter value taken from a path produced by `decodePath`: a value
 * without `%` is its own decoded form, and is returned as it is.
 */
export function decodeParam(value: string): string;
export function decodeParam(value: string | undefined): string | undefined;
export function decodeParam(value: string | undefined): string | undefined {
  if (value === undefined || value.indexOf('%') === -1) return value;
  return value.replace(KEPT, (e) => (e[2] === '5' ? '%' : '/'));
}

// --- internal ---

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
// All but what stands as it is in both a path and a query: printable ASCII but `"#'<>^` backtick
// `{}`. Then what the URL parser encodes in a path (`^` since 2023, as Bun does), and in a query.
const UNPARSED = /[^!$-&(-;=?-\]_a-z|~]/;
// eslint-disable-next-line no-control-regex
const PATH_ENCODED = /[\u0000-\u0020"<>^`{}\u007f-\uffff]+/g;
// eslint-disable-next-line no-control-regex
const QUERY_ENCODED = /[\u0000-\u0020"'<>\u007f-\uffff]+/g;
const UTF8 = new TextEncoder();
// Backslashes, empty segments, and `.`/`..` segments (also written `%2e`).
const UNCLEAN = /\\|\/\/|\/(?:\.|%2[eE])(?:\.|%2[eE])?(?:\/|$)/;
const DOT = /^(?:\.|%2e)$/i;
const DOTDOT = /^(?:\.|%2e){2}$/i;
const KEPT = /%2[Ff5]/g;
const STRAY = /%/;

function decodeRun(run: string): string | undefined {
  let out = '';
  for (const piece of run.split(/(%2[Ff]|%25)/)) {
    if (piece === '') continue;
    if (piece.length === 3 && (piece === '%25' || piece.toUpperCase() === '%2F')) {
      out += piece.toUpperCase();
      continue;
    }
    let text: string;
    try {
      text = decodeURIComponent(piece);
    } catch {
      return undefined;
    }
    if (text.indexOf('\0') !== -1) return undefined;
    out += text;
  }
  return out;
}
