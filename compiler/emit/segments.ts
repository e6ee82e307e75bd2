import { leadingSegments } from 'course-router/internal';
import { paramFlags } from '../regex.js';
import type { PatternToken, RouteRecord } from '../types.js';

const DEFAULT_REGEX = '\\w+';

/** One step of a path program: a literal compared in place, or one `/`-separated parameter. */
export type SegmentStep =
  | { kind: 'literal'; text: string }
  /**
   * `check`: the anchored regex source, `undefined` for the default `\w+`. `run`: when the
   * regex is a run of one class of ASCII characters without `/` and `%` (`[0-9]+`,
   * `[a-z0-9-]+`), the characters of that class, by which the value is read to its end
   * (runtime `runEnd`), never tested by the regex nor decoded. `flags`: those `check` runs with.
   */
  | {
      kind: 'param';
      /** The parameter's name, for readers of the generated tables. */
      name: string;
      optional: boolean;
      check: string | undefined;
      flags: string;
      run: string | undefined;
    }
  /**
   * A last parameter written `.*` or `.+`: the rest of the path after a `/`. `normal`: the
   * path is normal when the rest is (runtime `MatchHit.normal`).
   */
  | { kind: 'rest'; empty: boolean; normal: boolean };

/** A literal step. */
export type LiteralStep = Extract<SegmentStep, { kind: 'literal' }>;

/** The steps the runtime's `matchSegments` also reads. */
export type SimpleStep = Exclude<SegmentStep, { kind: 'rest' }>;

/**
 * A route's path as a program of segment steps, when its shape allows (every parameter a
 * whole segment after a `/`, none able to match `/`, optional ones only at the end): cheaper
 * than a regex, allocating only the values. `undefined` when the regex is needed.
 */
export function segmentSteps(route: {
  tokens: readonly PatternToken[];
  match: RouteRecord['match'];
}): SimpleStep[] | undefined {
  if (route.match || !isSimple(route.tokens)) return undefined;
  return route.tokens.map((token) => {
    if (token.kind === 'literal') return { kind: 'literal', text: token.text };
    const flags = paramFlags(token);
    const word = token.regex === DEFAULT_REGEX && !token.caseless;
    return {
      kind: 'param',
      name: token.name,
      optional: token.optional,
      check: word ? undefined : `^(?:${token.regex})$`,
      flags,
      run: word ? undefined : asciiRun(token.regex, flags),
    };
  });
}

/**
 * Like `segmentSteps`, also for a route whose last parameter takes the rest of the path
 * (`{path}` with `.*` or `.+`, after a `/`), as generated code tests it. `normalRest`: whether
 * the route's paths are normal when that rest is (`normalWithNormalRest`).
 */
export function codeSteps(route: RouteRecord, normalRest: boolean): SegmentStep[] | undefined {
  const simple = segmentSteps(route);
  if (simple !== undefined || route.match) return simple;
  const last = route.tokens.at(-1);
  if (last?.kind !== 'param' || last.optional || last.separator !== '/') return undefined;
  if (last.regex !== '.*' && last.regex !== '.+') return undefined;
  const head = segmentSteps({ ...route, tokens: route.tokens.slice(0, -1) });
  return head && [...head, { kind: 'rest', empty: last.regex === '.*', normal: normalRest }];
}

/**
 * `steps` with the leading literal split into one step per path segment (`/a/b` → `/a`, `/b`)
 * when it is made of whole segments, and how many such steps lead (the runtime's
 * `leadingSegments`, which the walker reads them with): a tree walk that compared those segments
 * lets the program resume after them. They are the segments the tree groups the route by
 * (`dynamic-tree`'s `segmentsOf`), or none, so a walk never skips one it did not compare.
 */
export function splitHead<Step extends SegmentStep>(
  steps: readonly Step[],
): { steps: (Step | LiteralStep)[]; pieces: number } {
  const [head, ...rest] = steps;
  const split =
    head?.kind === 'literal' && WHOLE_SEGMENTS.test(head.text)
      ? [
          ...head.text.match(/\/[^/]+/g)!.map((text) => ({ kind: 'literal' as const, text })),
          ...rest,
        ]
      : [...steps];
  // Only the literals matter to the count: any other step stands for one that is not.
  return {
    steps: split,
    pieces: leadingSegments(split.map((s) => (s.kind === 'literal' ? s.text : [0, 0]))),
  };
}

// --- internal ---

/** A literal of whole segments; in a simple program, a parameter after it starts a new one. */
const WHOLE_SEGMENTS = /^(?:\/[^/]+)+$/;

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
    if (token.separator !== '/' || !segmentOnly(token.regex, paramFlags(token))) return false;
    if (token.optional) sawOptional = true;
    else if (sawOptional) return false;
  }
  return true;
}

/**
 * A conservative test that a regex cannot match `/`: no dot, no negated or broad class; or one
 * class (`[^/]+`) that does not take `/`.
 */
function segmentOnly(regex: string, flags: string): boolean {
  if (!/[./]|\\[SWDsbB]|\[\^|\\u|\\x|\\p/i.test(regex.replace(/\\[dw]/g, ''))) return true;
  return classUnit(regex, flags)?.test('/') === false;
}

/**
 * When the parameter regex `source` is one class (`\\w`, `\\d`, `[…]`, `[^…]`), repeated or not:
 * the regex of one character of its values, with the `flags` the parameter runs with.
 */
export function classUnit(source: string, flags: string): RegExp | undefined {
  const match = ONE_CLASS.exec(source);
  return match === null ? undefined : new RegExp(`^${match[1]}$`, flags);
}

const ONE_CLASS = /^(\\[dw]|\[(?:\\.|[^\]\\])+\])(?:[+*?]|\{\d+(?:,\d*)?\})?$/;

/**
 * The characters of the class when the parameter regex `source`, run with `flags`, is one class
 * repeated (`+`, or `*`: a segment is never empty) whose characters are all ASCII, none of them
 * `/` or `%`: `\d+` gives `0123456789`. A negated class, a class escape other than `\d` and
 * `\w`, or a character written as a code (`\u…`, `\x…`) may take others, and is left to the
 * regex. So is a class that `i` with `u` extends past ASCII (`\w`, `[a-z]`, `[k]` take U+017F or
 * U+212A, which fold to `s` and `k`).
 */
export function asciiRun(source: string, flags: string): string | undefined {
  if (!/[+*]$/.test(source) || /\\[^dw\-.\\^$|()[\]{}?*+/]|\[\^|[^\x20-\x7e]/.test(source))
    return undefined;
  const unit = classUnit(source, flags);
  if (unit === undefined || unit.test('/') || unit.test('%')) return undefined;
  let members = '';
  for (let c = 0; c < 128; c++)
    if (unit.test(String.fromCharCode(c))) members += String.fromCharCode(c);
  if (flags.includes('i')) {
    for (let c = 128; c <= 0x10ffff; c++) if (unit.test(String.fromCodePoint(c))) return undefined;
  }
  return members;
}
