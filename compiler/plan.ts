import type { RouteRecord } from './types.js';

/** A matched route and its parameter values, decided at build time for a static path. */
export interface PlannedHit {
  route: number;
  params: (string | undefined)[];
}

/**
 * How the generated matcher finds routes. A static path is answered by a decision tree of
 * lengths and characters ending in one string comparison, its answer per verb decided at
 * build time (every route matching that path was tried, in order), unless a host-restricted
 * route could also match it. Other paths go to the routes whose literal prefix starts with
 * their second character, tried in registration order.
 */
export interface MatcherPlan {
  /** Static path → verb → hit; `'*'` for routes accepting every verb. */
  statics: Map<string, Map<string, PlannedHit>>;
  /** Char code of the path's second character → the routes tried for it (plus `wild`), in order. */
  buckets: Map<number, number[]>;
  /** Routes with no literal prefix to sort by, tried for every path. */
  wild: number[];
}

/** Plans the matcher for `routes` (registration order is the priority). */
export function planMatcher(routes: readonly RouteRecord[]): MatcherPlan {
  const regexes = routes.map(pathRegex);
  const own = new Map<number, number[]>();
  const wild: number[] = [];
  const add = (code: number, i: number) => own.set(code, [...(own.get(code) ?? []), i]);
  for (const route of routes) {
    if (isStaticPath(route)) continue;
    const prefix = literalPrefix(route);
    if (prefix.length < 2) wild.push(route.index);
    else add(prefix.charCodeAt(1), route.index);
  }
  const statics = new Map<string, Map<string, PlannedHit>>();
  const demoted = new Set<string>();
  for (const route of routes) {
    if (!isStaticPath(route) || statics.has(route.url) || demoted.has(route.url)) continue;
    const path = route.url;
    const sameUrl = routes.filter((r) => isStaticPath(r) && r.url === path).map((r) => r.index);
    const candidates = merge(sameUrl, merge(own.get(path.charCodeAt(1)) ?? [], wild)).filter((i) =>
      regexes[i]!.test(path),
    );
    if (candidates.some((i) => routes[i]!.domain)) {
      // The answer depends on the host: these routes are tried in order like dynamic ones.
      demoted.add(path);
      for (const i of sameUrl) {
        if (path.length < 2) wild.push(i);
        else add(path.charCodeAt(1), i);
      }
    } else {
      statics.set(path, resolveVerbs(candidates, routes, regexes, path));
    }
  }
  const buckets = new Map<number, number[]>();
  for (const [code, list] of own) buckets.set(code, merge(list, wild));
  return { statics, buckets, wild: merge(wild, []) };
}

/** Does `verb` reach the route? (`GET` routes answer `HEAD`.) */
export function accepts(route: RouteRecord, verb: string): boolean {
  return (
    route.verbs.includes('*') ||
    route.verbs.includes(verb) ||
    (verb === 'HEAD' && route.verbs.includes('GET'))
  );
}

/** A route whose path test is one fixed string (no parameters, no `setMatch`). */
export function isStaticPath(route: RouteRecord): boolean {
  return route.params.length === 0 && route.match === undefined;
}

/** The regex that decides whether the route's path matches. */
export function pathRegex(route: RouteRecord): RegExp {
  return route.match ? new RegExp(route.match.source, route.match.flags) : new RegExp(route.regex);
}

/** The literal text every path the route matches starts with (`/user/{id}` → `/user`). */
export function literalPrefix(route: RouteRecord): string {
  if (route.match) return '';
  const head = route.tokens[0];
  return head?.kind === 'literal' ? head.text : route.tokens.length === 0 ? '/' : '';
}

// --- internal ---

function merge(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function resolveVerbs(
  candidates: number[],
  routes: readonly RouteRecord[],
  regexes: RegExp[],
  path: string,
): Map<string, PlannedHit> {
  const verbs = new Set<string>();
  for (const i of candidates) {
    for (const verb of routes[i]!.verbs) verbs.add(verb);
    if (routes[i]!.verbs.includes('GET')) verbs.add('HEAD');
  }
  const entry = new Map<string, PlannedHit>();
  for (const verb of [...verbs].sort()) {
    const i = candidates.find((c) => accepts(routes[c]!, verb));
    if (i !== undefined)
      entry.set(verb, { route: i, params: paramsAt(routes[i]!, regexes[i]!, path) });
  }
  return entry;
}

/** Parameter values of a route at a static path: URL parameters, then `setMatch` captures. */
function paramsAt(route: RouteRecord, regex: RegExp, path: string): (string | undefined)[] {
  const url = new RegExp(route.regex).exec(path);
  const values = route.params.map((_, k) => url?.[k + 1]);
  if (route.match) {
    const m = regex.exec(path)!;
    for (let k = 1; k <= route.match.captures; k++) values.push(m[k]);
  }
  return values;
}
