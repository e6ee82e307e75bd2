// Old code against new, in one process: `npm run bench:compare -- <rev> [--scale N] [--rounds N] [--smoke]`.
// Builds the checkout at <rev> (a git worktree) and this one, builds the same app with each
// one's compiler, and times each one's lookups (the server's `resolveTarget`) side by side,
// alternating, on fresh and literal strings. On this machine timings move ±30% between
// processes; within one they move together, so the ratio is what to read. Last, the start-up
// of a 10,000-route app built by each (import + `Course.start()`, fresh processes taking turns)
// and the size of its generated module.
import { pathToFileURL } from 'node:url';
import { checkout, revisionCheckout, ROOT, type Checkout } from './checkout.js';
import { measureLookups, median, type LookupResult } from './lookup.js';
import {
  QUERY_CASES,
  scaleRoutes,
  STANDARD_CASES,
  STANDARD_ROUTES,
  type BenchRoute,
} from './route-sets.js';
import { buildTable, type Contender } from './routers.js';
import { startCourse, writeStartupApp } from './scale.js';
import { benchDir } from './temp.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const rev = args[0];
if (rev === undefined || rev.startsWith('--')) {
  console.error('usage: tsx bench/compare.ts <rev> [--scale N] [--rounds N] [--smoke]');
  process.exit(2);
}
const smoke = args.includes('--smoke');
const scale = option('--scale');
const rounds = Number(option('--rounds') ?? (smoke ? 1 : 3));

/** One side: the app built by `root`'s compiler, looked up by `root`'s runtime. */
async function side(name: string, code: Checkout, routes: BenchRoute[]): Promise<Contender> {
  const table = await buildTable(routes, `compare-${name}`, code);
  const { resolveTarget } = (await import(
    pathToFileURL(code.target).href
  )) as typeof import('../runtime/http/target.js');
  return { name, lookup: (method, url) => resolveTarget(table, method, url, '')?.hit };
}

const old = revisionCheckout(rev, 'compare');
try {
  const now = checkout(ROOT);
  now.compile();
  const app = scale === undefined ? undefined : scaleRoutes(Number(scale));
  const routes = app?.routes ?? STANDARD_ROUTES;
  const contenders = [await side('old', old, routes), await side('new', now, routes)];
  const cases: [string, (readonly [string, string])[]][] = app
    ? [
        ['static', app.urls.filter((u) => !/\/[pn]\d+\//.test(u)).map((u) => ['GET', u] as const)],
        ['dynamic', app.urls.filter((u) => /\/[pn]\d+\//.test(u)).map((u) => ['GET', u] as const)],
        [
          'dynamic, query',
          app.urls.filter((u) => /\/[pn]\d+\//.test(u)).map((u) => ['GET', `${u}?page=2`] as const),
        ],
      ]
    : [
        ...STANDARD_CASES.map(
          ([name, method, url]) =>
            [name, [[method, url] as const]] as [string, (readonly [string, string])[]],
        ),
        ['all together', STANDARD_CASES.map(([, method, url]) => [method, url] as const)],
        ...QUERY_CASES.map(
          ([name, method, url]) =>
            [`${name}, query`, [[method, url] as const]] as [string, (readonly [string, string])[]],
        ),
      ];
  const row = (cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
  row([
    `${rev} → working tree`,
    'old fresh ns',
    'new fresh ns',
    'new/old',
    'old literal ns',
    'new literal ns',
    'new/old',
  ]);
  row(['---', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const [name, requests] of cases) {
    const [old, now] = (await measureLookups(contenders, requests, { smoke }, rounds)) as [
      LookupResult,
      LookupResult,
    ];
    const f = (n: number) => n.toFixed(1);
    row([
      name,
      f(old.fresh),
      f(now.fresh),
      (now.fresh / old.fresh).toFixed(2),
      f(old.literal),
      f(now.literal),
      (now.literal / old.literal).toFixed(2),
    ]);
  }
  await startup(old, now, row);
} finally {
  old.remove();
}

/** The start-up rows: each side's 10,000-route app started in fresh processes, taking turns. */
async function startup(old: Checkout, now: Checkout, row: (cells: string[]) => void) {
  const { routes } = scaleRoutes(10_000);
  const sides = [old, now].map((code, k) => ({ code, dir: benchDir(`compare-startup-${k}`) }));
  const bytes: number[] = [];
  for (const { code, dir } of sides) bytes.push(await writeStartupApp(dir, routes, code));
  const samples = sides.map(() => [] as { ms: number; heapMB: number }[]);
  for (let run = 0; run < (smoke ? 1 : 9); run++) {
    for (const k of run % 2 === 0 ? [0, 1] : [1, 0]) samples[k]!.push(startCourse(sides[k]!.dir));
  }
  const [ms, heap] = (['ms', 'heapMB'] as const).map((key) =>
    samples.map((list) => median(list.map((s) => s[key]))),
  ) as [number[], number[]];
  row([
    'start-up, 10,000 routes: ms, heap MB',
    ms[0]!.toFixed(1),
    ms[1]!.toFixed(1),
    (ms[1]! / ms[0]!).toFixed(2),
    heap[0]!.toFixed(2),
    heap[1]!.toFixed(2),
    (heap[1]! / heap[0]!).toFixed(2),
  ]);
  row([
    'generated modules, 10,000 routes: kB',
    (bytes[0]! / 1024).toFixed(0),
    (bytes[1]! / 1024).toFixed(0),
    (bytes[1]! / bytes[0]!).toFixed(2),
    '',
    '',
    '',
  ]);
}
