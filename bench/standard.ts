import { measureLookups, type LookupResult, type RunOptions } from './lookup.js';
import { QUERY_CASES, STANDARD_CASES, STANDARD_ROUTES } from './route-sets.js';
import * as routers from './routers.js';
import type { Contender } from './routers.js';

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
  // "All together" is the case the targets read: more rounds, so one slow spell moves the
  // median less.
  return measureCases(contenders, STANDARD_CASES, options, options.smoke ? 1 : 4);
}

/**
 * The standard set's cases with a query string, for the routers that take a raw target and cut
 * its query themselves (Course, find-my-way; `measureLookups` checks each finds every case);
 * the others are given the path alone by their servers, and would miss.
 */
export async function runQueries(options: RunOptions): Promise<StandardResults> {
  const contenders = [
    await routers.course(STANDARD_ROUTES, 'query'),
    routers.findMyWay(STANDARD_ROUTES),
    routers.findMyWay(STANDARD_ROUTES, true),
  ];
  return measureCases(contenders, QUERY_CASES, options);
}

/** Each case alone, then every case in turn ("all together", measured over `allRounds`). */
async function measureCases(
  contenders: Contender[],
  cases: typeof STANDARD_CASES,
  options: RunOptions,
  allRounds?: number,
): Promise<StandardResults> {
  const out: StandardResults = [];
  for (const [name, method, url] of cases) {
    out.push([name, await measureLookups(contenders, [[method, url]], options)]);
  }
  const all = cases.map(([, method, url]) => [method, url] as const);
  out.push(['all together', await measureLookups(contenders, all, options, allRounds)]);
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
