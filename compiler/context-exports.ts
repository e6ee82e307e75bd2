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
]);

/** The value exports of `course-router` that never read the request being served (for the test). */
export const CONTEXT_FREE: ReadonlySet<string> = new Set([
  'Course',
  'spoofing',
  'TokenMismatchException',
  'clientAddress',
  'hashPassword',
  'verifyPassword',
  'passwordInfo',
  'MemoryStore',
  'HttpException',
  'MethodNotAllowedHttpException',
  'NotFoundHttpException',
  'CourseRequest',
  'CourseResponse',
  'LoadedRoute',
  'RouteBuilder',
]);
