import { normalizePath } from './path.js';
import type { MatchHit, RouteTable } from './types.js';

/** A request target resolved: the path the router sees and the route it names. */
export interface ResolvedTarget {
  readonly path: string;
  readonly hit: MatchHit | undefined;
}

/**
 * The path of a raw request target (`/a/b?x=1`) and its route for `method` on `host`;
 * `undefined` is a 400. The same as `table.match(method, normalizePath(raw), host)`, but the
 * target is matched as it is first: when a route that matches only normal paths
 * (`RouteEntry.normalOnly`) takes it, or the matcher found it normal (`MatchHit.normal`), the
 * target is normal and is not read again to be normalised; when normalising leaves it as it
 * is, the first answer stands. Only a target that normalising changes (a query, an escape, a
 * trailing slash) is matched twice.
 */
export function resolveTarget(
  table: RouteTable,
  method: string,
  raw: string,
  host: string,
): ResolvedTarget | undefined {
  const first = raw.charCodeAt(0) === 47 /* '/' */ ? table.match(method, raw, host) : undefined;
  if (first !== undefined && (first.route.normalOnly === true || first.normal === true)) {
    return { path: raw, hit: first };
  }
  const path = normalizePath(raw);
  if (path === undefined) return undefined;
  // `normalizePath` gives back the target itself when it is already normal.
  return { path, hit: path === raw ? first : table.match(method, path, host) };
}
