import { callSite } from './_location.js';
import type { ClassReference, RegexLike, RouteDefinition } from './types.js';

/** The chainable route returned by `Course.get()` and friends. It only records. */
export class RouteBuilder {
  /** @internal */
  readonly definition: RouteDefinition;

  constructor(definition: RouteDefinition) {
    this.definition = definition;
  }

  /**
   * Constrains parameters with regexes: `where('id', '[0-9]+')` or `where({ id: '[0-9]+' })`.
   * A constraint may match `/`, so `where('path', '.*')` captures `a/b/c`.
   */
  where(name: string, regex: RegexLike): this;
  where(map: Readonly<Record<string, RegexLike>>): this;
  where(nameOrMap: string | Readonly<Record<string, RegexLike>>, regex?: RegexLike): this {
    const map = typeof nameOrMap === 'string' ? { [nameOrMap]: regex! } : { ...nameOrMap };
    this.definition.where.push({ value: map, loc: callSite() });
    return this;
  }

  /** Matches the whole path with a regex; its capture groups reach the callback in order. */
  setMatch(regex: RegexLike): this {
    this.definition.match = { value: regex, loc: callSite() };
    return this;
  }

  /** Names the route for `url()`; a group's `as` is prefixed with a dot. */
  name(name: string): this {
    this.definition.name = { value: name, loc: callSite() };
    return this;
  }

  /** Adds middleware after the group's: a class, or a string with `:arg` suffixes (`'Auth:admin'`). */
  addMiddleware(middleware: ClassReference): this {
    this.definition.middleware.push({ value: middleware, loc: callSite() });
    return this;
  }

  /** Sets the namespace for a relative `'Class@method'` callback. */
  setNamespace(namespace: string): this {
    this.definition.namespace = { value: namespace, loc: callSite() };
    return this;
  }

  /**
   * Accepts this route's regexes even where the build finds them open to catastrophic
   * backtracking (ReDoS). Only for regexes whose input you bound another way.
   */
  allowUnsafeRegex(): this {
    this.definition.allowUnsafeRegex = true;
    return this;
  }

  /** Prefixes the route's URL (after the group prefixes). */
  setPrefix(prefix: string): this {
    this.definition.prefix = { value: prefix, loc: callSite() };
    return this;
  }
}

/** The seven routes of a resource, by the controller method each calls. */
export type ResourceAction = 'index' | 'create' | 'store' | 'show' | 'edit' | 'update' | 'destroy';

/** What `Course.resource()` returns: a route builder that also picks the resource's routes. */
export class ResourceBuilder extends RouteBuilder {
  /**
   * Routes these actions alone (`only('index', 'show')`); the controller need not have the
   * others' methods, and the build does not warn about them.
   */
  only(...actions: ResourceAction[]): this {
    this.definition.actions = { value: { only: true, names: actions }, loc: callSite() };
    return this;
  }

  /** Routes every action but these (`except('create', 'edit')`, an API's resource). */
  except(...actions: ResourceAction[]): this {
    this.definition.actions = { value: { only: false, names: actions }, loc: callSite() };
    return this;
  }
}
