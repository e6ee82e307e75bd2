export { Course } from './course.js';
export { defineRoutes } from './define.js';
export { url, request, response, spoofing } from './helpers.js';
export { BaseCsrfVerifier, TokenMismatchException, csrfToken } from './csrf.js';
export { Controller, passHash, passVerify } from './controller.js';
export { input } from './input.js';
export { requestLimit, requestRepeat, clientAddress } from './limits.js';
export { hashPassword, verifyPassword, passwordInfo } from './password.js';
export { removeParam, toRoute } from './redirect.js';
export { MemoryStore } from './store/memory.js';
export { buildUrl } from './url.js';
export { decodeParam } from './path.js';
export { Rows } from './data/rows.js';
export { RouteList, type RouteRow, type StackRow } from './data/routes.js';
export { StaticPaths, hitList } from './data/statics.js';
export { templates, testList } from './data/route-tests.js';
export { CourseRequest, LoadedRoute } from './request.js';
export { CourseResponse } from './response.js';
export { HttpException, MethodNotAllowedHttpException, NotFoundHttpException } from './errors.js';
export { RouteBuilder } from './dsl/route-builder.js';
export { beginRecording, endRecording } from './dsl/recorder.js';

export type { CourseApp } from './app.js';
export type { FetchInfo } from './adapters/fetch.js';
export type { InputSource, ParsedBody, UploadedFile } from './input.js';
export type { PasswordInfo } from './password.js';
export type { Store } from './store/types.js';
export type { BootRouter, StartOptions } from './dispatch.js';
export type {
  Middleware,
  ExceptionHandler,
  RouterBootManager,
  ResourceController,
} from './interfaces.js';
export type {
  AnyUrlParams,
  ParamValue,
  Query,
  RouteName,
  RouteParams,
  RoutesWithoutParams,
  RouteUrlParams,
  UrlParams,
  UrlParamsOf,
} from './url.js';
export type {
  MatchHit,
  MiddlewareEntry,
  Params,
  RouteEntry,
  RouteTable,
  UrlPart,
} from './types.js';
export type * from './dsl/types.js';
export {
  allowedIn,
  charRun,
  handlersOf,
  runEnd,
  testedRoutes,
  testPath,
  walkTree,
  wordEnd,
} from './matcher.js';
export type { DynamicRoute, HandlerGroup, RouteTest, SegmentProgram } from './matcher.js';
export { parseTree, segmentHash } from './tree.js';
export { within } from './bound.js';
export type { MatchTree } from './tree.js';
