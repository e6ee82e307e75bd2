import type { PatternToken, RouteRecord } from '../types.js';
import { segmentSteps } from './segments.js';

/**
 * Whether every path `route` matches is already normal — one the runtime's `normalizePath`
 * returns as it is — so that a raw request target the route matches needs no normalising
 * (runtime `resolveTarget`). True when the route is tested segment by segment (which, unlike
 * its regex, takes no trailing `/`), its literals are normal, and each parameter is a run of
 * word characters: such a value has no `/`, `?`, `%`, `\` or leading `.`, so a path made of
 * them is normal exactly when the same path with `x` for every value is. A `setMatch` route,
 * or one with a parameter that may hold other characters, answers false.
 */
export function matchesNormalOnly(route: RouteRecord): boolean {
  if (segmentSteps(route) === undefined) return false;
  const params = route.tokens.filter((t) => t.kind === 'param');
  if (!params.every((t) => WORDS.test(t.regex))) return false;
  const optional = params.filter((t) => t.optional);
  // Every choice of present and absent optional parameters (routes have a few at most).
  if (optional.length > MAX_OPTIONAL) return false;
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const absent = new Set(optional.filter((_, k) => mask & (1 << k)));
    if (!isNormalSample(sample(route.tokens, absent))) return false;
  }
  return true;
}

// --- internal ---

const MAX_OPTIONAL = 6;

// `\w`, `\d`, or one class of word characters (`[0-9]`, `[a-zA-Z_]`, …), repeated or not.
const CLASS_PART = String.raw`(?:\\[dw]|[0-9]-[0-9]|[a-z]-[a-z]|[A-Z]-[A-Z]|[A-Za-z0-9_])`;
const WORDS = new RegExp(String.raw`^(?:\\[dw]|\[${CLASS_PART}+\])(?:[+*?]|\{\d+(?:,\d*)?\})?$`);

function sample(tokens: readonly PatternToken[], absent: ReadonlySet<PatternToken>): string {
  let out = '';
  for (const token of tokens) {
    if (token.kind === 'literal') out += token.text;
    else if (!absent.has(token)) out += `${token.separator}x`;
  }
  return out || '/';
}

/** What `normalizePath` leaves as it is: see there. */
function isNormalSample(path: string): boolean {
  if (!path.startsWith('/')) return false;
  if (path.length > 1 && path.endsWith('/')) return false;
  return !/[?%\\]|\/\/|\/\./.test(path);
}
