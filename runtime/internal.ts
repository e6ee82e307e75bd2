/**
 * `course-router/internal`: what generated modules and the compiler use, and nothing an app
 * calls. Its shape follows the generated module's encoding, which may change in any release.
 */
export { defineRoutes } from './matching/define.js';
export { buildUrl, loadedRoutes, templates } from './matching/url.js';
export { url } from './features/helpers.js';
export { decodeParam, normalizePath } from './http/path.js';
export { RouteList, type RouteMore, type RouteRow } from './matching/route-list.js';
export { StaticPaths, staticKeyOf, MAX_OFFSETS } from './matching/statics.js';
export { RouteTests, type RouteTest } from './matching/route-tests.js';
export { handlersOf, type HandlerGroup } from './matching/handler-groups.js';
export { allowedIn, testPath, walkTree } from './matching/matcher.js';
export {
  absentAt,
  charRun,
  decodedPasses,
  leadingSegments,
  segmentEnd,
  valueEnd,
  type SegmentProgram,
} from './matching/segments.js';
export { parseTree, type MatchTree } from './matching/tree.js';
export { within } from './matching/bound.js';
// The lookup a server makes of a raw request target: what the benchmarks time.
export { resolveTarget } from './http/target.js';
export { MAX_TARGET_LENGTH } from './http/dispatch.js';
export { callbackParts, classRefParts } from './dsl/class-refs.js';
export { beginRecording, endRecording } from './dsl/recorder.js';
export { toList } from './dsl/register.js';
export { nearest, suggestion } from './dsl/near.js';
export { DATABASE_PACKAGES, MissingPackageError } from './packages.js';
export type * from './index.js';
export { provideVendored } from './packages.js';
// The table's encoding and the compiler's plumbing: what no app names.
export type { AnyUrlParams, UrlNames, UrlNamesAlone, UrlParamsOf } from './matching/url.js';
export type { MatchHit, MiddlewareEntry, Params, RouteEntry, UrlPart } from './types.js';
export type * from './dsl/types.js';
