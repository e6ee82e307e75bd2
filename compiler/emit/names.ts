import path from 'node:path';
import type { CompiledApp, ParamSpec, PatternToken, RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { key, rowsCall, str } from './_print.js';

/**
 * URL templates by route name and by `'Class@method'` (the first route wins), and the
 * interfaces that type `url()`: `AppRouteParams` (the names and their parameters),
 * `AppUrlParams` (what `url(name, params)` accepts, behind an index signature; see
 * `RouteUrlParams`) and `AppRoutesWithoutParams` (the names `url(name)` accepts alone).
 */
export function emitNames(app: CompiledApp): Chunk[] {
  const named = [...namedRoutes(app.routes)];
  const names = named.map(([name, route]) => JSON.stringify([name, template(route.tokens)]));
  const hosts = named
    .filter(([, route]) => route.domain)
    .map(([name, route]) => JSON.stringify([name, template(route.domain!.tokens, true)]));
  return [
    printed(`/**
 * URL templates by route name and by \`'Class@method'\`, one per line: literals, and
 * parameters as \`[name, optional, separator, regex, caseless?]\`.
 */
const names = ${rowsCall('templates', [], names)};
const hosts = ${rowsCall('templates', [], hosts)};`),
    {
      kind: 'list',
      open: '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {',
      close: '}',
      empty:
        '/** Route names and their parameters, for `url()`. */\nexport interface AppRouteParams {}',
      terminator: ';',
      entries: named.map(([name, route]) => ({
        text: `  ${describe(route, app.root)}\n  ${key(name)}: ${paramsType(route)}`,
      })),
    },
    {
      kind: 'list',
      open: '/** What the handler of each named route receives, in order: domain, URL, then setMatch() captures. */\nexport interface AppHandlerParams {',
      close: '}',
      empty:
        '/** What the handler of each named route receives, in order: domain, URL, then setMatch() captures. */\nexport interface AppHandlerParams {}',
      terminator: ';',
      entries: named.map(([name, route]) => ({
        text: `  ${key(name)}: ${receives(app.routes, name, route)}`,
      })),
    },
    printed(`/** The arguments the handler of the route named \`N\` receives: \`RouteParams<'user.show'>\`. */
export type RouteParams<N extends keyof AppHandlerParams> = AppHandlerParams[N];`),
    {
      kind: 'list',
      open: '/** What `url(name, params)` accepts for each route name. */\nexport interface AppUrlParams {\n  [name: string]: AnyUrlParams;',
      close: '}',
      empty:
        '/** What `url(name, params)` accepts for each route name. */\nexport interface AppUrlParams {\n  [name: string]: AnyUrlParams;\n}',
      terminator: ';',
      entries: named.map(([name, route]) => ({ text: `  ${key(name)}: ${urlParamsType(route)}` })),
    },
    {
      kind: 'list',
      open: '/** The routes `url(name)` accepts with no parameters. */\nexport interface AppRoutesWithoutParams {',
      close: '}',
      empty:
        '/** The routes `url(name)` accepts with no parameters. */\nexport interface AppRoutesWithoutParams {}',
      terminator: ';',
      entries: named
        .filter(([, route]) => urlParamNames(route).required.length === 0)
        .map(([name]) => ({ text: `  ${key(name)}: 0` })),
    },
    code(`declare module 'course-router' {
  interface RouteNames extends AppRouteParams {}
  interface RouteUrlParams extends AppUrlParams {}
  interface RoutesWithoutParams extends AppRoutesWithoutParams {}
  interface RouteHandlerParams extends AppHandlerParams {}
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
function template(
  tokens: readonly PatternToken[],
  host = false,
): (string | [string, 0 | 1, string, string, 1?])[] {
  return tokens.map((token) => {
    if (token.kind === 'literal') return token.text;
    const part: [string, 0 | 1, string, string, 1?] = [
      token.name,
      token.optional ? 1 : 0,
      token.separator,
      token.regex,
    ];
    // Hosts are matched case-insensitively (`HOST_FLAGS`).
    if (host || token.caseless) part.push(1);
    return part;
  });
}

function routeParams(route: RouteRecord) {
  return [...(route.domain?.params ?? []), ...route.params];
}

/**
 * The parameters `url()` must be given, in the order the placeholders take them (domain first),
 * and the optional ones after them. An optional parameter a required one follows counts as
 * required: `url()` refuses to leave out a placeholder before one it fills.
 */
function urlParamNames(route: RouteRecord): { required: string[]; optional: string[] } {
  const params = routeParams(route);
  const last = params.map((p) => p.optional).lastIndexOf(false);
  return {
    required: params.slice(0, last + 1).map((p) => p.name),
    optional: params.slice(last + 1).map((p) => p.name),
  };
}

/**
 * One line of JSDoc for a route name: its verbs, URL, handler and where it is defined, which an
 * editor shows for the name.
 */
function describe(route: RouteRecord, root: string): string {
  const verbs = route.verbs.includes('*') ? 'ANY' : route.verbs.join('|');
  const host = route.domain ? `//${route.domain.pattern}` : '';
  const file = path.relative(root, route.source.file).split(path.sep).join('/');
  const handler = route.handler.kind === 'closure' ? 'a closure' : route.handlerLabel;
  const text = `${verbs} ${host}${route.url || '/'} → ${handler} (${file}:${route.source.line})`;
  return `/** ${text.replaceAll('*/', '*\\/')} */`;
}

/**
 * What the handler of the route found by `name` receives: its tuple, or for a `'Class@method'`
 * that several routes call, any of theirs (`url()` builds the first one's URL).
 */
function receives(routes: readonly RouteRecord[], name: string, route: RouteRecord): string {
  if (route.handler.kind !== 'method' || name !== route.handlerLabel) return handlerTuple(route);
  const all = routes.filter((r) => r.handler.kind === 'method' && r.handlerLabel === name);
  return [...new Set(all.map(handlerTuple))].join(' | ');
}

/**
 * The tuple a route's handler receives: domain parameters, URL parameters (an optional one, or
 * any of a `setMatch()` route, may be `undefined`), then `setMatch` captures as `$1`, `$2`… (one
 * whose group may not take part may be `undefined` too)
 */
function handlerTuple(route: RouteRecord): string {
  // A `setMatch()` route's URL placeholders are filled only when its URL matches too.
  const params = routeParams(route).map(
    (p) =>
      `${p.name}: ${handlerType(p)}${p.optional || (route.match && route.params.includes(p)) ? ' | undefined' : ''}`,
  );
  for (let i = 1; i <= (route.match?.captures ?? 0); i++)
    params.push(`$${i}: string${route.match!.optional.includes(i) ? ' | undefined' : ''}`);
  return `[${params.join(', ')}]`;
}

function paramsType(route: RouteRecord): string {
  const params = routeParams(route);
  if (params.length === 0) return '{}';
  const fields = params.map(
    (p) => `${key(p.name)}${p.optional ? '?' : ''}: ${urlType(p) ?? 'ParamValue'}`,
  );
  return `{ ${fields.join('; ')} }`;
}

/**
 * What `url(name, params)` accepts for a route: `UrlParamsOf<required, optional>`, one type for
 * every route with the same parameters.
 */
function urlParamsType(route: RouteRecord): string {
  const union = (names: string[]) => (names.length === 0 ? 'never' : names.map(str).join(' | '));
  const { required, optional } = urlParamNames(route);
  // Several optional parameters in order: `url()` may leave out only the last ones.
  const optionals = optional.length > 1 ? `[${optional.map(str).join(', ')}]` : union(optional);
  const typed = routeParams(route).flatMap((p) => {
    const type = urlType(p);
    return type === undefined ? [] : [[p.name, type] as const];
  });
  if (typed.length > 0) {
    // The values by name, and the positions in order (`UrlPositions` only counts them).
    const types = new Map(typed);
    const byName = typed.map(([name, type]) => `${key(name)}: ${type}`).join('; ');
    const at = (name: string) => types.get(name) ?? 'ParamValue';
    const positions = [...required.map(at), ...optional.map((name) => `(${at(name)})?`)];
    return `UrlParamsOf<${union(required)}, ${optionals}, { ${byName} }, readonly [${positions.join(', ')}]>`;
  }
  return optional.length === 0
    ? `UrlParamsOf<${union(required)}>`
    : `UrlParamsOf<${union(required)}, ${optionals}>`;
}

/**
 * What a handler receives for a parameter: one of the values its `where()` writes out, a numeral
 * when it matches digits alone, or a string.
 */
function handlerType(param: ParamSpec): string {
  return param.values?.map(str).join(' | ') ?? (param.digits ? '`${number}`' : 'string');
}

/**
 * What `url()` takes for a parameter whose values are written out: each but `''`, and the number
 * or boolean written as it (`1` for `'1'`); `undefined` for any value.
 */
function urlType(param: ParamSpec): string | undefined {
  // An empty value fills no placeholder: `url()` refuses it.
  const values = param.values?.filter((value) => value !== '');
  if (values === undefined || values.length === 0) return undefined;
  return values
    .flatMap((value) => {
      const alike = value === 'true' || value === 'false' || String(Number(value)) === value;
      return alike ? [str(value), value] : [str(value)];
    })
    .join(' | ');
}
