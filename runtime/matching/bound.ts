/**
 * The bound `maxParamLength` puts on the regexes that read more than one path segment: a route
 * regex (a parameter whose regex may match `/`, or several in one segment), a `setMatch` regex,
 * a host regex. Such a regex runs only on a string no longer than its literal characters plus
 * the limit for each parameter it holds: a longer one either does not match or has a parameter
 * over the limit, so the request is a 414 without the regex reading it. Every other parameter
 * regex reads one segment, which the dispatcher bounds before matching (`longSegment`).
 *
 * A path and a host within the limit cannot exceed any bound: they are matched with none, and
 * only a longer one is matched inside `bounded`. The bound is the state of this module while
 * that synchronous call runs, so the generated matcher keeps its signature and its speed.
 */

let perParam = Infinity;
let exceeded = false;

/** What `bounded` gives when a regex was not run on a string over its bound. */
export const TOO_LONG: unique symbol = Symbol('course.tooLong');

/**
 * Whether a regex holding `fixed` literal characters and `params` parameters (at least one)
 * may run on `text`; noted for `bounded` when not.
 */
export function within(text: string, fixed: number, params: number): boolean {
  if (text.length <= fixed + params * perParam) return true;
  exceeded = true;
  return false;
}

/** `find()` with regexes bounded by `limit` characters per parameter; `TOO_LONG` if one was. */
export function bounded<T>(limit: number, find: () => T): T | typeof TOO_LONG {
  perParam = limit;
  exceeded = false;
  try {
    const value = find();
    return exceeded ? TOO_LONG : value;
  } finally {
    perParam = Infinity;
    exceeded = false;
  }
}

/** Whether a `/`-separated segment of `path` (before any `?`) is longer than `limit`. */
export function longSegment(path: string, limit: number): boolean {
  let start = 0;
  const end = path.indexOf('?') === -1 ? path.length : path.indexOf('?');
  for (let i = 0; i <= end; i++) {
    if (i === end || path.charCodeAt(i) === 47 /* '/' */) {
      if (i - start > limit) return true;
      start = i + 1;
    }
  }
  return false;
}
