import { requireContext } from '../http/context.js';
import type { CourseRequest } from '../http/request.js';
import type { CourseResponse } from '../http/response.js';
import {
  activeTable,
  type AnyUrlParams,
  buildUrl,
  currentUrl,
  type Query,
  type RouteNames,
  type RoutesWithoutParams,
  type RouteUrlParams,
  type UrlNames,
  type UrlNamesAlone,
} from '../matching/url.js';

/**
 * The URL of a named route (`url('user.show', { id: 5 })`), of a `'Class@method'` callback,
 * or, with no arguments, the current path and query. The names are given as a union, so that
 * tsc's message for a name that is not a route lists the routes.
 *
 * @example url('user.show', { id: 5 }, { tab: 'posts' }) // '/user/5?tab=posts'
 */
export function url(): string;
export function url<
  Names extends string = UrlNamesAlone<RoutesWithoutParams, RouteNames>,
  K extends Names = Names,
>(name: K): string;
export function url<Names extends string = UrlNames<RouteNames>, K extends Names = Names>(
  name: K,
  params: RouteUrlParams[K],
  query?: Query,
): string;
export function url(name?: string, params?: AnyUrlParams, query?: Query): string {
  if (name === undefined) return currentUrl();
  const table = activeTable();
  if (!table)
    throw new Error(
      'course: url() needs the generated routes module to be loaded (called at the top level of ' +
        'a module that module imports, it runs before the routes exist: call it inside a function)',
    );
  return buildUrl(table, name, params as Parameters<typeof buildUrl>[2], query);
}

/** The request being served. */
export function request(): CourseRequest {
  return requireContext('request').request;
}

/** The response being built for the request being served. */
export function response(): CourseResponse {
  return requireContext('response').response;
}

/** The verbs a POSTed form may be routed as with `_method`, in either case. */
export type SpoofedMethod = 'put' | 'patch' | 'delete' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A hidden `_method` field for HTML forms that POST: `spoofing('put')` makes the router treat
 * the request as PUT. Only PUT, PATCH and DELETE can be spoofed.
 */
export function spoofing(method: SpoofedMethod): string {
  const verb = method.toUpperCase();
  if (verb !== 'PUT' && verb !== 'PATCH' && verb !== 'DELETE') {
    throw new RangeError(
      `course: spoofing() takes put, patch or delete, not ${JSON.stringify(method)}`,
    );
  }
  return `<input type="hidden" name="_method" value="${verb}" readonly>`;
}
