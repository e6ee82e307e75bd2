/**
 * What the route-file DSL records: plain data, with the source location of every call.
 * The compiler turns these definitions into `RouteRecord`s.
 */

/** A position in a route file, 1-based like an editor shows it. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A regex given to `where`, `defaultParameterRegex` or `setMatch`. */
export type RegexLike = string | RegExp;

/**
 * A verb `Course.match()` routes: one of HTTP's, in either case, or an extension method in
 * capitals (`PURGE`), as methods are written; a misspelt one (`'gte'`) is a tsc error.
 */
export type Verb =
  'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options' | Uppercase<string>;

/** A class whose instances the router creates per request. */
export type ClassRef = abstract new (...args: never[]) => unknown;

/** A route callback: a closure, `'Class@method'`, or `[Class, 'method']`. */
export type Callback = ((...params: never[]) => unknown) | string | readonly [ClassRef, string];

/** A middleware, exception handler or boot manager: a class-name string or a class. */
export type ClassReference = string | ClassRef;

/** A value recorded together with the location of the call that gave it. */
export interface Located<T> {
  value: T;
  loc: SourceLocation;
}

/** Group attributes (first argument of `Course.group`). */
export interface GroupAttributes {
  prefix?: string;
  middleware?: ClassReference | readonly ClassReference[];
  namespace?: string;
  domain?: string;
  defaultParameterRegex?: RegexLike;
  as?: string;
  where?: Readonly<Record<string, RegexLike>>;
  exceptionHandler?: ClassReference | readonly ClassReference[];
}

/** Per-route settings (third argument of `Course.get` and friends). */
export interface RouteSettings {
  /** Accept regexes the build finds open to catastrophic backtracking (ReDoS). */
  unsafeRegex?: boolean;
  defaultParameterRegex?: RegexLike;
  where?: Readonly<Record<string, RegexLike>>;
  as?: string;
  middleware?: ClassReference | readonly ClassReference[];
  namespace?: string;
  prefix?: string;
}

export interface GroupDefinition {
  id: number;
  kind: 'group' | 'partial';
  attributes: GroupAttributes;
  parent: GroupDefinition | undefined;
  /** `setDefaultBasepath` in force when the group was opened. */
  basepath: string;
  loc: SourceLocation;
}

export type RouteKind = 'route' | 'resource' | 'controller';

export interface RouteDefinition {
  kind: RouteKind;
  /** Upper-case verbs; `['*']` means every verb. */
  verbs: string[];
  url: string;
  callback: Located<Callback | ClassRef>;
  settings: RouteSettings;
  group: GroupDefinition | undefined;
  /** `setDefaultBasepath` and `setDefaultNamespace` in force when the route was registered. */
  basepath: string;
  defaultNamespace: string | undefined;
  name: Located<string> | undefined;
  where: Located<Record<string, RegexLike>>[];
  match: Located<RegexLike> | undefined;
  middleware: Located<ClassReference>[];
  namespace: Located<string> | undefined;
  prefix: Located<string> | undefined;
  loc: SourceLocation;
  /** `allowUnsafeRegex()` was called. */
  allowUnsafeRegex?: boolean;
  /** `only()` or `except()` on a `resource()`: the actions named, as written. */
  actions?: Located<{ only: boolean; names: string[] }>;
  /** Set by the compiler on routes it expands from `resource()`: skipped, with a warning, when the method is missing. */
  optionalMethod?: boolean;
  /** Set by the compiler on routes it expands from `resource()` or `controller()`, which share one `where()`. */
  sharedWhere?: boolean;
}

/** Router-wide settings recorded from `Course.*` calls. */
export interface RouterSettings {
  error: Located<{ redirect: boolean; url: string }> | undefined;
  bootManagers: Located<ClassReference>[];
  csrfVerifier: Located<ClassReference> | undefined;
}

/** Everything one evaluation of the route files recorded. */
export interface Recording {
  routes: RouteDefinition[];
  groups: GroupDefinition[];
  router: RouterSettings;
  /** Internal: the group whose closure is running. */
  current: GroupDefinition | undefined;
  basepath: string;
  defaultNamespace: string | undefined;
  /** Internal: the route files being evaluated, used to find call sites. */
  files: Set<string>;
}
