import { AsyncLocalStorage } from 'node:async_hooks';
import type { CourseRequest } from './request.js';
import type { CourseResponse } from './response.js';
import type { RouteTable } from './types.js';

/** What `request()`, `response()` and `url()` see while a request is served. */
export interface RequestContext {
  readonly table: RouteTable;
  readonly request: CourseRequest;
  readonly response: CourseResponse;
}

// One store per process even when two copies of the runtime are loaded (a test runner's
// module graph beside Node's), so helpers always see the request being served.
const KEY = Symbol.for('course-router.context');
const holder = globalThis as { [KEY]?: AsyncLocalStorage<RequestContext> };
/** @internal */
export const storage = (holder[KEY] ??= new AsyncLocalStorage<RequestContext>());

/** The context of the request being served, or `undefined` outside one. */
export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The context of the request being served; throws outside one. */
export function requireContext(helper: string): RequestContext {
  const context = storage.getStore();
  if (!context) throw new Error(`course: ${helper}() is only available while a request is served`);
  return context;
}
