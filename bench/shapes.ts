// One route set built in several matcher shapes, each one's lookups (the server's
// `resolveTarget`) timed side by side in one process: what a shape or threshold gains.
// `npx tsx bench/shapes.ts [standard | scale N | statics N | wide] ['{"name": thresholds, …}']`, e.g.
// `npx tsx bench/shapes.ts standard '{"code": {}, "walker": {"inlineMax": 0}}'`. The first shape
// is the one the others are compared with (`x/first`, fresh strings). Each shape's app runs on a
// copy of the built runtime of its own, as `bench:compare`'s two sides do: code shared between
// shapes would carry one shape's type feedback into the other's.
import { cpSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type MatcherThresholds } from '../compiler/index.js';
import type { resolveTarget as ResolveTarget } from '../runtime/http/target.js';
import type { RouteTable } from '../runtime/types.js';
import { checkout, ROOT } from './checkout.js';
import { measureLookups } from './lookup.js';
import { scaleRoutes, STANDARD_CASES, STANDARD_ROUTES, type BenchRoute } from './route-sets.js';
import { writeCourseApp, type Contender } from './routers.js';
import { benchDir } from './temp.js';

type Case = [name: string, requests: (readonly [string, string])[]];

const [set = 'standard', ...rest] = process.argv.slice(2);
const size = set === 'scale' || set === 'statics' ? Number(rest.shift()) : undefined;
const shapes = JSON.parse(rest[0] ?? '{"default": {}}') as Record<
  string,
  Partial<MatcherThresholds>
>;

const { routes, cases } = routeSet();
const contenders: Contender[] = [];
for (const [name, thresholds] of Object.entries(shapes)) {
  const dir = benchDir(`shape-${name}`);
  const runtime = benchDir(`runtime-${name}`);
  for (const part of ['package.json', 'dist'])
    cpSync(path.join(ROOT, 'runtime', part), path.join(runtime, part), { recursive: true });
  writeCourseApp(dir, routes, false, { ...checkout(ROOT), runtime });
  await build({ root: dir, thresholds: { inlineMax: 64, staticTreeMax: 128, ...thresholds } });
  const { resolveTarget } = (await import(
    pathToFileURL(path.join(runtime, 'dist/internal.js')).href
  )) as { resolveTarget: typeof ResolveTarget };
  const { default: table } = (await import(
    pathToFileURL(path.join(dir, 'generated/routes.gen.ts')).href
  )) as { default: RouteTable };
  contenders.push({ name, lookup: (m, u) => resolveTarget(table, m, u, '')?.hit });
}
const row = (cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
row(['case', ...contenders.flatMap((c, k) => [`${c.name} ns`, ...(k > 0 ? ['x/first'] : [])])]);
row(['---', ...contenders.flatMap((_, k) => ['---:', ...(k > 0 ? ['---:'] : [])])]);
for (const [name, requests] of cases) {
  const results = await measureLookups(contenders, requests, { smoke: false }, 3);
  const first = results[0]!.fresh;
  row([
    name,
    ...results.flatMap((r, k) => [
      r.fresh.toFixed(1),
      ...(k > 0 ? [(r.fresh / first).toFixed(2)] : []),
    ]),
  ]);
}

/** The route set named on the command line, and its cases. */
function routeSet(): { routes: BenchRoute[]; cases: Case[] } {
  if (set === 'scale') {
    const app = scaleRoutes(size!);
    const dynamic = (url: string) => /\/[pn]\d+\//.test(url);
    return {
      routes: app.routes,
      cases: [
        ['static', app.urls.filter((u) => !dynamic(u)).map((u) => ['GET', u] as const)],
        ['dynamic', app.urls.filter(dynamic).map((u) => ['GET', u] as const)],
      ],
    };
  }
  if (set === 'statics') {
    // Static paths alone, in 23 groups of one first segment, each looked up in turn.
    const paths = Array.from({ length: size! }, (_, i) => `/s${i % 23}/page${i}`);
    return {
      routes: paths.map((path) => ({ method: 'GET', path })),
      cases: [[`${size} static paths`, paths.map((p) => ['GET', p] as const)]],
    };
  }
  if (set === 'wide') {
    // An API of 40 resources: 40 first segments under the root node.
    const ids = Array.from({ length: 40 }, (_, i) => i);
    return {
      routes: ids.map((i) => ({ method: 'GET', path: `/section${i}/:id` })),
      cases: [['40 first segments', ids.map((i) => ['GET', `/section${i}/${i}`] as const)]],
    };
  }
  return {
    routes: STANDARD_ROUTES,
    cases: [
      ...STANDARD_CASES.map(([name, method, url]): Case => [name, [[method, url]]]),
      ['all together', STANDARD_CASES.map(([, method, url]) => [method, url] as const)],
    ],
  };
}
