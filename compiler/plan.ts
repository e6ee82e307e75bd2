import type { RouteRecord } from './types.js';

/** A matched route and its parameter values, decided at build time for a static path. */
export interface PlannedHit {
  route: number;
  params: (string | undefined)[];
}

/**
 * How the generated matcher finds routes. A static path is answered from one lookup whose
 * entry was fully decided at build time (every route matching that path was tried, in
 * order, per verb), unless a host-restricted route could also match it. Other paths go to
 * the routes of their first segment, tried in registration order.
 */
export interface MatcherPlan {
  /** Static path → verb → hit; `'*'` for routes accepting every verb. */
  statics: Map<string, Map<string, PlannedHit>>;
  /** First path segment → the routes tried for it (its own, plus `wild`), in order. */
  buckets: Map<string, number[]>;
  /** Routes whose first segment is not a literal, tried for every path. */
  wild: number[];
}

/** Plans the matcher for `routes` (registration order is the priority). */
export function planMatcher(routes: readonly RouteRecord[]): MatcherPlan {
  const regexes = routes.map(pathRegex);
  const own = new Map<string, number[]>();
  const wild: number[] = [];
  const add = (segment: string, i: number) => own.set(segment, [...(own.get(segment) ?? []), i]);
  for (const route of routes) {
    if (isStaticPath(route)) continue;
    const first = firstLiteralSegment(route);
    if (first === undefined) wild.push(route.index);
    else add(first, route.index);
  }
  const statics = new Map<string, Map<string, PlannedHit>>();
  const demoted = new Set<string>();
  for (const route of routes) {
    if (!isStaticPath(route) || statics.has(route.url) || demoted.has(route.url)) continue;
    const path = route.url;
    const segment = firstSegment(path);
    const sameUrl = routes.filter((r) => isStaticPath(r) && r.url === path).map((r) => r.index);
    const candidates = merge(sameUrl, merge(own.get(segment) ?? [], wild)).filter((i) =>
      regexes[i]!.test(path),
    );
    if (candidates.some((i) => routes[i]!.domain)) {
      // The answer depends on the host: these routes are tried in order like dynamic ones.
      demoted.add(path);
      for (const i of sameUrl) add(segment, i);
    } else {
      statics.set(path, resolveVerbs(candidates, routes, regexes, path));
    }
  }
  const buckets = new Map<string, number[]>();
  for (const [segment, list] of own) buckets.set(segment, merge(list, wild));
  return { statics, buckets, wild };
}

/** The first segment of a normalised path (`/user/5` → `user`). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
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

// --- internal ---

/** The first segment when it is a plain literal (`/user/{id}` → `user`; `/file-{id}` → none). */
function firstLiteralSegment(route: RouteRecord): string | undefined {
  if (route.match) return undefined;
  const [head, next] = route.tokens;
  if (!head) return '';
  if (head.kind !== 'literal') return undefined;
  const slash = head.text.indexOf('/', 1);
  if (slash !== -1) return head.text.slice(1, slash);
  if (!next || (next.kind === 'param' && next.separator === '/')) return head.text.slice(1);
  return undefined;
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
  const url = new RegExp(route.regex).exec(path);
  const values = route.params.map((_, k) => url?.[k + 1]);
  if (route.match) {
    const m = regex.exec(path)!;
    for (let k = 1; k <= route.match.captures; k++) values.push(m[k]);
  }
  return values;
}
