import type { RouteRecord } from '../types.js';

/**
 * A route in a few words for a comment of the generated code (`GET /user/{id} user.show`): its
 * verbs, URL (after its host, `//{account}.example.com/…`) and name, so that a reader of the
 * matcher finds the route it returns in the route table.
 */
export function describeRoute(route: RouteRecord): string {
  const verbs = route.verbs.includes('*') ? 'ANY' : route.verbs.join('|');
  const host = route.domain ? `//${route.domain.pattern}` : '';
  const text = `${verbs} ${host}${route.url}${route.name === undefined ? '' : ` ${route.name}`}`;
  // A comment ends at a line break, and `*/` would end a block comment around it.
  return text.replace(/[\r\n\u2028\u2029]/g, ' ').replace(/\*\//g, '*\\/');
}
