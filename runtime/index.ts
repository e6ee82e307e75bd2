export { Course } from './course.js';
export { url, request, response, spoofing, type SpoofedMethod } from './features/helpers.js';
export { Cors } from './features/cors.js';
export { ServeStatic } from './features/static/serve-static.js';
export { BaseCsrfVerifier, TokenMismatchException, csrfToken } from './features/csrf.js';
export { Controller, passHash, passVerify } from './features/controller.js';
export { input } from './features/input.js';
export { validInput, ValidationException } from './features/validate.js';
export { requestLimit, requestRepeat, clientAddress } from './features/limits.js';
export { passwordInfo } from './features/password.js';
export { removeParam, toRoute } from './features/redirect.js';
export { MemoryStore } from './stores/memory.js';
export {
  CourseRequest,
  LoadedRoute,
  type RequestAttributes,
  type RequestUri,
} from './http/request.js';
export { CourseResponse, type RedirectStatus } from './http/response.js';
export {
  HttpException,
  MethodNotAllowedHttpException,
  NotFoundHttpException,
} from './http/errors.js';
export { ResourceBuilder, RouteBuilder, type ResourceAction } from './dsl/route-builder.js';

export type { CourseApp } from './http/app.js';
export type { CookieOptions } from './features/cookies.js';
export type { CorsOrigins } from './features/cors.js';
export type { CompressOptions } from './features/compress.js';
export type { RequestLogEntry, RequestLogger } from './http/request-log.js';
export type { FetchInfo } from './http/adapters/fetch.js';
export type { AllInput, InputSource, ParsedBody, UploadedFile } from './features/input.js';
export type { InputIssue, SchemaOutput, StandardSchemaV1 } from './features/validate.js';
export type { PasswordInfo } from './features/password.js';
export type { Store } from './stores/types.js';
export type { MemoryStoreOptions } from './stores/memory.js';
export type { BootRouter } from './http/boot.js';
export type { StartOptions } from './http/dispatch.js';
export type {
  Middleware,
  ExceptionHandler,
  HandledError,
  RouterBootManager,
  ResourceController,
} from './interfaces.js';
export type {
  ParamValue,
  Query,
  QueryValue,
  RouteHandlerParams,
  RouteName,
  RouteNames,
  RouteParams,
  RoutesWithoutParams,
  RouteUrlParams,
  UrlParams,
} from './matching/url.js';
export type { RouteTable } from './types.js';
export type {
  Callback,
  ClassRef,
  ClassReference,
  GroupAttributes,
  RegexLike,
  RouteSettings,
  Verb,
} from './dsl/types.js';
export type { RouteCallback, RouteClosure, UrlParamTypes } from './dsl/handler-types.js';
