import { normalizePath } from './path.js';
import type { MatchHit, RouteTable } from '../types.js';

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
 * target is normal and is not read again to be normalised. A target with a query is then
 * matched without it, and needs no more when such a route takes that. Only a target that
 * normalising changes otherwise (an escape, a trailing slash, a dot segment) is normalised, and
 * matched again unless normalising left the path as it was. A target with a query is looked for
 * as it is among the static paths only (`RouteTable.match` with `target`): the dynamic routes
 * are tried on the path before the query only: that path, never the query, names the route.
 */
export function resolveTarget(
  table: RouteTable,
  method: string,
  raw: string,
  host: string,
): ResolvedTarget | undefined {
  const first =
    raw.charCodeAt(0) === 47 /* '/' */ ? table.match(method, raw, host, true) : undefined;
  if (first !== undefined && (first.route.normalOnly === true || first.normal === true)) {
    return { path: raw, hit: first };
  }
  return resolveFurther(table, method, raw, host, first);
}

// --- internal ---

/** `resolveTarget` for a target not found normal as it is (`first`: its match as it is). */
function resolveFurther(
  table: RouteTable,
  method: string,
  raw: string,
  host: string,
  first: MatchHit | undefined,
): ResolvedTarget | undefined {
  // Only what stands before a query is the path (`normalizePath` cuts there too).
  const query = raw.charCodeAt(0) === 47 ? raw.indexOf('?') : -1;
  let bare: string | undefined;
  let bareHit: MatchHit | undefined;
  if (query !== -1) {
    bare = raw.slice(0, query);
    bareHit = table.match(method, bare, host);
    if (bareHit !== undefined && (bareHit.route.normalOnly === true || bareHit.normal === true)) {
      return { path: bare, hit: bareHit };
    }
  }
  const path = normalizePath(raw);
  if (path === undefined) return undefined;
  // `normalizePath` gives back the target itself when it is already normal.
  const hit = path === raw ? first : path === bare ? bareHit : table.match(method, path, host);
  return { path, hit };
}
