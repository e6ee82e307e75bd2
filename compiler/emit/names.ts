import type { CompiledApp, PatternToken, RouteRecord } from '../types.js';

/**
 * URL templates by route name and by `'Class@method'` (the first route wins), and the
 * `RouteParams` interface that types `url()`: one property per name, so tsc checks a call
 * with one lookup however many routes the app has.
 */
export function emitNames(app: CompiledApp): string {
  const named = namedRoutes(app.routes);
  const templates = [...named].map(
    ([name, route]) => `${JSON.stringify(name)}: ${JSON.stringify(urlParts(route.tokens))},`,
  );
  const params = [...named].map(
    ([name, route]) => `${JSON.stringify(name)}: ${paramsType(route)};`,
  );
  return `const names: Record<string, readonly UrlPart[]> = {
  __proto__: null,
${templates.join('\n')}
} as never;

/** Route names and their parameters, for \`url()\`. */
export interface AppRouteParams {
${params.join('\n')}
}

declare module 'course-router' {
  interface RouteParams extends AppRouteParams {}
}`;
}

/** Names a route can be found by, first registration first. */
export function namedRoutes(routes: readonly RouteRecord[]): Map<string, RouteRecord> {
  const named = new Map<string, RouteRecord>();
  for (const route of routes) {
    if (route.name !== undefined && !named.has(route.name)) named.set(route.name, route);
  }
  for (const route of routes) {
    if (route.handler.kind === 'method' && !named.has(route.handlerLabel))
      named.set(route.handlerLabel, route);
  }
  return named;
}

// --- internal ---

type Part = string | [string, 0 | 1, string];

function urlParts(tokens: readonly PatternToken[]): Part[] {
  return tokens.map((t) =>
    t.kind === 'literal' ? t.text : [t.name, t.optional ? 1 : 0, t.separator],
  );
}

function paramsType(route: RouteRecord): string {
  const fields = route.params.map(
    (p) => `${JSON.stringify(p.name)}${p.optional ? '?' : ''}: ParamValue`,
  );
  return `{ ${fields.join('; ')} }`;
}
