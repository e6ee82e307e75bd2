import { formatLocation, type Diagnostics, type RouteDefinitionError } from './errors.js';
import type { ClassRef } from 'course-router';
import type { RouteDraft } from './normalize.js';

/**
 * Resource routes left out because the controller lacks their method (CONTRACT 5.5): one
 * warning per `resource()` call, naming every missing method and route, where one each would
 * repeat the same location and code frame up to seven times.
 */
export class LeftOutRoutes {
  readonly #byCall = new Map<string, { first: RouteDefinitionError; missing: Missing[] }>();

  add(error: RouteDefinitionError, draft: RouteDraft): void {
    const { controller, method } = targetOf(draft);
    // A call in a loop may name other controllers: one warning per call and controller.
    const key = `${formatLocation(error.loc, '')} ${controller}`;
    const call = this.#byCall.get(key) ?? { first: error, missing: [] };
    this.#byCall.set(key, call);
    call.missing.push({ method, route: `${draft.verbs.join('|')} ${draft.url}` });
  }

  /** `class Shop has no method index (nor create, store); the resource routes … are left out`. */
  report(diagnostics: Diagnostics): void {
    for (const { first, missing } of this.#byCall.values()) {
      const others = [...new Set(missing.map((m) => m.method))].slice(1);
      const routes = missing.map((m) => m.route);
      const message =
        routes.length === 1
          ? `${first.message}; the resource route ${routes[0]} is left out`
          : `${first.message} (nor ${others.join(', ')}); the resource routes ${routes.join(', ')} are left out`;
      diagnostics.warn(first.code, message, first.loc, first.hint);
    }
  }
}

// --- internal ---

interface Missing {
  method: string;
  route: string;
}

/** `'Shop@index'` or `[Shop, 'index']` → `Shop` and `index`. */
function targetOf(draft: RouteDraft): { controller: string; method: string } {
  const value = draft.callback.value;
  if (typeof value === 'string') {
    const at = value.lastIndexOf('@');
    return { controller: value.slice(0, at), method: value.slice(at + 1) };
  }
  const [controller, method] = value as readonly [ClassRef, string];
  return { controller: controller.name, method };
}
