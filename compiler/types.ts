import type { SourceLocation } from 'course-router/internal';

/** Where a class comes from: the module file and the export that holds it. */
export interface ClassImport {
  /** Absolute path of the module. */
  file: string;
  /** `'default'` or the named export. */
  exportName: string;
}

/** What a route calls. */
export type HandlerRef =
  | { kind: 'closure'; closure: number }
  | { kind: 'method'; class: ClassImport; className: string; method: string };

/** A middleware class and its `:arg` strings. */
export interface MiddlewareRef {
  class: ClassImport;
  label: string;
  args: string[];
}

/** A class the router instantiates: exception handler, boot manager, CSRF verifier. */
export interface ClassRefResolved {
  class: ClassImport;
  label: string;
}

/** The host a route is restricted to (`domain` of its innermost group that sets one). */
export interface DomainSpec {
  pattern: string;
  tokens: PatternToken[];
  params: ParamSpec[];
  /** Anchored regex over the host (lower-case, no port), run with `iu` (`HOST_FLAGS`). */
  regex: string;
}

/** A `setMatch()` regex: the route matches when it matches the path. */
export interface MatchSpec {
  source: string;
  flags: string;
  captures: number;
  /** The captures (from 1) that may be `undefined`: their group may not take part. */
  optional: readonly number[];
}

/** A group that covers a request no route takes: its exception handlers, or its `Cors` middleware. */
export interface ClassGroup {
  /** Anchored regex of the group's prefix (followed by `/` or the end). */
  prefix: string;
  domain: DomainSpec | undefined;
  classes: ClassRefResolved[];
}

/** One piece of a URL pattern. */
export type PatternToken =
  | { kind: 'literal'; text: string }
  | {
      kind: 'param';
      name: string;
      optional: boolean;
      separator: string;
      regex: string;
      /** The regex was given with `i`: it runs with `iu`, and `u` otherwise. */
      caseless?: boolean;
    };

/** A parameter that reaches the callback, in delivery order. */
export interface ParamSpec {
  name: string;
  optional: boolean;
  regex: string;
  /** The regex was given with `i`: it runs with `iu`, and `u` otherwise. */
  caseless?: boolean;
  /**
   * The values the regex writes out (`en|fr`: `regexValues`), one of which the handler
   * receives; none for a domain's parameter, matched in any case.
   */
  values?: string[];
  /** The regex matches decimal digits alone, one at least: the handler receives a numeral. */
  digits?: true;
}

/**
 * A normalised route: groups merged, URL complete, handler resolved. The spine of the
 * compiler, and what `course routes --json` prints. Plain, serialisable data.
 */
export interface RouteRecord {
  index: number;
  /** Upper-case verbs; `['*']` for every verb. */
  verbs: string[];
  /** The full pattern as declared: basepath and prefixes included, no trailing slash. */
  url: string;
  tokens: PatternToken[];
  params: ParamSpec[];
  /** Anchored regex source over the normalised path, run with `u` (`ROUTE_FLAGS`). */
  regex: string;
  name: string | undefined;
  handler: HandlerRef;
  /** `UserController@show`, `closure`… for people. */
  handlerLabel: string;
  middleware: MiddlewareRef[];
  match: MatchSpec | undefined;
  domain: DomainSpec | undefined;
  /** Exception handlers of the route's groups, innermost first. */
  handlers: ClassRefResolved[];
  source: SourceLocation;
  /**
   * The handler and every middleware `handle` return no promise (`returnsAtOnce`), and the app
   * has no CSRF verifier or boot manager: the route is served without `AsyncLocalStorage`
   * (`RouteEntry.sync`).
   */
  sync: boolean;
}

/** A closure lifted from a route file into the generated module. */
export interface HoistedClosure {
  id: number;
  /** Source text of the function expression. */
  text: string;
  source: SourceLocation;
}

/** An import the hoisted code needs. */
export interface CodeImport {
  /** The route file whose closures use it. */
  file: string;
  /** Absolute file, or a bare package specifier. */
  from: string;
  /** `'default'`, `'*'` (namespace) or the named export. */
  name: string;
  /** The local name the hoisted code uses. */
  local: string;
  typeOnly: boolean;
}

/** A module-level constant a closure uses, copied with it. */
export interface HoistedConstant {
  file: string;
  name: string;
  text: string;
}

/** Everything the emitter needs. */
export interface CompiledApp {
  root: string;
  routes: RouteRecord[];
  /** Groups with exception handlers, innermost first, for unmatched requests. */
  handlerGroups: ClassGroup[];
  /** Groups with middleware that may be `Cors`, innermost first: a 404's CORS headers. */
  corsGroups: ClassGroup[];
  bootManagers: ClassRefResolved[];
  csrfVerifier: ClassRefResolved | undefined;
  /** `Course.error(true, url)`. */
  errorRedirect: string | undefined;
  closures: HoistedClosure[];
  imports: CodeImport[];
  constants: HoistedConstant[];
}
