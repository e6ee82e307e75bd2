import { within } from './bound.js';
import type { HandlerInstance, Instantiable } from '../types.js';

/**
 * A group with exception handlers (or middleware that may be `Cors`): its prefix regex, host,
 * classes, and for a host regex its literal characters and parameters (`within`).
 */
export type HandlerGroup<T = Instantiable<HandlerInstance>> = readonly [
  prefix: RegExp,
  host: RegExp | string | undefined,
  handlers: readonly T[],
  hostBound?: readonly [fixed: number, params: number],
];

/** The classes of the groups (innermost first) whose prefix and host match. */
export function handlersOf<T>(groups: readonly HandlerGroup<T>[], path: string, host: string): T[] {
  const out: T[] = [];
  for (const [prefix, domain, handlers, bound] of groups) {
    if (hostMatches(domain, host, bound) && prefix.test(path)) out.push(...handlers);
  }
  return out;
}

function hostMatches(
  domain: RegExp | string | undefined,
  host: string,
  bound: readonly [number, number] | undefined,
): boolean {
  if (domain === undefined) return true;
  if (typeof domain === 'string') return domain === host;
  return (bound === undefined || within(host, bound[0], bound[1])) && domain.test(host);
}
