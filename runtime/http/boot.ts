import { url } from '../features/helpers.js';
import type { CourseRequest } from './request.js';
import type { RouteTable } from '../types.js';

/** What a boot manager receives as its router. */
export interface BootRouter {
  readonly table: RouteTable;
  /** The URL of a route of this app (or, given nothing, the request's), as the global `url()`. */
  url: typeof url;
}

/** Runs the app's boot managers, in turn, on a request before its route is looked for. */
export async function boot(table: RouteTable, request: CourseRequest): Promise<void> {
  // The global helper: while the request is served, it builds from the table serving it.
  const router: BootRouter = { table, url };
  for (const Manager of table.bootManagers!)
    await new Manager().boot(router as never, request as never);
}
