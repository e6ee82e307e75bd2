import { ROUTE_FLAGS } from './pattern.js';
import type { RouteRecord } from './types.js';

/** A matched route and its parameter values, decided at build time for a static path. */
export interface PlannedHit {
  route: number;
  params: (string | undefined)[];
}

/**
 * How the generated matcher finds routes. A static path is answered by one lookup whose
 * answer per verb was decided at build time (every route matching that path was tried, in
 * order), unless a host-restricted route could also match it. The other routes are walked
 * at run time, in registration order, through the segment tree built from them.
 */
export interface MatcherPlan {
  /** Static path → verb → hit; `'*'` for routes accepting every verb. */
  statics: Map<string, Map<string, PlannedHit>>;
  /** The routes tried at run time, in registration order. */
  dynamic: number[];
}

/** Plans the matcher for `routes` (registration order is the priority). */
export function planMatcher(routes: readonly RouteRecord[]): MatcherPlan {
  const regexes = routes.map(pathRegex);
  const dynamic: number[] = [];
  // Dynamic routes by the first path segment they fix, so a static path is tried only against
  // routes that can match it (the rest: `loose`, tried against every static path).
  const bySegment = new Map<string, number[]>();
  const loose: number[] = [];
  const sameUrl = new Map<string, number[]>();
  for (const route of routes) {
    if (isStaticPath(route)) {
      const list = sameUrl.get(route.url);
      if (list) list.push(route.index);
      else sameUrl.set(route.url, [route.index]);
      continue;
    }
    dynamic.push(route.index);
    const segment = firstFixedSegment(route);
    if (segment === undefined) loose.push(route.index);
    else if (bySegment.has(segment)) bySegment.get(segment)!.push(route.index);
    else bySegment.set(segment, [route.index]);
  }
  const statics = new Map<string, Map<string, PlannedHit>>();
  for (const [path, same] of sameUrl) {
    const segment = path.slice(1).split('/')[0]!;
    const candidates = merge(same, merge(bySegment.get(segment) ?? [], loose)).filter((i) =>
      regexes[i]!.test(path),
    );
    // When the answer depends on the host, these routes are walked like dynamic ones.
    if (candidates.some((i) => routes[i]!.domain)) dynamic.push(...same);
    else statics.set(path, resolveVerbs(candidates, routes, regexes, path));
  }
  return { statics, dynamic: dynamic.sort((x, y) => x - y) };
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
  return route.match
    ? new RegExp(route.match.source, route.match.flags)
    : new RegExp(route.regex, ROUTE_FLAGS);
}

/** The literal text every path the route matches starts with (`/user/{id}` → `/user`). */
export function literalPrefix(route: RouteRecord): string {
  if (route.match) return '';
  const head = route.tokens[0];
  return head?.kind === 'literal' ? head.text : route.tokens.length === 0 ? '/' : '';
}

// --- internal ---

/** The first path segment every match of the route has, when the route fixes it. */
function firstFixedSegment(route: RouteRecord): string | undefined {
  if (route.match) return undefined;
  const [head, next] = route.tokens;
  if (!head || head.kind !== 'literal') return undefined;
  const slash = head.text.indexOf('/', 1);
  if (slash !== -1) return head.text.slice(1, slash);
  return next === undefined || (next.kind === 'param' && next.separator === '/')
    ? head.text.slice(1)
    : undefined;
}

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
  const url = new RegExp(route.regex, ROUTE_FLAGS).exec(path);
  const values = route.params.map((_, k) => url?.[k + 1]);
  if (route.match) {
    const m = regex.exec(path)!;
    for (let k = 1; k <= route.match.captures; k++) values.push(m[k]);
  }
  return values;
}
