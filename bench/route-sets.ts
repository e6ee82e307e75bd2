/** A route in the neutral `:param` / `*` syntax every adapter translates. */
export interface BenchRoute {
  method: string;
  path: string;
}

/** The standard 12-route set of delvedor's router-benchmark. */
export const STANDARD_ROUTES: BenchRoute[] = [
  { method: 'GET', path: '/user' },
  { method: 'GET', path: '/user/comments' },
  { method: 'GET', path: '/user/avatar' },
  { method: 'GET', path: '/user/lookup/username/:username' },
  { method: 'GET', path: '/user/lookup/email/:address' },
  { method: 'GET', path: '/event/:id' },
  { method: 'GET', path: '/event/:id/comments' },
  { method: 'POST', path: '/event/:id/comment' },
  { method: 'GET', path: '/map/:location/events' },
  { method: 'GET', path: '/status' },
  { method: 'GET', path: '/very/deeply/nested/route/hello/there' },
  { method: 'GET', path: '/static/*' },
];

/** The set's cases: one request each; "all together" runs them in turn. */
export const STANDARD_CASES: [name: string, method: string, url: string][] = [
  ['short static', 'GET', '/user'],
  ['static with same radix', 'GET', '/user/comments'],
  ['dynamic route', 'GET', '/user/lookup/username/john'],
  ['mixed static dynamic', 'GET', '/event/abcd1234/comments'],
  ['long static', 'GET', '/very/deeply/nested/route/hello/there'],
  ['wildcard', 'GET', '/static/index.html'],
];

/**
 * The set's cases with a query string, as most requests of a real app carry one: only the path
 * before it names the route.
 */
export const QUERY_CASES: [name: string, method: string, url: string][] = STANDARD_CASES.map(
  ([name, method, url]) => [name, method, `${url}?page=2&sort=name`],
);

/** A route set of `count` routes: 60% static, 35% with 1–2 parameters, 5% regex-constrained. */
export function scaleRoutes(count: number): {
  routes: (BenchRoute & { regex?: string })[];
  urls: string[];
} {
  const routes: (BenchRoute & { regex?: string })[] = [];
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = `/r${Math.floor(i / 10)}`;
    const kind = i % 20;
    if (kind < 12) {
      routes.push({ method: 'GET', path: `${base}/s${i}` });
      urls.push(`${base}/s${i}`);
    } else if (kind < 19) {
      const two = kind % 2 === 0;
      routes.push({ method: 'GET', path: `${base}/p${i}/:a${two ? '/x/:b' : ''}` });
      urls.push(`${base}/p${i}/v${i}${two ? '/x/w' : ''}`);
    } else {
      routes.push({ method: 'GET', path: `${base}/n${i}/:a`, regex: '[0-9]+' });
      urls.push(`${base}/n${i}/${i}`);
    }
  }
  // The shape most apps have: a static route beside a parameter at the same level.
  routes.push({ method: 'GET', path: '/x/list' }, { method: 'GET', path: '/x/:id' });
  urls.push('/x/list', '/x/42');
  return { routes, urls };
}
