import { normalizePath } from 'course-router/internal';
import { paramFlags } from '../regex.js';
import type { PatternToken, RouteRecord } from '../types.js';
import { classUnit, segmentSteps } from './segments.js';

/**
 * Whether every path `route` matches is already normal — one the runtime's `normalizePath`
 * returns as it is — so that a raw request target the route matches needs no normalising
 * (runtime `resolveTarget`). True when the route is tested segment by segment (which, unlike
 * its regex, takes no trailing `/`), its literals are normal, and each parameter is a run of
 * characters none of which normalising reads (`\w+`, `[a-z0-9-]+`, `[^/?%\\.]+`, …): such a
 * value has no `/`, `?`, `%`, `\` or `.`, so a path made of them is normal exactly when the same
 * path with `x` for every value is. A `setMatch` route, or one with a parameter that may hold
 * other characters, answers false.
 */
export function matchesNormalOnly(route: RouteRecord): boolean {
  if (segmentSteps(route) === undefined) return false;
  const params = route.tokens.filter((t) => t.kind === 'param');
  if (!params.every((t) => safeValues(t.regex, paramFlags(t)))) return false;
  // Optional parameters come last (segment by segment): each may end the path.
  const optional = params.filter((t) => t.optional);
  for (let present = 0; present <= optional.length; present++) {
    const path = sample(route.tokens, new Set(optional.slice(present)));
    if (normalizePath(path) !== path) return false;
  }
  return true;
}

/**
 * For a route whose last parameter takes the rest of the path (`{path}` with `.*`): whether a
 * path it matches is normal when that rest is a normal tail (non-empty, no `?`, `%`, `\`, empty
 * or dot segment, trailing `/`), which the generated code checks as it reads the value.
 */
export function normalWithNormalRest(route: RouteRecord): boolean {
  const last = route.tokens.at(-1);
  if (last?.kind !== 'param') return false;
  return matchesNormalOnly({
    ...route,
    tokens: [...route.tokens.slice(0, -1), { ...last, regex: '\\w+', caseless: false }],
  });
}

// --- internal ---

// What normalising reads in a path: a parameter that can hold none of these leaves it alone.
const READ_BY_NORMALISING = ['/', '?', '%', '\\', '.'];

/**
 * Whether every value of the parameter regex `source`, run with `flags`, is free of what
 * normalising reads.
 */
function safeValues(source: string, flags: string): boolean {
  const unit = classUnit(source, flags);
  return unit !== undefined && !READ_BY_NORMALISING.some((c) => unit.test(c));
}

function sample(tokens: readonly PatternToken[], absent: ReadonlySet<PatternToken>): string {
  let out = '';
  for (const token of tokens) {
    if (token.kind === 'literal') out += token.text;
    else if (!absent.has(token)) out += `${token.separator}x`;
  }
  return out || '/';
}
