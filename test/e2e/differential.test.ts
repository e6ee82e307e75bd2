import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, writeApp } from '../_utils.js';
import { referenceAllowed, referenceMatch, type RefRoute } from '../_reference.js';

// A route set that reaches every part of the generated matcher: static paths decided at
// build time, deep shared prefixes (segment dispatch on several levels), separators, optional
// parameters, constraints, slash-matching parameters, and static paths an earlier route shadows.
function routeSet(): RefRoute[] {
  const routes: RefRoute[] = [];
  const verbs = ['GET', 'POST', 'PUT', 'DELETE'];
  for (let i = 0; i < 60; i++) {
    const verb = verbs[i % verbs.length]!;
    const group = `g${i % 7}`;
    switch (i % 10) {
      case 0:
        routes.push({ verb, url: `/api/${group}/items` });
        break;
      case 1:
        routes.push({ verb, url: `/api/${group}/items/{id}`, where: { id: '[0-9]+' } });
        break;
      case 2:
        routes.push({ verb, url: `/api/${group}/items/{id}/tags/{tag?}` });
        break;
      case 3:
        routes.push({ verb, url: `/api/${group}/file/{name}.{ext}` });
        break;
      case 4:
        routes.push({
          verb,
          url: `/api/${group}/range/{from}-{to}`,
          where: { from: '[0-9]+', to: '[0-9]+' },
        });
        break;
      case 5:
        routes.push({ verb, url: `/api/${group}/{slug}` });
        break;
      case 6:
        routes.push({ verb, url: `/api/${group}/list` });
        break;
      case 7:
        routes.push({ verb, url: `/docs/${group}/{path}`, where: { path: '.*' } });
        break;
      case 8:
        routes.push({ verb, url: `/${group}{suffix?}`, where: { suffix: '[a-z]+' } });
        break;
      default:
        routes.push({ verb, url: `/s${i}` });
    }
  }
  routes.push({ verb: 'GET', url: '/' }, { verb: 'GET', url: '/{lang?}/home' });
  // Drop exact duplicates (a build error by design).
  const seen = new Set<string>();
  return routes.filter((r) => !seen.has(`${r.verb} ${r.url}`) && seen.add(`${r.verb} ${r.url}`));
}

function requests(): string[] {
  const out = ['/', '/home', '/en/home', '/s9', '/s19', '/nothing'];
  for (let g = 0; g < 8; g++) {
    for (const tail of [
      'items',
      'items/5',
      'items/x',
      'items/5/tags',
      'items/5/tags/red',
      'file/a.txt',
      'file/a',
      'range/1-2',
      'range/a-b',
      'list',
      'hello',
      'a/b/c',
    ]) {
      out.push(`/api/g${g}/${tail}`);
    }
    out.push(`/docs/g${g}/a/b/c`, `/docs/g${g}`, `/g${g}`, `/g${g}abc`, `/g${g}1`);
  }
  return out;
}

let dir: string;
let table: RouteTable;
let bigDir: string;
let bigTable: RouteTable;
const routes = routeSet();

// Enough static paths that the generated matcher answers them from a table, not a tree, and
// enough dynamic ones that it walks them with the runtime's shared walker.
const bigRoutes: RefRoute[] = [
  ...Array.from({ length: 80 }, (_, i) => ({
    verb: i % 2 ? 'GET' : 'PUT',
    url: `/dy${i % 9}/{id}/v${i % 11}${i % 3 ? '' : '/{opt?}'}`,
    ...(i % 4 ? {} : { where: { id: '[0-9]+' } }),
  })),
  ...Array.from({ length: 200 }, (_, i) => ({
    verb: i % 3 ? 'GET' : 'POST',
    url: `/st${i % 40}/p${i}`,
  })),
  { verb: 'GET', url: '/st1/{any}' },
  { verb: 'PUT', url: '/st2/p2' },
  { verb: 'GET', url: '/{lang}/p5' },
  // `Aa` and `BB` share a segment hash: a request for one must never take the other's routes.
  { verb: 'GET', url: '/Aa/{id}/y' },
  { verb: 'GET', url: '/Aa/k' },
  { verb: 'GET', url: '/{lang}/{id}/y' },
];

function bigPaths(): string[] {
  return [
    ...bigRoutes.flatMap((r) => {
      const url = r.url.replace('{any}', 'zz').replace('{lang}', 'en');
      return [
        url.replace('{id}', '42').replace('/{opt?}', ''),
        url.replace('{id}', 'ab').replace('{opt?}', 'o'),
      ];
    }),
    '/st1/p999',
    '/st3',
    '/nope/p5',
    '/dy1/42/v99',
    '/BB/42/y',
    '/BB/k',
    '/BB/p5',
    '/Aa/p5',
  ];
}

async function buildRoutes(list: RefRoute[]): Promise<[string, RouteTable]> {
  const lines = list.map(
    (r) =>
      `Course.match(['${r.verb.toLowerCase()}'], '${r.url}', (...p: unknown[]) => p)${r.where ? `.where(${JSON.stringify(r.where)})` : ''};`,
  );
  const app = writeApp({
    'routes.ts': `import { Course } from 'course-router';\n${lines.join('\n')}\n`,
  });
  const result = await cli(['build', '--root', app]);
  expect(result.code, result.stderr).toBe(0);
  return [app, await importTable(app)];
}

beforeAll(async () => {
  [bigDir, bigTable] = await buildRoutes(bigRoutes);
  const lines = routes.map(
    (r) =>
      `Course.match(['${r.verb.toLowerCase()}'], '${r.url}', (...p: unknown[]) => p)${r.where ? `.where(${JSON.stringify(r.where)})` : ''};`,
  );
  dir = writeApp({ 'routes.ts': `import { Course } from 'course-router';\n${lines.join('\n')}\n` });
  const result = await cli(['build', '--root', dir]);
  expect(result.code, result.stderr).toBe(0);
  table = await importTable(dir);
});

afterAll(() => {
  removeApp(dir);
  removeApp(bigDir);
});

describe('the generated matcher agrees with the reference matcher', () => {
  it.each(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH'])(
    'for every request with %s',
    (verb) => {
      for (const path of requests()) {
        const expected = referenceMatch(routes, verb, path);
        const hit = table.match(verb, path, '');
        const actual = hit && { index: table.routes.indexOf(hit.route), params: [...hit.params] };
        expect(actual, `${verb} ${path}`).toEqual(expected);
      }
    },
  );

  it.each(['GET', 'POST', 'PUT', 'HEAD'])(
    'with 200 static paths (a table) and 80 dynamic routes (the shared walker) for %s',
    (verb) => {
      for (const path of bigPaths()) {
        const expected = referenceMatch(bigRoutes, verb, path);
        const hit = bigTable.match(verb, path, '');
        const actual = hit && {
          index: bigTable.routes.indexOf(hit.route),
          params: [...hit.params],
        };
        expect(actual, `${verb} ${path}`).toEqual(expected);
      }
    },
  );
  it('agrees on the verbs a path allows (405 and Allow)', () => {
    for (const path of requests()) {
      expect([...table.allowed(path, '')].sort(), path).toEqual(referenceAllowed(routes, path));
    }
    for (const path of bigPaths()) {
      expect([...bigTable.allowed(path, '')].sort(), path).toEqual(
        referenceAllowed(bigRoutes, path),
      );
    }
  });
});
