import type { SourceLocation } from 'course-router/internal';
import { segmentSteps } from './emit/segments.js';
import { HOST_FLAGS } from './groups.js';
import { ROUTE_FLAGS } from './pattern.js';
import { paramFlags } from './regex.js';
import { TRIVIAL } from './regex-safety.js';
import type { DomainSpec, MatchSpec, PatternToken } from './types.js';

/** A regex as the generated matcher runs it, what it is for people, and where it was written. */
export interface RunningRegex {
  what: string;
  source: string;
  flags: string;
  loc: SourceLocation;
}

/** A route's parts the gate reads, and where each regex of it was written. */
export interface GatedRoute {
  url: string;
  tokens: readonly PatternToken[];
  regex: string;
  match: MatchSpec | undefined;
  domain: DomainSpec | undefined;
  loc: SourceLocation;
  /** Where each URL parameter's regex was written, by name. */
  paramLoc: (name: string) => SourceLocation;
  /** Where the host's parameter regexes were written (the first `where` of one), else the route. */
  domainLoc: SourceLocation;
  matchLoc: SourceLocation | undefined;
}

/**
 * The regexes the generated matcher runs for a route, in the form it runs them (anchored, in
 * their context, with their flags), to be checked for catastrophic backtracking:
 * - each parameter's own check, `^(?:…)$` with `u` (`iu` for an `i` regex), which tests one
 *   segment; a run of one ASCII class (`[0-9]+`) runs none, and is trivial anyway;
 * - the route regex over the whole path, with `u`, when the route is not tested segment by
 *   segment (a parameter that may match `/`, several in a segment, a `setMatch` route's URL);
 * - the host regex of a domain with parameters, with `iu`;
 * - a `setMatch` regex, unanchored, with its own flags.
 * A composed regex the token shortcut proves linear (`obviouslyLinear`) is left out.
 */
export function runningRegexes(route: GatedRoute): RunningRegex[] {
  const out: RunningRegex[] = [];
  for (const token of route.tokens) {
    if (token.kind !== 'param' || TRIVIAL.test(token.regex)) continue;
    out.push({
      what: `parameter "${token.name}"`,
      source: `^(?:${token.regex})$`,
      flags: paramFlags(token),
      loc: route.paramLoc(token.name),
    });
  }
  const params = route.tokens.some((t) => t.kind === 'param');
  const wholePath = segmentSteps(route) === undefined && (params || !route.match);
  if (wholePath && !obviouslyLinear(route.tokens, paramFlags)) {
    out.push({
      what: `the URL ${JSON.stringify(route.url)}`,
      source: route.regex,
      flags: ROUTE_FLAGS,
      loc: route.loc,
    });
  }
  const domain = route.domain;
  if (domain && domain.params.length > 0 && !obviouslyLinear(domain.tokens, () => HOST_FLAGS)) {
    out.push({
      what: `the domain ${JSON.stringify(domain.pattern)}`,
      source: domain.regex,
      flags: HOST_FLAGS,
      loc: route.domainLoc,
    });
  }
  if (route.match && route.matchLoc) {
    const { source, flags } = route.match;
    out.push({ what: 'setMatch()', source, flags, loc: route.matchLoc });
  }
  return out;
}

// --- internal ---

/**
 * Whether a pattern's regex is linear by its shape: every parameter one class repeated
 * (`TRIVIAL`), none of which can take the character that may follow it (the next literal's
 * first, or the separator of a next parameter). Such a parameter can only end where its class
 * stops, so no two of them trade characters; the last is followed by `\/?$` alone.
 */
function obviouslyLinear(
  tokens: readonly PatternToken[],
  flagsOf: (token: PatternToken & { kind: 'param' }) => string,
): boolean {
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.kind !== 'param') continue;
    if (!TRIVIAL.test(token.regex)) return false;
    const unit = new RegExp(
      `^(?:${token.regex.replace(/(?:[+*?]|\{\d+(?:,\d*)?\})$/, '')})$`,
      flagsOf(token),
    );
    const next = following(tokens, k);
    if (next === undefined || [...next].some((c) => unit.test(c))) return false;
  }
  return true;
}

/**
 * The characters that may come right after the parameter at `k`; `undefined` when another
 * parameter may (two parameters side by side).
 */
function following(tokens: readonly PatternToken[], k: number): string | undefined {
  let out = '';
  for (let j = k + 1; j < tokens.length; j++) {
    const token = tokens[j]!;
    if (token.kind === 'literal') return out + token.text[0]!;
    if (token.separator === '') return undefined;
    out += token.separator;
    if (!token.optional) return out;
  }
  return out;
}
