import type { GroupAttributes, Recording, RouteSettings, SourceLocation } from 'course-router';
import { formatLocation, type Diagnostics } from './errors.js';
import { suggestion } from 'course-router/internal';
import type { RouteDraft } from './normalize.js';
import { accepts, isStaticPath, literalPrefix, pathRegex } from './plan.js';
import type { RouteRecord } from './types.js';

const VERB = /^[A-Z]+$/;

/** Checks across routes: unique names, sane verbs. */
export function validateDrafts(
  drafts: readonly RouteDraft[],
  root: string,
  diagnostics: Diagnostics,
): void {
  const names = new Map<string, RouteDraft>();
  for (const draft of drafts) {
    for (const verb of draft.verbs) {
      if (verb !== '*' && !VERB.test(verb)) {
        diagnostics.error(
          'E_SETTING',
          `invalid verb ${JSON.stringify(verb)}`,
          draft.definition.loc,
          "verbs are words like 'get' or 'post'",
        );
      }
    }
    const name = draft.name;
    if (!name) continue;
    if (name.value === '' || name.value === '__proto__') {
      diagnostics.error('E_SETTING', `invalid route name ${JSON.stringify(name.value)}`, name.loc);
      continue;
    }
    const first = names.get(name.value);
    if (first) {
      diagnostics.error(
        'E_DUPLICATE_NAME',
        `the route name "${name.value}" is already used at ${formatLocation(first.name!.loc, root)}`,
        name.loc,
        'give each route its own name',
      );
    } else {
      names.set(name.value, draft);
    }
  }
}

/**
 * Group attributes and route settings Course does not know are an error: they would be
 * ignored, and a misspelt `middleware` would leave the group's routes unguarded.
 */
export function validateAttributes(recording: Recording, diagnostics: Diagnostics): void {
  for (const group of recording.groups)
    unknownKeys(group.attributes, GROUP_KEYS, 'group attribute', group.loc, diagnostics);
  for (const route of recording.routes)
    unknownKeys(route.settings, ROUTE_KEYS, 'route setting', route.loc, diagnostics);
}

/**
 * Checks on the resolved table: two routes with the same verb, pattern and domain are an
 * error naming both; a route an earlier one always wins over is a warning.
 */
export function validateRoutes(
  routes: readonly RouteRecord[],
  root: string,
  diagnostics: Diagnostics,
): void {
  const seen = new Map<string, RouteRecord[]>();
  const index = new ShadowIndex(routes);
  for (const route of routes) {
    const key = `${route.domain?.pattern ?? ''}\0${route.url}\0${route.match ? `${route.match.source}/${route.match.flags}` : ''}`;
    const earlier = seen.get(key) ?? [];
    const twin = earlier.find((e) => sharesVerb(e, route));
    if (twin) {
      diagnostics.error(
        'E_DUPLICATE_ROUTE',
        `${route.verbs.join('|')} ${route.url} is already registered at ${formatLocation(twin.source, root)}`,
        route.source,
        'remove one, or give them different verbs or domains',
      );
    } else {
      warnShadowed(route, routes, root, diagnostics, index);
    }
    earlier.push(route);
    seen.set(key, earlier);
  }
}

// --- internal ---

function sharesVerb(a: RouteRecord, b: RouteRecord): boolean {
  return a.verbs.includes('*') || b.verbs.includes('*') || a.verbs.some((v) => b.verbs.includes(v));
}

/** A route whose every request an earlier route (same host rule, all its verbs) takes first. */
function warnShadowed(
  route: RouteRecord,
  routes: readonly RouteRecord[],
  root: string,
  diagnostics: Diagnostics,
  index: ShadowIndex,
): void {
  const sample = isStaticPath(route) ? route.url : undefined;
  const earlier =
    sample !== undefined ? index.candidates(sample, route.index) : index.sameRegex(route);
  for (const i of earlier) {
    const other = routes[i]!;
    if (other.domain && other.domain.pattern !== route.domain?.pattern) continue;
    if (!route.verbs.every((v) => accepts(other, v))) continue;
    if (sample !== undefined ? !index.regex(i).test(sample) : other.match || route.match) continue;
    diagnostics.warn(
      'E_DUPLICATE_ROUTE',
      `${route.verbs.join('|')} ${route.url} can never match: ${other.verbs.join('|')} ${other.url} at ${formatLocation(other.source, root)} is registered first and matches the same requests`,
      route.source,
      'register the more specific route first',
    );
    return;
  }
}

/**
 * Finds the earlier routes worth testing against a route, without comparing every pair: those
 * whose literal prefix starts the static path, and those with the very same regex.
 */
class ShadowIndex {
  readonly #regexes: (RegExp | undefined)[] = [];
  readonly #byRegex = new Map<string, number[]>();
  /** Routes by literal prefix, each list in registration order. */
  readonly #byPrefix = new Map<string, number[]>();
  /** The lengths of those prefixes, shortest first. */
  readonly #lengths: number[];

  constructor(private readonly routes: readonly RouteRecord[]) {
    for (const r of routes) {
      push(this.#byRegex, r.regex, r.index);
      push(this.#byPrefix, literalPrefix(r), r.index);
    }
    this.#lengths = [...new Set([...this.#byPrefix.keys()].map((p) => p.length))].sort(
      (a, b) => a - b,
    );
  }

  regex(i: number): RegExp {
    return (this.#regexes[i] ??= pathRegex(this.routes[i]!));
  }

  /** The routes registered before `before` whose literal prefix starts `path`, in order. */
  candidates(path: string, before: number): number[] {
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

  sameRegex(route: RouteRecord): number[] {
    return (this.#byRegex.get(route.regex) ?? []).filter((i) => i < route.index);
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const GROUP_KEYS: readonly string[] = Object.keys({
  prefix: 0,
  middleware: 0,
  namespace: 0,
  domain: 0,
  defaultParameterRegex: 0,
  as: 0,
  where: 0,
  exceptionHandler: 0,
} satisfies Record<keyof GroupAttributes, 0>);

const ROUTE_KEYS: readonly string[] = Object.keys({
  unsafeRegex: 0,
  defaultParameterRegex: 0,
  where: 0,
  as: 0,
  middleware: 0,
  namespace: 0,
  prefix: 0,
} satisfies Record<keyof RouteSettings, 0>);

function unknownKeys(
  value: object,
  known: readonly string[],
  what: string,
  loc: SourceLocation,
  diagnostics: Diagnostics,
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    diagnostics.error(
      'E_SETTING',
      `unknown ${what} ${JSON.stringify(key)}`,
      loc,
      suggestion(key, known, `${what}s`),
    );
  }
}
