import type { PatternToken, RouteRecord } from '../types.js';

/**
 * What bounds the strings a route's whole-string regexes may run on (runtime `within`): for
 * its host regex, the host pattern's literal characters and parameters; for its path regex,
 * the URL pattern's literal characters (separators included) and its parameters and `setMatch`
 * captures. A bound is only applied to a normalised path, which has no trailing `/`.
 *
 * This one: the literal characters and parameters (at least one) of a route's path regex.
 */
export function pathBound(route: RouteRecord): [number, number] {
  const params = route.params.length + (route.match?.captures ?? 0);
  return [fixedLength(route.tokens), Math.max(1, params)];
}

/** The literal characters and parameters of a host pattern (at least one parameter). */
export function hostBound(tokens: readonly PatternToken[]): [number, number] {
  return [fixedLength(tokens), Math.max(1, tokens.filter((t) => t.kind === 'param').length)];
}

/** The literal characters of a pattern: its literals and the separators of its parameters. */
function fixedLength(tokens: readonly PatternToken[]): number {
  let n = 0;
  for (const token of tokens)
    n += token.kind === 'literal' ? token.text.length : token.separator.length;
  return n;
}
