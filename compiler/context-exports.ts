/**
 * The value exports of `course-router` that read the request being served, so that a server
 * whose app uses one keeps it through `await`s (`AsyncLocalStorage`). Every other value export
 * is listed in `CONTEXT_FREE`; a test checks that each export is in one list.
 */
export const CONTEXT_EXPORTS: ReadonlySet<string> = new Set([
  'url',
  'request',
  'response',
  'input',
  'csrfToken',
  'BaseCsrfVerifier',
  'Controller',
  'passHash',
  'passVerify',
  'requestLimit',
  'requestRepeat',
  'removeParam',
  'toRoute',
  'buildUrl',
]);

/** The value exports of `course-router` that never read the request being served (for the test). */
export const CONTEXT_FREE: ReadonlySet<string> = new Set([
  'Course',
  'defineRoutes',
  'spoofing',
  'TokenMismatchException',
  'clientAddress',
  'hashPassword',
  'verifyPassword',
  'passwordInfo',
  'MemoryStore',
  'decodeParam',
  'HttpException',
  'MethodNotAllowedHttpException',
  'NotFoundHttpException',
  'CourseRequest',
  'CourseResponse',
  // What generated modules use.
  'Rows',
  'RouteList',
  'StaticPaths',
  'hitList',
  'templates',
  'testList',
  'LoadedRoute',
  'RouteBuilder',
  'beginRecording',
  'endRecording',
  'allowedIn',
  'handlersOf',
  'testedRoutes',
  'testPath',
  'walkTree',
  'wordEnd',
  'charRun',
  'runEnd',
  'within',
  'parseTree',
  'segmentHash',
]);
