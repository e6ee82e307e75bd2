/**
 * Small pieces the generated matcher shares, kept here so the generated module stays data
 * and straight-line code.
 */
import type { HandlerInstance, Instantiable } from './types.js';

/** A route as the `405` check sees it: its path regex, its verbs, and its host if any. */
export type Candidate = readonly [regex: RegExp, verbs: readonly string[], host?: RegExp | string];

/** A group with exception handlers: its prefix regex, host, and handlers. */
export type HandlerGroup = readonly [
  prefix: RegExp,
  host: RegExp | string | undefined,
  handlers: readonly Instantiable<HandlerInstance>[],
];

/** Whether `value` is one or more `\w` characters (`[A-Za-z0-9_]`), the default parameter rule. */
export function isWord(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // 0-9, A-Z, _, a-z
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122)))
      return false;
  }
  return true;
}

/** The verbs of every candidate matching `path` and `host`, without repeats. */
export function allowedBy(candidates: readonly Candidate[], path: string, host: string): string[] {
  const out: string[] = [];
  for (const [regex, verbs, domain] of candidates) {
    if (!hostMatches(domain, host) || !regex.test(path)) continue;
    for (const verb of verbs) if (!out.includes(verb)) out.push(verb);
  }
  return out;
}

/** The handlers of the groups (innermost first) whose prefix and host match. */
export function handlersOf(
  groups: readonly HandlerGroup[],
  path: string,
  host: string,
): Instantiable<HandlerInstance>[] {
  const out: Instantiable<HandlerInstance>[] = [];
  for (const [prefix, domain, handlers] of groups) {
    if (hostMatches(domain, host) && prefix.test(path)) out.push(...handlers);
  }
  return out;
}

// --- internal ---

function hostMatches(domain: RegExp | string | undefined, host: string): boolean {
  return domain === undefined || (typeof domain === 'string' ? domain === host : domain.test(host));
}

/**
 * A route's path program for `matchSegments`: literal strings, and parameters as
 * `[optional, check]` where `check` is `isWord` or an anchored regex.
 */
export type SegmentProgram = readonly (string | readonly [optional: 0 | 1, check: RegExp | 0])[];

/**
 * Runs a path program (see the compiler's segments emitter): literals compared in place, each
 * parameter one `/`-separated segment found with `indexOf`, checked, and sliced. One shared
 * function for every route keeps the generated module small and this code hot.
 */
export function matchSegments(
  path: string,
  program: SegmentProgram,
): (string | undefined)[] | undefined {
  const values: (string | undefined)[] = [];
  let pos = 0;
  for (let k = 0; k < program.length; k++) {
    const step = program[k]!;
    if (typeof step === 'string') {
      if (!path.startsWith(step, pos)) return undefined;
      pos += step.length;
      continue;
    }
    if (pos >= path.length) {
      if (step[0] === 0) return undefined;
      values.push(undefined);
      continue;
    }
    if (path.charCodeAt(pos) !== 47 /* '/' */) return undefined;
    let end = path.indexOf('/', pos + 1);
    if (end === -1) end = path.length;
    if (end === pos + 1) return undefined;
    const value = path.slice(pos + 1, end);
    const check = step[1];
    if (check === 0 ? !isWord(value) : !check.test(value)) return undefined;
    values.push(
      value.indexOf('%') === -1
        ? value
        : value.replace(/%2[Ff5]/g, (e) => (e[2] === '5' ? '%' : '/')),
    );
    pos = end;
  }
  return pos === path.length ? values : undefined;
}
