import type { CourseRequest } from './http/request.js';
import type { BootRouter } from './http/boot.js';

// The members are properties of function type, not methods: tsc then checks a class's
// parameters against them strictly (`implements` refuses `handleError(r, e: HttpException)`, which
// would be handed every error), where a method's are checked both ways.

/**
 * Runs before a route's callback; returning a value (a `Response`, a string…) stops the request
 * there. Its arguments, each after a `:` (`'Name:admin:3'` gives `handle(request, 'admin', '3')`;
 * a `,` is part of an argument), arrive as strings; the build checks them against `handle`.
 */
export interface Middleware {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each middleware types its own
  handle: (request: CourseRequest, ...args: any[]) => unknown;
}

/**
 * What an exception handler is given: the error thrown, with the `status` (and `headers`) of an
 * `HttpException` (a 404, a 405, a 413, a validation's 422…) when it is one; `instanceof` tells
 * which (another `Error` may carry a `status` of its own: an HTTP client's). A value thrown that
 * is no `Error` (`throw 'text'`) arrives as an `Error` of its text, the value its `cause`.
 */
export type HandledError = Error & {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
};

/** Sees errors of the routes of the groups it is attached to. */
export interface ExceptionHandler {
  handleError: (request: CourseRequest, error: HandledError) => unknown;
}

/** Runs before each request is matched; may rewrite the URL (`router.url()` builds one). */
export interface RouterBootManager {
  boot: (router: BootRouter, request: CourseRequest) => unknown;
}

/**
 * The seven methods of a resource controller, each optional: a method the controller leaves
 * out leaves its route out (an API's resource has no `create` and `edit` forms), with a build
 * warning. Each receives its route's parameters as strings: the group prefix's first
 * (`/orgs/{org}`: `show(org, id)`), then the resource's `id`; the build checks each against its
 * route.
 */
export interface ResourceController {
  index?(...params: string[]): unknown;
  show?(...params: string[]): unknown;
  store?(...params: string[]): unknown;
  create?(...params: string[]): unknown;
  edit?(...params: string[]): unknown;
  update?(...params: string[]): unknown;
  destroy?(...params: string[]): unknown;
}
