import type { PatternToken, RouteRecord } from '../types.js';
import { str } from './_print.js';
import { regexLiteral } from './match.js';

const DEFAULT_REGEX = '\\w+';

/**
 * A route's path program for the runtime's `matchSegments`, when its shape allows (every
 * parameter a whole segment after a `/`, none able to match `/`, optional ones only at the
 * end): cheaper than a regex, allocating only the values. `undefined` when the regex is needed.
 */
export function segmentProgram(route: RouteRecord): string | undefined {
  if (route.match || !isSimple(route.tokens)) return undefined;
  const steps = route.tokens.map((token) => {
    if (token.kind === 'literal') return str(token.text);
    const check = token.regex === DEFAULT_REGEX ? '0' : regexLiteral(`^(?:${token.regex})$`);
    return `[${token.optional ? 1 : 0}, ${check}]`;
  });
  return `[${steps.join(', ')}]`;
}

// --- internal ---

/** Literals and `/`-separated parameters that cannot match `/`; optional ones only last. */
function isSimple(tokens: readonly PatternToken[]): boolean {
  let sawOptional = false;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.kind === 'literal') {
      if (sawOptional) return false;
      // A literal after a parameter must start a new segment.
      if (k > 0 && !token.text.startsWith('/')) return false;
      continue;
    }
    if (token.separator !== '/' || !segmentOnly(token.regex)) return false;
    if (token.optional) sawOptional = true;
    else if (sawOptional) return false;
  }
  return true;
}

/** A conservative test that a regex cannot match `/`: no dot, no negated or broad class. */
function segmentOnly(regex: string): boolean {
  return !/[./]|\\[SWDsbB]|\[\^|\\u|\\x|\\p/i.test(regex.replace(/\\[dw]/g, ''));
}
