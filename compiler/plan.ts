import type { RouteRecord } from './types.js';

/** A matched route and its parameter values, decided at build time for a static path. */
export interface PlannedHit {
  route: number;
  params: (string | undefined)[];
}

/**
 * How the generated matcher finds routes. Static paths are answered from one lookup whose
 * entries are fully decided at build time (every route matching that path was tried, in
 * order, per verb). Other paths go to the routes of their first segment, tried in order.
 */
export interface MatcherPlan {
  /** Static path → verb → hit; `'*'` for routes accepting every verb. */
  statics: Map<string, Map<string, PlannedHit>>;
  /** First path segment → dynamic routes whose first segment is that literal, plus `wild`. */
  buckets: Map<string, number[]>;
  /** Dynamic routes whose first segment is not a literal, tried for every path. */
  wild: number[];
}

/** Plans the matcher for `routes` (registration order is the priority). */
export function planMatcher(routes: readonly RouteRecord[]): MatcherPlan {
  const own = new Map<string, number[]>();
  const wild: number[] = [];
  const regexes = routes.map((r) => new RegExp(r.regex));
  for (const route of routes) {
    if (route.params.length === 0) continue;
    const first = firstLiteralSegment(route);
    if (first === undefined) wild.push(route.index);
    else own.set(first, [...(own.get(first) ?? []), route.index]);
  }
  const buckets = new Map<string, number[]>();
  for (const [segment, list] of own) buckets.set(segment, merge(list, wild));
  const statics = new Map<string, Map<string, PlannedHit>>();
  for (const route of routes) {
    if (route.params.length > 0 || statics.has(route.url)) continue;
    const path = route.url;
    const candidates = merge(
      routes.filter((r) => r.params.length === 0 && r.url === path).map((r) => r.index),
      buckets.get(firstSegment(path)) ?? wild,
    ).filter((i) => regexes[i]!.test(path));
    statics.set(path, resolveVerbs(candidates, routes, regexes, path));
  }
  return { statics, buckets, wild };
}

/** The first segment of a normalised path (`/user/5` → `user`). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** The verb checks of a route: does `verb` reach it? (`GET` routes answer `HEAD`.) */
export function accepts(route: RouteRecord, verb: string): boolean {
  return (
    route.verbs.includes('*') ||
    route.verbs.includes(verb) ||
    (verb === 'HEAD' && route.verbs.includes('GET'))
  );
}

// --- internal ---

/** The first segment when it is a plain literal (`/user/{id}` → `user`; `/file-{id}` → none). */
function firstLiteralSegment(route: RouteRecord): string | undefined {
  const [head, next] = route.tokens;
  if (!head || head.kind !== 'literal') return undefined;
  const slash = head.text.indexOf('/', 1);
  if (slash !== -1) return head.text.slice(1, slash);
  if (next && next.kind === 'param' && next.separator === '/') return head.text.slice(1);
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
    if (i === undefined) continue;
    const m = regexes[i]!.exec(path)!;
    entry.set(verb, { route: i, params: routes[i]!.params.map((_, k) => m[k + 1]) });
  }
  return entry;
}
