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

/** The first segment of a normalised path (`/user/5` → `user`). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
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
