import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import FindMyWay from 'find-my-way';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import KoaTreeRouter from 'koa-tree-router';
import MedleyRouter from '@medley/router';
import { Memoirist } from 'memoirist';
import { addRoute, createRouter, findRoute } from 'rou3';
import { compileRouter } from 'rou3/compiler';
import { build } from '../compiler/index.js';
import { checkout, ROOT, type Checkout } from './checkout.js';
import { resolveTarget } from '../runtime/http/target.js';
import type { RouteTable } from '../runtime/types.js';
import type { BenchRoute } from './route-sets.js';
import { benchDir } from './temp.js';

/** A router under test: `lookup(method, url)` returns what it found. */
export interface Contender {
  name: string;
  lookup: (method: string, url: string) => unknown;
}

type Route = BenchRoute & { regex?: string };
const noop = () => undefined;

/** Course: the route set built with the real compiler, the generated module imported. */
export async function course(routes: Route[], label = 'course'): Promise<Contender> {
  const table = await buildTable(routes, label);
  return {
    name: 'course',
    // What the server does with a request target: see `resolveTarget`.
    lookup: (method, url) => resolveTarget(table, method, url, '')?.hit,
  };
}

/**
 * Builds `routes` into a generated module in a temporary app and imports it; with `code`, by
 * the compiled compiler and runtime of that checkout (`bench/compare.ts`).
 */
export async function buildTable(
  routes: Route[],
  label: string,
  code?: Checkout,
): Promise<RouteTable> {
  const dir = benchDir(label);
  writeCourseApp(dir, routes, false, code);
  const compiler =
    code === undefined
      ? { build }
      : ((await import(pathToFileURL(code.compiler).href)) as { build: typeof build });
  await compiler.build({ root: dir });
  const mod = (await import(pathToFileURL(path.join(dir, 'generated/routes.gen.ts')).href)) as {
    default: RouteTable;
  };
  return mod.default;
}

/**
 * Writes a Course app for `routes` (`:p` → `{p}`, `*` → `{path}` matching slashes), every
 * route calling one controller method; `course-router` is the one of the checkout `code`.
 */
export function writeCourseApp(
  dir: string,
  routes: Route[],
  named = false,
  code: Checkout = checkout(ROOT),
): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(code.runtime, path.join(dir, 'node_modules/course-router'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const lines = routes.map((r, i) => {
    const url = r.path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
    const where = r.path.endsWith('*')
      ? `.where('path', '.*')`
      : r.regex
        ? `.where('a', ${JSON.stringify(r.regex)})`
        : '';
    const name = named ? `.name('r${i}')` : '';
    return `Course.match([${JSON.stringify(r.method)}], ${JSON.stringify(url)}, 'Bench@handle')${where}${name};`;
  });
  // One controller method for every route, as the other routers get one shared function.
  mkdirSync(path.join(dir, 'app/Components/Controller'), { recursive: true });
  writeFileSync(
    path.join(dir, 'app/Components/Controller/Bench.ts'),
    'export class Bench {\n  handle() {\n    return null;\n  }\n}\n',
  );
  writeFileSync(
    path.join(dir, 'routes.ts'),
    `import { Course } from 'course-router';\n${lines.join('\n')}\n`,
  );
}

export function findMyWay(routes: Route[], compiled = false): Contender {
  const router = FindMyWay();
  for (const r of routes)
    router.on(r.method as 'GET', r.regex ? r.path.replace(':a', `:a(^${r.regex}$)`) : r.path, noop);
  if (compiled) router.compile();
  return {
    name: compiled ? 'find-my-way compile()' : 'find-my-way',
    lookup: (m, u) => router.find(m as 'GET', u),
  };
}

export function honoRegExp(routes: Route[]): Contender {
  const router = new RegExpRouter<() => void>();
  for (const r of routes)
    router.add(r.method, r.regex ? r.path.replace(':a', `:a{${r.regex}}`) : r.path, noop);
  return { name: 'hono RegExpRouter', lookup: (m, u) => router.match(m, u) };
}

export function rou3(routes: Route[], compiled = false): Contender {
  const router = createRouter<() => void>();
  for (const r of routes) addRoute(router, r.method, r.path.replace(/\*$/, '**'), noop);
  if (!compiled) return { name: 'rou3', lookup: (m, u) => findRoute(router, m, u) };
  const match = compileRouter(router);
  return { name: 'rou3 compiled', lookup: (m, u) => match(m, u) };
}

export function memoirist(routes: Route[]): Contender {
  const router = new Memoirist<() => void>();
  for (const r of routes) router.add(r.method, r.path, noop);
  return { name: 'memoirist', lookup: (m, u) => router.find(m, u) };
}

export function koaTree(routes: Route[]): Contender {
  const router = new KoaTreeRouter();
  for (const r of routes) router.on(r.method, r.path.replace(/\*$/, '*path'), noop);
  const find = (router as unknown as { find(m: string, u: string): unknown }).find.bind(router);
  return { name: 'koa-tree-router', lookup: (m, u) => find(m, u) };
}

export function medley(routes: Route[]): Contender {
  const router = new MedleyRouter();
  for (const r of routes) {
    const store = router.register(r.path) as Record<string, unknown>;
    store[r.method] = noop;
  }
  return { name: '@medley/router', lookup: (_m, u) => router.find(u) };
}

/** The physical limit: one `Map.get` on the exact path. */
export function mapGet(urls: string[]): Contender {
  const map = new Map(urls.map((u) => [u, noop]));
  return { name: 'Map.get (limit)', lookup: (_m, u) => map.get(u) };
}
