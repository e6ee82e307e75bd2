import type qs from 'qs';
import { currentContext } from '../http/context.js';
import { cleanTarget } from '../http/path.js';
import type { RouteTable, UrlPart } from '../types.js';
import { parseLines } from './rows.js';
import { vendored } from '../packages.js';
import { nearest } from '../dsl/near.js';

/**
 * Route names and their parameters. The generated module augments this interface, so
 * `url('user.show', { id: 5 })` is checked by tsc against the app's routes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RouteNames {}

/**
 * What the handler of each named route receives; the generated module augments it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RouteHandlerParams {}

/**
 * The arguments the handler of the route named `N` receives, in order (domain parameters, URL
 * parameters, then `setMatch()` captures): `RouteParams<'user.show'>` is `[id: string]`.
 */
export type RouteParams<N extends keyof RouteHandlerParams> = RouteHandlerParams[N];

/** A value that can fill a placeholder. */
export type ParamValue = string | number | boolean | bigint;

/** A query value: a nested object or array is written PHP-style (`o[k]=v`, `a[0]=1`). */
export type QueryValue =
  ParamValue | null | undefined | readonly QueryValue[] | { readonly [key: string]: QueryValue };

/** Query parameters appended to a built URL; `null` and `undefined` ones are left out. */
export type Query = Readonly<Record<string, QueryValue>>;

/** A route name of the app. */
export type RouteName = keyof RouteNames;

/** What `url()` accepts as the parameters of a route, whichever route it names. */
export type AnyUrlParams = object | readonly ParamValue[] | null;

/**
 * The parameters `url(name, params)` accepts for a route with the required parameters `R` and
 * the optional ones `O`: an object of them (of none: `{}`), or their values in the order the
 * placeholders take them (`UrlPositions`), or `null` when none is required. The generated module
 * writes `UrlParamsOf<'id'>`, which tsc shows in its messages and builds once for every route
 * with the same parameters. Several optional parameters are written in order (`['type', 'size']`):
 * one may be given only with those before it, as a URL cannot leave out a placeholder before one
 * it fills. A parameter whose `where()` writes its values out (`en|fr`) takes only them: their
 * types by name are `T`, and the positions, in order, `A`.
 */
export type UrlParamsOf<
  R extends string,
  O extends string | readonly string[] = never,
  T = object,
  A extends readonly unknown[] = UrlPositions<R, NamesOf<O>>,
> =
  | ([R | NamesOf<O>] extends [never]
      ? { readonly [name: string]: never }
      : [O] extends [never]
        ? { [P in R]: ValueOf<T, P> }
        : [R] extends [never]
          ? OptionalParams<O, T>
          : { [P in R]: ValueOf<T, P> } & OptionalParams<O, T>)
  | A
  | ([R] extends [never] ? null : never);

/** What fills the placeholder `P`: its type in `T` (the values its `where()` writes out), else any. */
type ValueOf<T, P extends string> = P extends keyof T ? T[P] : ParamValue;

/** The names of `O`, a union or, for several, a tuple in order. */
type NamesOf<O extends string | readonly string[]> = O extends readonly string[] ? O[number] : O;

/**
 * The optional parameters `O` by name: one (a name), or several in order, each given only with
 * those before it.
 */
type OptionalParams<O extends string | readonly string[], T> = [O] extends [readonly string[]]
  ? GivenFirst<O, T>
  : { [P in O & string]?: ValueOf<T, P> };

/**
 * `Given` and none of the rest of `All`, or, for each next name of `O`, that one given too: the
 * objects `url()` can build a URL of (`{}`, `{ type }`, `{ type, size }`; not `{ size }`).
 */
type GivenFirst<
  O extends readonly string[],
  T,
  Given extends string = never,
  All extends string = O[number],
> =
  | ({ [P in Given]: ValueOf<T, P> } & { [P in Exclude<All, Given>]?: never })
  | (O extends readonly [infer Next extends string, ...infer Rest extends readonly string[]]
      ? GivenFirst<Rest, T, Given | Next, All>
      : never);

/**
 * The parameters after each route name; the generated module augments it. `url()` reaches it
 * through `K extends Names extends string`, with `Names` defaulting to the app's route names:
 * while tsc infers a call it sees `string` (one index signature) instead of the union of every
 * name and every route's parameters, then checks the inferred name against the names. A call
 * costs the same however many routes the app has.
 */
export interface RouteUrlParams {
  [name: string]: AnyUrlParams;
}

/**
 * The routes that need no parameter, as keys; the generated module augments it. `url(name)`
 * with a name alone is checked against them, without the parameters' types, so that the calls
 * apps make most cost tsc little more than an untyped `url()`. The name is a type parameter
 * bounded by `string` there too: a parameter typed as the union of names would have tsc scan
 * every name for each call while it types the argument.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RoutesWithoutParams {}

/**
 * The names `url(name, params)` takes: the keys of `Routes`, as a union (tsc's message for a name
 * that is not one lists them); for an app with no named route, a type whose name says so.
 */
export type UrlNames<Routes> = [keyof Routes] extends [never]
  ? string & NoNamedRoute
  : { [N in Extract<keyof Routes, string>]: N }[Extract<keyof Routes, string>];

/**
 * The names `url(name)` takes alone: the keys of `Alone`, the routes without required
 * parameters; when there are none, a type whose name says why (`Routes`: every named route).
 */
export type UrlNamesAlone<Alone, Routes> = [keyof Alone] extends [never]
  ? string & ([keyof Routes] extends [never] ? NoNamedRoute : EveryNamedRouteHasParameters)
  : UrlNames<Alone>;

/** What `url()` takes as a name in an app none of whose routes has a name (`.name()`, `'A@b'`). */
export interface NoNamedRoute {
  readonly 'no route of the app has a name': never;
}

/** What `url(name)` takes alone when every named route has parameters: `url(name, params)` then. */
export interface EveryNamedRouteHasParameters {
  readonly 'every named route has parameters: url(name, params)': never;
}

/** The parameters `url(name, params)` accepts for a route of the app. */
export type UrlParams<N extends RouteName> = RouteUrlParams[N];

/**
 * Builds the URL of a named route of `table`; throws naming what is unknown or missing. A route
 * of a domain group on another host than the current one comes back as `//host/path`.
 */
export function buildUrl(
  table: RouteTable,
  name: string,
  params?: Readonly<Record<string, unknown>> | readonly unknown[] | null,
  query?: Query,
): string {
  const parts = Object.hasOwn(table.names, name) ? table.names[name] : undefined;
  if (parts === undefined) throw new Error(noRoute(table, name));
  const hostParts = table.hosts && Object.hasOwn(table.hosts, name) ? table.hosts[name] : undefined;
  const route = () => [...(hostParts ?? []), ...parts];
  const fill = filler(name, params, route);
  const host = hostParts ? fill(hostParts) : undefined;
  const path = fill(parts) || '/';
  if (params) checkUnused(name, params, paramNames(table, name, parts, hostParts));
  // A parameter that is a whole segment `.` or `..` has no URL: every client resolves the
  // segment away, also written `%2E%2E` (WHATWG URL), and so does the router.
  if (DOT_SEGMENT.test(path))
    throw new Error(
      `course: url(${JSON.stringify(name)}) would build ${JSON.stringify(path)}, whose "." or ".." ` +
        'segment a client resolves away: such a parameter value has no URL',
    );
  const here = currentContext()?.request.getHost();
  return appendQuery(host !== undefined && host !== here ? `//${host}${path}` : path, query);
}

/**
 * The generated module's table, which `read` gives. A module it imports (a controller) runs
 * first, and one calling `url()` at its top level would meet the table before it exists: an
 * error that says so, rather than a `ReferenceError` from inside the generated module.
 */
export function loadedRoutes(read: () => RouteTable): RouteTable {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new Error(
      'course: url() was called before the routes were loaded, at the top level of a module the ' +
        'generated module imports (a controller, a middleware): call it inside a function',
      { cause: error },
    );
  }
}

/** The current request's path with its query string (`/` outside a request). */
export function currentUrl(): string {
  const target = currentContext()?.request.target;
  return target === undefined ? '/' : cleanTarget(target);
}

/** The table `url()` builds from: the one serving the request, else the last one loaded. */
export function activeTable(): RouteTable | undefined {
  return currentContext()?.table ?? (globalThis as Holder)[TABLE];
}

/** Makes `table` the one `url()` uses outside a request; the generated module calls it. */
export function registerTable(table: RouteTable): void {
  (globalThis as Holder)[TABLE] = table;
}

// --- internal ---

/**
 * The arrays that fill a route's placeholders by position: a value for each required parameter,
 * then for as many of the optional ones, which follow them, as wanted (the generated module counts
 * an optional parameter a required one follows as required: `url()` cannot leave it out). A
 * shorter array would leave a placeholder empty, a longer one a value unused.
 */
type UrlPositions<
  R extends string,
  O extends string,
  T extends readonly unknown[] = readonly [],
> = [R] extends [never]
  ? [O] extends [never]
    ? T
    : UrlPositions<never, Exclude<O, LastOf<O>>, readonly [...T, ParamValue?]>
  : UrlPositions<Exclude<R, LastOf<R>>, O, readonly [...T, ParamValue]>;

/** One member of the union `U` (which one is up to tsc): `UrlPositions` counts names with it. */
type LastOf<U> = (U extends unknown ? (member: () => U) => void : never) extends (
  member: infer I,
) => void
  ? I extends () => infer L
    ? L
    : never
  : never;

const TABLE = Symbol.for('course-router.table');
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
type Holder = { [TABLE]?: RouteTable };

const regexes = new WeakMap<object, RegExp>();

/**
 * Whether the route's regex for a placeholder takes `value` as the router will test it: in the
 * normalised path, which keeps `%2F` and `%25` encoded (`/` and `%` in a value arrive so), and,
 * for a value holding them, decoded too (`decodedPasses`).
 */
function takes(part: Exclude<UrlPart, string>, value: string): boolean {
  if (part[3] === undefined) return true;
  return passes(regexOf(part), value.replaceAll('%', '%25').replaceAll('/', '%2F'), value);
}

/** `regex` takes a value as the router tests it (`seen`) and, when that differs, decoded. */
function passes(regex: RegExp, seen: string, value: string): boolean {
  return regex.test(seen) && (seen === value || regex.test(value));
}

/** The whole-value regex of a placeholder's `where()` pattern, made once. */
function regexOf(part: Exclude<UrlPart, string>): RegExp {
  let regex = regexes.get(part);
  if (regex === undefined)
    regexes.set(part, (regex = new RegExp(`^(?:${part[3]})$`, part[4] ? 'iu' : 'u')));
  return regex;
}

/**
 * `value` as the URL writes it, percent-encoded; `undefined` when the route would not take it
 * (`takes`). Its `/` stay the separators they are when the parameter's regex takes the value so
 * (`where('path', '.*')`: `css/site.css`, which `ServeStatic` serves, where `css%2Fsite.css` is
 * a 404) and no segment of it is empty, `.` or `..`; otherwise each is `%2F`.
 */
function written(part: Exclude<UrlPart, string>, value: string): string | undefined {
  const segments = value.split('/');
  if (
    segments.length > 1 &&
    part[3] !== undefined &&
    segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..') &&
    passes(regexOf(part), value.replaceAll('%', '%25'), value)
  )
    return segments.map(encodeURIComponent).join('/');
  return takes(part, value) ? encodeURIComponent(value) : undefined;
}

/** Fills templates in turn (host, then path), taking positional values in that order. */
function filler(
  name: string,
  params: Readonly<Record<string, unknown>> | readonly unknown[] | null | undefined,
  route: () => readonly UrlPart[],
) {
  let position = 0;
  return (parts: readonly UrlPart[]): string => {
    let out = '';
    let skipped: string | undefined;
    for (const part of parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const [param, optional, separator] = part;
      const value = Array.isArray(params)
        ? params[position++]
        : params && Object.hasOwn(params, param)
          ? (params as Record<string, unknown>)[param]
          : undefined;
      if (value === undefined || value === null || value === '') {
        if (!optional)
          throw new Error(
            value === undefined
              ? missing(name, param, params, route())
              : `course: url(${JSON.stringify(name)}) gives the parameter "${param}" ${value === '' ? 'an empty value' : 'null'}, which fills no placeholder`,
          );
        skipped ??= param;
        continue;
      }
      if (skipped !== undefined) {
        // `/opt/{a?}/{b?}` without a but with b has no URL: `/opt/y` would give a = 'y'.
        throw new Error(
          `course: url(${JSON.stringify(name)}) gives "${param}" but not the optional "${skipped}" before it`,
        );
      }
      const text = String(value);
      const encoded = written(part, text);
      if (encoded === undefined) {
        throw new Error(
          `course: url(${JSON.stringify(name)}) gives "${param}" the value ${JSON.stringify(text)}, which its route does not match (${part[3]}): the URL would not reach the route`,
        );
      }
      out += separator + encoded;
    }
    return out;
  };
}

// The parameter names of each named route of a table, host first: read once per route.
const namesOf = new WeakMap<RouteTable, Map<string, readonly string[]>>();

/** The parameter names of the route `name` (its `hostParts`, then its path `parts`), in order. */
function paramNames(
  table: RouteTable,
  name: string,
  parts: readonly UrlPart[],
  hostParts: readonly UrlPart[] | undefined,
): readonly string[] {
  let routes = namesOf.get(table);
  if (routes === undefined) namesOf.set(table, (routes = new Map()));
  let names = routes.get(name);
  if (names === undefined)
    routes.set(
      name,
      (names = [...(hostParts ?? []), ...parts].flatMap((part) =>
        typeof part === 'string' ? [] : [part[0]],
      )),
    );
  return names;
}

/**
 * Throws for a value of `params` no placeholder of its route (`names`) takes: a key the route has no
 * parameter for (a query value, which goes in `url()`'s third argument), or more values than
 * it has parameters. Left unused, it would be dropped without a word.
 */
function checkUnused(
  name: string,
  params: Readonly<Record<string, unknown>> | readonly unknown[],
  names: readonly string[],
): void {
  const at = `course: url(${JSON.stringify(name)})`;
  if (Array.isArray(params)) {
    if (params.length > names.length)
      throw new Error(
        `${at} is given ${params.length} values for the ${names.length} parameters of its route`,
      );
    return;
  }
  const record = params as Readonly<Record<string, unknown>>;
  const extra = Object.keys(record).find(
    (key) => !names.includes(key) && record[key] !== undefined,
  );
  if (extra === undefined) return;
  const near = nearest(extra, names);
  throw new Error(
    `${at} is given "${extra}", which its route has no parameter for` +
      (near ? ` (did you mean "${near}"?)` : '') +
      `: a query value goes in the third argument, url(name, params, { ${extra}: … })`,
  );
}

/** The error for a name no route has, with the near one when there is one. */
function noRoute(table: RouteTable, name: string): string {
  const near = nearest(name, Object.keys(table.names));
  return `course: url() found no route named ${JSON.stringify(name)}${near ? `: did you mean ${JSON.stringify(near)}?` : ''}`;
}

/**
 * The error for a required parameter left out, naming the keys of `params` the route does not
 * have (a misspelt one: `slugg`, did you mean slug?).
 */
function missing(
  name: string,
  param: string,
  params: Readonly<Record<string, unknown>> | readonly unknown[] | null | undefined,
  route: readonly UrlPart[],
): string {
  const message = `course: url(${JSON.stringify(name)}) needs the parameter "${param}"`;
  if (!params || Array.isArray(params)) return message;
  const known = route.flatMap((part) => (typeof part === 'string' ? [] : [part[0]]));
  const unknown = Object.keys(params).filter((key) => !known.includes(key));
  if (unknown.length === 0) return message;
  const hints = unknown.map((key) => {
    const near = nearest(key, [param]) ?? nearest(key, known);
    return `"${key}"${near ? ` (did you mean "${near}"?)` : ''}`;
  });
  return `${message}; the route has no parameter ${hints.join(', ')}`;
}

/**
 * `path` with `query` appended. An object or array value is written as PHP writes it
 * (`http_build_query`: `o%5Bk%5D=v`, `a%5B0%5D=1`), which the router's input reading (qs, PHP-
 * style) parses back to the same value; a flat query needs no qs.
 */
function appendQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const values = Object.values(query);
  const text = values.some((value) => typeof value === 'object' && value !== null)
    ? vendored<typeof qs>('qs').stringify(query, { skipNulls: true, arrayFormat: 'indices' })
    : flatQuery(query);
  return text ? `${path}?${text}` : path;
}

function flatQuery(query: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  return search.toString();
}

/** URL templates by name, one `[name, parts]` per line, in an object with no prototype. */
export function templates(rows: string): Readonly<Record<string, readonly UrlPart[]>> {
  const out = Object.create(null) as Record<string, readonly UrlPart[]>;
  for (const [name, parts] of parseLines(rows) as [string, UrlPart[]][]) out[name] = parts;
  return out;
}
