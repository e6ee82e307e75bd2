/**
 * `course-router/internal`: what generated modules and the compiler use, and nothing an app
 * calls. Its shape follows the generated module's encoding, which may change in any release.
 */
export { defineRoutes } from './define.js';
export { buildUrl } from './url.js';
export { url } from './helpers.js';
export { decodeParam, normalizePath } from './path.js';
export { Rows } from './data/rows.js';
export { RouteList, type RouteRow, type StackRow } from './data/routes.js';
export { StaticPaths, hitList, staticKey } from './data/statics.js';
export { templates, testList } from './data/route-tests.js';
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
export { parseTree, segmentHash, SKIP_LIMIT } from './tree.js';
export { within } from './bound.js';
export type { MatchTree } from './tree.js';
export { beginRecording, endRecording } from './dsl/recorder.js';
export { toList } from './dsl/register.js';
export { suggestion } from './near.js';
export { MissingPackageError } from './require-package.js';
export type * from './index.js';
