import { formatLocation, type Diagnostics } from './errors.js';
import type { RouteDraft } from './normalize.js';
import { accepts, isStaticPath, pathRegex } from './plan.js';
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
 * Checks on the resolved table: two routes with the same verb, pattern and domain are an
 * error naming both; a route an earlier one always wins over is a warning.
 */
export function validateRoutes(
  routes: readonly RouteRecord[],
  root: string,
  diagnostics: Diagnostics,
): void {
  const seen = new Map<string, RouteRecord[]>();
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
      warnShadowed(route, routes, root, diagnostics);
    }
    seen.set(key, [...earlier, route]);
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
): void {
  const sample = isStaticPath(route) ? route.url : undefined;
  for (const earlier of routes.slice(0, route.index)) {
    if ((earlier.domain?.pattern ?? '') !== (route.domain?.pattern ?? '') && earlier.domain)
      continue;
    if (!route.verbs.every((v) => accepts(earlier, v)) && !earlier.verbs.includes('*')) continue;
    const covers =
      sample !== undefined
        ? pathRegex(earlier).test(sample)
        : earlier.regex === route.regex && !earlier.match && !route.match;
    if (!covers) continue;
    diagnostics.warn(
      'E_DUPLICATE_ROUTE',
      `${route.verbs.join('|')} ${route.url} can never match: ${earlier.verbs.join('|')} ${earlier.url} at ${formatLocation(earlier.source, root)} is registered first and matches the same requests`,
      route.source,
      'register the more specific route first',
    );
    return;
  }
}
