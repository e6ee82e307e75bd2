import { formatLocation, type Diagnostics } from './errors.js';
import { accepts, isStaticPath, literalPrefix, pathRegex } from './plan.js';
import type { RouteRecord } from './types.js';

/**
 * Routes whose verbs earlier routes take (CONTRACT 5.1), the one rule: the first registered route
 * that matches a request and its verb wins, so a later route only gets the verbs the earlier ones
 * leave. A route whose every verb is taken by earlier routes with the same pattern and domain is
 * an error; a route some of whose verbs are taken, or every verb by earlier routes matching more
 * requests than it does, is a warning. Each names the earlier routes and the verbs they take.
 */
export function validateShadowing(
  routes: readonly RouteRecord[],
  root: string,
  diagnostics: Diagnostics,
): void {
  const index = new ShadowIndex(routes);
  for (const route of routes) {
    const earlier = index.covering(route);
    if (earlier.length === 0) continue;
    const twins = share(
      route,
      earlier.filter((e) => e.same),
    );
    if (twins.full) {
      diagnostics.error(
        'E_DUPLICATE_ROUTE',
        `${describe(route)} can never be reached: ${SAME}, ${takers(twins.takers, route, root)}`,
        route.source,
        'remove it, or give it verbs, a pattern or a domain the earlier routes do not take',
      );
      continue;
    }
    const shared = share(route, earlier);
    if (shared.takers.length === 0) continue;
    const how = shared.takers.every((t) => t.same) ? SAME : COVERING;
    diagnostics.warn(
      'E_DUPLICATE_ROUTE',
      `${describe(route)} ${shared.full ? 'can never be reached' : 'gets only the verbs earlier routes leave'}: ${how}, ${takers(shared.takers, route, root)}`,
      route.source,
      (shared.full
        ? 'register the more specific route first'
        : 'register it first if it should answer those verbs too; otherwise leave them out of its verbs') +
        fileOrder(route, shared.takers),
    );
  }
}

// --- internal ---

/**
 * How files are read, when an earlier route comes from another file than `route`: a catch-all
 * in `routes.ts` is read before every file of `routers/`.
 */
function fileOrder(route: RouteRecord, takers: readonly Taker[]): string {
  if (takers.every((t) => t.route.source.file === route.source.file)) return '';
  return ' (routes.ts is read first, then the files of routers/ in name order: a catch-all goes in the routers/ file read last)';
}

const SAME = 'registered first with the same pattern and domain';
const COVERING = 'registered first and matching every request it matches';

/** An earlier route that matches every request a route matches; `same`: exactly those. */
interface Earlier {
  route: RouteRecord;
  same: boolean;
}

/** An earlier route and the verbs of a route it takes first. */
interface Taker extends Earlier {
  verbs: string[];
}

/**
 * The verbs of `route` that `earlier` (in registration order) take, and whether they take every
 * one. A `GET` route takes `HEAD` too; an `any()` route's verbs are never all taken but by
 * another `any()` route.
 */
function share(
  route: RouteRecord,
  earlier: readonly Earlier[],
): { takers: Taker[]; full: boolean } {
  const every = route.verbs.includes('*');
  const left = new Set(route.verbs);
  const out: Taker[] = [];
  for (const e of earlier) {
    const verbs = every
      ? offered(e.route).filter((v) => !out.some((t) => t.verbs.includes(v)))
      : [...left].filter((v) => accepts(e.route, v));
    if (verbs.length === 0) continue;
    for (const v of verbs) left.delete(v);
    out.push({ ...e, verbs });
    if (every ? verbs.includes('*') : left.size === 0) return { takers: out, full: true };
  }
  return { takers: out, full: false };
}

/** The verbs a route answers: its own, and `HEAD` for a `GET` route. */
function offered(route: RouteRecord): string[] {
  if (route.verbs.includes('*')) return ['*'];
  return route.verbs.includes('GET') && !route.verbs.includes('HEAD')
    ? [...route.verbs, 'HEAD']
    : route.verbs;
}

/** `GET /a/{id}`, `ANY //{account}.example.com/a`, `ANY /x setMatch(/x(.*)/i)`. */
function describe(route: RouteRecord): string {
  const verbs = route.verbs.includes('*') ? 'ANY' : route.verbs.join('|');
  const host = route.domain ? `//${route.domain.pattern}` : '';
  const match = route.match ? ` setMatch(/${route.match.source}/${route.match.flags})` : '';
  return `${verbs} ${host}${route.url}${match}`;
}

/** `GET /a/{x} at routes.ts:2:8 takes GET; …`, with the handler where both share a call. */
function takers(list: readonly Taker[], route: RouteRecord, root: string): string {
  return list
    .map((t) => {
      const at = formatLocation(t.route.source, root);
      const handler = at === formatLocation(route.source, root) ? ` (${t.route.handlerLabel})` : '';
      const verbs = t.verbs.includes('*')
        ? list.length > 1
          ? 'every other verb'
          : 'every verb'
        : t.verbs.join(', ');
      return `${describe(t.route)}${handler} at ${at} takes ${verbs}`;
    })
    .join('; ');
}

/**
 * Finds the earlier routes that match every request a route matches, without comparing every
 * pair. Provably so: a route whose path test is the same (same regex, or same `setMatch` regex)
 * on the same host rule or on every host, and for a static path, an earlier route whose regex
 * matches that path (found by literal prefix). Routes that differ only in parameter names have
 * the same regex.
 */
class ShadowIndex {
  readonly #regexes: (RegExp | undefined)[] = [];
  readonly #byTest = new Map<string, number[]>();
  /** Routes by literal prefix, each list in registration order. */
  readonly #byPrefix = new Map<string, number[]>();
  /** The lengths of those prefixes, shortest first. */
  readonly #lengths: number[];

  constructor(private readonly routes: readonly RouteRecord[]) {
    for (const r of routes) {
      push(this.#byTest, pathTest(r), r.index);
      push(this.#byPrefix, literalPrefix(r), r.index);
    }
    this.#lengths = [...new Set([...this.#byPrefix.keys()].map((p) => p.length))].sort(
      (a, b) => a - b,
    );
  }

  /** The earlier routes that match every request `route` matches, in registration order. */
  covering(route: RouteRecord): Earlier[] {
    const out: Earlier[] = [];
    const host = route.domain?.regex;
    const statik = isStaticPath(route);
    const candidates = statik
      ? this.#startingWith(route.url, route.index)
      : (this.#byTest.get(pathTest(route)) ?? []).filter((i) => i < route.index);
    for (const i of candidates) {
      const other = this.routes[i]!;
      const otherHost = other.domain?.regex;
      if (otherHost !== undefined && otherHost !== host) continue;
      const same = pathTest(other) === pathTest(route);
      if (statik && !same && !this.#regex(i).test(route.url)) continue;
      out.push({ route: other, same: same && otherHost === host });
    }
    return out;
  }

  #regex(i: number): RegExp {
    return (this.#regexes[i] ??= pathRegex(this.routes[i]!));
  }

  /** The routes registered before `before` whose literal prefix starts `path`, in order. */
  #startingWith(path: string, before: number): number[] {
    const out: number[] = [];
    for (const length of this.#lengths) {
      if (length > path.length) break;
      for (const i of this.#byPrefix.get(path.slice(0, length)) ?? []) {
        if (i >= before) break;
        out.push(i);
      }
    }
    return out.sort((a, b) => a - b);
  }
}

/** What decides whether a route's path matches: its regex, or its `setMatch` regex. */
function pathTest(route: RouteRecord): string {
  return route.match ? `match\0${route.match.source}\0${route.match.flags}` : route.regex;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
