import { startApp, type CourseApp } from './http/app.js';
import type { StartOptions } from './http/dispatch.js';
import * as dsl from './dsl/register.js';
import type { ResourceBuilder, RouteBuilder } from './dsl/route-builder.js';
import type { PlaceholderTexts, RouteCallback } from './dsl/handler-types.js';
import type {
  ClassRef,
  ClassReference,
  GroupAttributes,
  RouteSettings,
  Verb,
} from './dsl/types.js';
import { request, response } from './features/helpers.js';
import type { RouteTable } from './types.js';
import { checkRelease } from './version.js';
import { activeTable } from './matching/url.js';

const ALL_VERBS = ['*'];

/**
 * The route-file DSL and the entry point of a Course app. In route files its methods only
 * record; `course build` turns the recording into `generated/routes.gen.ts`.
 *
 * @example
 * Course.get('/user/{id}', 'UserController@show').where('id', '[0-9]+').name('user.show');
 */
export class Course {
  static get<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['GET'], url, callback, settings);
  }

  static post<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['POST'], url, callback, settings);
  }

  static put<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['PUT'], url, callback, settings);
  }

  static patch<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['PATCH'], url, callback, settings);
  }

  static delete<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['DELETE'], url, callback, settings);
  }

  static options<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['OPTIONS'], url, callback, settings);
  }

  /** Matches each listed verb (lower- or upper-case; an extension method in capitals). */
  static match<const U extends string, C extends ClassRef = ClassRef>(
    verbs: readonly Verb[],
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute(
      'route',
      verbs.map((v) => v.toUpperCase()),
      url,
      callback,
      settings,
    );
  }

  /** Matches every verb. */
  static any<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ALL_VERBS, url, callback, settings);
  }

  /** Matches every verb; used with `setMatch()` for a whole-route regex. */
  static all<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ALL_VERBS, url, callback, settings);
  }

  /** Matches GET and POST. */
  static form<const U extends string, C extends ClassRef = ClassRef>(
    url: U,
    callback: RouteCallback<U, C>,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('route', ['GET', 'POST'], url, callback, settings);
  }

  /** The seven RESTful routes of a resource controller (`only()`/`except()` pick some). */
  static resource(
    url: string,
    controller: ClassRef | string,
    settings?: RouteSettings,
  ): ResourceBuilder {
    return dsl.addRoute('resource', ALL_VERBS, url, controller, settings) as ResourceBuilder;
  }

  /** Routes expanded from the controller's `getIndex`, `postSave`… methods. */
  static controller(
    url: string,
    controller: ClassRef | string,
    settings?: RouteSettings,
  ): RouteBuilder {
    return dsl.addRoute('controller', ALL_VERBS, url, controller, settings);
  }

  /**
   * Applies `attributes` (prefix, middleware, namespace, domain, as, where…) to every route
   * registered inside `fn`.
   *
   * @example Course.group({ prefix: '/admin', middleware: 'Middleware\\Auth:admin' }, () => { … });
   */
  static group(attributes: GroupAttributes, fn: () => void): void {
    dsl.addGroup('group', attributes, fn);
  }

  /**
   * A group whose routes exist only under its matched prefix. `fn` runs once, when the routes are
   * built, and receives the placeholders as written (`'/lang/{lang}'`: `'{lang}'`): its routes
   * are the same for every value, which their handlers receive.
   */
  static partialGroup<const U extends string>(
    url: U,
    fn: (...params: PlaceholderTexts<U>) => void,
    attributes: GroupAttributes = {},
  ): void {
    const names = [...url.matchAll(/\{\w+\??\}/g)].map((m) => m[0].replace('?', ''));
    dsl.addGroup(
      'partial',
      { ...attributes, prefix: url },
      fn as (...args: string[]) => void,
      names,
    );
  }

  /** Prepends `path` to the URL of every route registered after this call. */
  static setDefaultBasepath(path: string): void {
    dsl.setBasepath(path);
  }

  /** The namespace of relative `'Class@method'` callbacks registered after this call. */
  static setDefaultNamespace(namespace: string): void {
    dsl.setDefaultNamespace(namespace);
  }

  /** With `true`, requests that match no route are redirected (302) to `url`. */
  static error(redirect: boolean, url: string): void {
    dsl.setError(redirect, url);
  }

  /** Registers a boot manager, run before each request is matched. */
  static addBootManager(manager: ClassReference): void {
    dsl.addBootManager(manager);
  }

  /** Registers the CSRF verifier. */
  static csrfVerifier(verifier: ClassReference): void {
    dsl.setCsrfVerifier(verifier);
  }

  /**
   * Serves a compiled table: returns `{ fetch, handler, listen }`.
   *
   * @example
   * import routes from './generated/routes.gen.js';
   * await Course.start(routes).listen(3000);
   */
  static start(table?: RouteTable, options?: StartOptions): CourseApp {
    checkRelease(table ?? activeTable());
    return startApp(table, options);
  }

  /** The request being served. */
  static request = request;

  /** The response being built. */
  static response = response;
}
