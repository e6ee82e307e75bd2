import type { RouteTable } from '../types.js';
import { registerTable } from './url.js';

/** Wraps the generated table: registers it for `url()` and `Course.start()` without a table. */
export function defineRoutes(table: RouteTable): RouteTable {
  registerTable(table);
  return table;
}
