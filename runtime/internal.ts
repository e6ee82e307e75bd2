/**
 * `course-router/internal`: what generated modules and the compiler use, and nothing an app
 * calls. Its shape follows the generated module's encoding, which may change in any release.
 */
export { defineRoutes } from './matching/define.js';
export { buildUrl, templates } from './matching/url.js';
export { url } from './features/helpers.js';
export { decodeParam, normalizePath } from './http/path.js';
export { Rows } from './matching/rows.js';
export { RouteList, type RouteRow, type StackRow } from './matching/route-list.js';
export { StaticPaths, hitList, staticKey } from './matching/statics.js';
export { testList } from './matching/route-tests.js';
export { handlersOf, type HandlerGroup } from './matching/handler-groups.js';
export {
  allowedIn,
  charRun,
  runEnd,
  testedRoutes,
  testPath,
  walkTree,
  wordEnd,
} from './matching/matcher.js';
export type { DynamicRoute, RouteTest, SegmentProgram } from './matching/matcher.js';
export { parseTree, segmentHash, SKIP_LIMIT } from './matching/tree.js';
export { within } from './matching/bound.js';
export type { MatchTree } from './matching/tree.js';
export { beginRecording, endRecording } from './dsl/recorder.js';
export { toList } from './dsl/register.js';
export { suggestion } from './dsl/near.js';
export { MissingPackageError } from './packages.js';
export type * from './index.js';
