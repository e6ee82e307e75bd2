import type { CompiledApp, PatternToken, RouteRecord } from '../types.js';
import { code, type Chunk } from './_chunk.js';
import { key, str } from './_print.js';

/**
 * URL templates by route name and by `'Class@method'` (the first route wins), and the
 * interfaces that type `url()`: `AppRouteParams` (the names and their parameters) and
 * `AppUrlArgs` (the arguments after each name, behind an index signature; see `RouteArgs`).
 */
export function emitNames(app: CompiledApp): Chunk[] {
  const named = [...namedRoutes(app.routes)];
  const names = Object.fromEntries(named.map(([name, route]) => [name, template(route.tokens)]));
  const hosts = Object.fromEntries(
    named
      .filter(([, route]) => route.domain)
      .map(([name, route]) => [name, template(route.domain!.tokens)]),
  );
  return [
    code(`const names = templates(${str(JSON.stringify(names))});
const hosts = templates(${str(JSON.stringify(hosts))});`),
    {
      kind: 'list',
      open: '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {',
      close: '}',
      empty:
        '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {}',
      terminator: ';',
      entries: named.map(([name, route]) => ({ text: `  ${key(name)}: ${paramsType(route)}` })),
    },
    {
      kind: 'list',
      open: '/** The arguments after each route name, for `url()`. */\nexport interface AppUrlArgs {\n  [name: string]: AnyUrlArgs;',
      close: '}',
      empty:
        '/** The arguments after each route name, for `url()`. */\nexport interface AppUrlArgs {\n  [name: string]: AnyUrlArgs;\n}',
      terminator: ';',
      entries: named.map(([name, route]) => ({ text: `  ${key(name)}: ${argsType(route)}` })),
    },
    code(`declare module 'course-router' {
  interface RouteParams extends AppRouteParams {}
  interface RouteArgs extends AppUrlArgs {}
}`),
  ];
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

/** A URL template as \`url()\` reads it (runtime \`UrlPart\`). */
function template(tokens: readonly PatternToken[]): (string | [string, 0 | 1, string])[] {
  return tokens.map((token) =>
    token.kind === 'literal' ? token.text : [token.name, token.optional ? 1 : 0, token.separator],
  );
}

function routeParams(route: RouteRecord) {
  return [...(route.domain?.params ?? []), ...route.params];
}

function paramsType(route: RouteRecord): string {
  const params = routeParams(route);
  if (params.length === 0) return '{}';
  const fields = params.map((p) => `${key(p.name)}${p.optional ? '?' : ''}: ParamValue`);
  return `{ ${fields.join('; ')} }`;
}

/** The `url()` arguments after the name: the parameters are required when one of them is. */
function argsType(route: RouteRecord): string {
  const params = paramsType(route);
  return routeParams(route).some((p) => !p.optional)
    ? `[params: ${params} | readonly ParamValue[], query?: Query]`
    : `[params?: ${params} | readonly ParamValue[] | null, query?: Query]`;
}
