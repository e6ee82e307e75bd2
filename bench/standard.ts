import { measureLookups, type LookupResult, type RunOptions } from './lookup.js';
import { QUERY_CASES, STANDARD_CASES, STANDARD_ROUTES } from './route-sets.js';
import * as routers from './routers.js';

/** Results per case of the standard set; "all together" last. */
export type StandardResults = [caseName: string, results: LookupResult[]][];

/** The standard 12-route set, every case and all together, for every router. */
export async function runStandard(options: RunOptions): Promise<StandardResults> {
  const contenders = [
    await routers.course(STANDARD_ROUTES, 'standard'),
    routers.findMyWay(STANDARD_ROUTES),
    routers.findMyWay(STANDARD_ROUTES, true),
    routers.honoRegExp(STANDARD_ROUTES),
    routers.memoirist(STANDARD_ROUTES),
    routers.koaTree(STANDARD_ROUTES),
    routers.medley(STANDARD_ROUTES),
    routers.rou3(STANDARD_ROUTES, true),
    routers.rou3(STANDARD_ROUTES),
    routers.mapGet(STANDARD_CASES.map(([, , url]) => url)),
  ];
  const out: StandardResults = [];
  for (const [name, method, url] of STANDARD_CASES) {
    out.push([name, await measureLookups(contenders, [[method, url]], options)]);
  }
  const all = STANDARD_CASES.map(([, method, url]) => [method, url] as const);
  // The case the targets read: more rounds, so one slow spell moves the median less.
  out.push(['all together', await measureLookups(contenders, all, options, options.smoke ? 1 : 4)]);
  return out;
}

/**
 * The standard set's cases with a query string, for the routers that take a raw target and cut
 * its query themselves (Course, find-my-way); the others are given the path alone by their
 * servers, and would miss.
 */
export async function runQueries(options: RunOptions): Promise<StandardResults> {
  const contenders = [
    await routers.course(STANDARD_ROUTES, 'query'),
    routers.findMyWay(STANDARD_ROUTES),
    routers.findMyWay(STANDARD_ROUTES, true),
  ];
  for (const { name, lookup } of contenders)
    for (const [, method, url] of QUERY_CASES)
      if (lookup(method, url) == null) throw new Error(`${name} found no route for ${url}`);
  const out: StandardResults = [];
  for (const [name, method, url] of QUERY_CASES) {
    out.push([name, await measureLookups(contenders, [[method, url]], options)]);
  }
  const all = QUERY_CASES.map(([, method, url]) => [method, url] as const);
  out.push(['all together', await measureLookups(contenders, all, options)]);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, results] of await runStandard({ smoke: process.argv.includes('--smoke') })) {
    console.log(name);
    for (const r of results)
      console.log(
        `  ${r.router.padEnd(24)} fresh ${r.fresh.toFixed(1).padStart(7)} ns   literal ${r.literal.toFixed(1).padStart(7)} ns`,
      );
  }
}
