import type { MiddlewareEntry } from '../types.js';

/** The mark of a `Cors` class, seen across copies of the runtime (a test runner's beside Node's). */
export const CORS = Symbol.for('course-router.cors');

/** Whether `use` is a `Cors` class, the package's or one extending it. */
export function isCorsClass(use: unknown): boolean {
  return typeof use === 'function' && (use as { [CORS]?: boolean })[CORS] === true;
}

/**
 * A route's middleware with one `Cors` at most, the innermost (the route's own, then its
 * groups' from the inside out): of groups with `Cors` inside each other, the innermost decides
 * alone, and an outer one never adds its headers. Done once, as the route table is read.
 */
export function innermostCors(middleware: MiddlewareEntry[]): MiddlewareEntry[] {
  const last = middleware.findLastIndex((entry) => isCorsClass(entry.use));
  return last === -1 ? middleware : middleware.filter((e, i) => i === last || !isCorsClass(e.use));
}
