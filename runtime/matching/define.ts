import type { RouteTable } from '../types.js';
import type { RouteList } from './route-list.js';
import { registerTable } from './url.js';
import { GENERATED } from '../version.js';

/** What the generated module gives `defineRoutes` besides its route table. */
export type TableParts = Omit<RouteTable, 'routes' | 'callbacks'>;

/**
 * The generated module's table: its parts, and its routes and callbacks read from the route
 * table when first asked for. Registered for `url()` and `Course.start()` without a table.
 */
export function defineRoutes(routes: RouteList, parts: TableParts): RouteTable {
  const table = new GeneratedTable(routes, parts);
  registerTable(table);
  return table;
}

// --- internal ---

/**
 * A class, so that the lazy parts are getters of its prototype: an object literal with a getter
 * keeps its properties in a dictionary, and `match` is read on every request.
 */
class GeneratedTable implements RouteTable {
  readonly match: RouteTable['match'];
  readonly allowed: RouteTable['allowed'];
  readonly names: RouteTable['names'];
  readonly hosts: RouteTable['hosts'];
  readonly usesHost: RouteTable['usesHost'];
  readonly handlersFor: RouteTable['handlersFor'];
  readonly corsFor: RouteTable['corsFor'];
  readonly bootManagers: RouteTable['bootManagers'];
  readonly csrfVerifier: RouteTable['csrfVerifier'];
  readonly errorRedirect: RouteTable['errorRedirect'];
  readonly compiledBy: RouteTable['compiledBy'];
  readonly [GENERATED] = true;
  readonly #list: RouteList;

  constructor(list: RouteList, parts: TableParts) {
    this.#list = list;
    this.match = parts.match;
    this.allowed = parts.allowed;
    this.names = parts.names;
    this.hosts = parts.hosts;
    this.usesHost = parts.usesHost;
    this.handlersFor = parts.handlersFor;
    this.corsFor = parts.corsFor;
    this.bootManagers = parts.bootManagers;
    this.csrfVerifier = parts.csrfVerifier;
    this.errorRedirect = parts.errorRedirect;
    this.compiledBy = parts.compiledBy;
  }

  get routes(): RouteTable['routes'] {
    return this.#list.all();
  }

  get callbacks(): RouteTable['callbacks'] {
    return this.#list.callbacks();
  }
}
