import { normalizePath } from '../../runtime/path.js';
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
  // Optional parameters come last (segment by segment): each may end the path.
  const optional = params.filter((t) => t.optional);
  for (let present = 0; present <= optional.length; present++) {
    const path = sample(route.tokens, new Set(optional.slice(present)));
    if (normalizePath(path) !== path) return false;
  }
  return true;
}

// --- internal ---

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
