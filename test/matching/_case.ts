/**
 * The shape of a routing case (`cases.ts`) and the helpers that write its expected answers. A
 * case app's route answers `<its id> <the parameters it received, as JSON>` (`null`: an absent
 * one), so an answer names the route that took the request and what it was given.
 */

/** A request and the answer it must get. */
export interface Expected {
  method: string;
  target: string;
  /** The Host header [`localhost`]. */
  host?: string;
  status: number;
  body: string;
  /** The `Allow` header of a 405. */
  allow?: string;
}

/** One routing rule, its routes and the requests that show it. */
export interface Case {
  /** What the case checks. */
  name: string;
  /** The app its routes join: apart only where they would take other cases' requests. */
  app: 'main' | 'root' | 'fallback';
  /** The attributes of a group around the case's routes (`{ domain: … }`). */
  group?: string;
  /** Route id → `verb(arguments…)` and its chain, as a route file has it, less the callback. */
  routes: Record<string, string>;
  requests: Expected[];
}

/** `request` (`METHOD target [host]`) is answered by the route `id` with these parameters. */
export function hit(request: string, id: string, ...params: (string | null)[]): Expected {
  const parsed = parse(request);
  return { ...parsed, status: 200, body: parsed.method === 'HEAD' ? '' : said(id, params) };
}

/** No route takes `request`: a 404. */
export function miss(request: string): Expected {
  return { ...parse(request), status: 404, body: 'Not Found' };
}

/** The path of `request` is routed, but not for its verb: a 405 listing `allow`. */
export function notAllowed(request: string, allow: string): Expected {
  const parsed = parse(request);
  const body = parsed.method === 'HEAD' ? '' : 'Method Not Allowed';
  return { ...parsed, status: 405, body, allow };
}

/** `request` is malformed: a 400. */
export function bad(request: string): Expected {
  return { ...parse(request), status: 400, body: 'Bad Request' };
}

/** `request` carries a parameter over the limit: a 414. */
export function tooLong(request: string): Expected {
  return { ...parse(request), status: 414, body: 'URI Too Long' };
}

/** What a route of a case app answers (its callback calls the same function). */
export function said(id: string, params: unknown[]): string {
  return `${id} ${JSON.stringify(params)}`;
}

// --- internal ---

function parse(request: string): Pick<Expected, 'method' | 'target' | 'host'> {
  const [method, target, host] = request.split(' ') as [string, string, string?];
  return host === undefined ? { method, target } : { method, target, host };
}
