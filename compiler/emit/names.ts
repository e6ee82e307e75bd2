import type { CompiledApp, PatternToken, RouteRecord } from '../types.js';
import { code, type Chunk, type ListEntry } from './_chunk.js';
import { key, str } from './_print.js';

/**
 * URL templates by route name and by `'Class@method'` (the first route wins), and the
 * `RouteParams` interface that types `url()`: one property per name, so tsc checks a call
 * with one lookup however many routes the app has.
 */
export function emitNames(app: CompiledApp): Chunk[] {
  const named = [...namedRoutes(app.routes)];
  return [
    {
      kind: 'list',
      open: 'const names: Record<string, readonly UrlPart[]> = {\n  __proto__: null,',
      close: '} as never;',
      empty: 'const names: Record<string, readonly UrlPart[]> = {\n  __proto__: null,\n} as never;',
      entries: named.map(([name, route]) => templateEntry(name, route)),
    },
    {
      kind: 'list',
      open: 'const hosts: Record<string, readonly UrlPart[]> = {\n  __proto__: null,',
      close: '} as never;',
      empty: 'const hosts: Record<string, readonly UrlPart[]> = {\n  __proto__: null,\n} as never;',
      entries: named
        .filter(([, route]) => route.domain)
        .map(([name, route]) => ({
          text: `  ${key(name)}: [${route.domain!.tokens.map(urlPart).join(', ')}]`,
        })),
    },
    {
      kind: 'list',
      open: '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {',
      close: '}',
      empty:
        '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {}',
      terminator: ';',
      entries: named.map(([name, route]) => ({ text: `  ${key(name)}: ${paramsType(route)}` })),
    },
    code(`declare module 'course-router' {
  interface RouteParams extends AppRouteParams {}
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

function templateEntry(name: string, route: RouteRecord): ListEntry {
  const parts = route.tokens.map(urlPart);
  // Prettier breaks an array made only of two or more multi-element arrays, one per line.
  const loose = parts.length > 1 && route.tokens.every((t) => t.kind === 'param');
  return { text: `  ${key(name)}: [${parts.join(', ')}]`, loose };
}

function urlPart(token: PatternToken): string {
  return token.kind === 'literal'
    ? str(token.text)
    : `[${str(token.name)}, ${token.optional ? 1 : 0}, ${str(token.separator)}]`;
}

function paramsType(route: RouteRecord): string {
  const params = [...(route.domain?.params ?? []), ...route.params];
  if (params.length === 0) return '{}';
  const fields = params.map((p) => `${key(p.name)}${p.optional ? '?' : ''}: ParamValue`);
  return `{ ${fields.join('; ')} }`;
}
