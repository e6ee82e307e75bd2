/**
 * Small pieces the generated matcher shares, kept here so the generated module stays data
 * and straight-line code.
 */
import { within } from './bound.js';
import { decodeParam } from '../http/path.js';
import type { RouteList } from './route-list.js';
import type { RouteTest, RouteTests } from './route-tests.js';
import { decodedPasses, matchSegments, type SegmentProgram } from './segments.js';
import { loadTree, segmentEnds, walkTo, type MatchTree } from './tree.js';
import type { MatchHit, Params } from '../types.js';

/**
 * Whether `verbs` lists `method`. Most routes list the request's verb first (`GET` of `GET`,
 * `HEAD`): it is compared before the list is searched.
 */
export function listsVerb(verbs: readonly string[], method: string): boolean {
  return verbs[0] === method || verbs.includes(method);
}

/**
 * Finds the first route matching among the dynamic ones of a large app: down the tree one path
 * segment at a time (`walkTo`), then the node's tests in order, each resuming after the literal
 * segments the walk compared. One small shared function for every route stays hot however
 * many routes there are.
 */
export function walkTree(
  tree: MatchTree,
  tests: RouteTests,
  routes: RouteList,
  method: string,
  path: string,
  host: string,
): MatchHit | undefined {
  const loaded = loadTree(tree, (route) => tests.positionOf(route));
  const { starts, entries } = loaded;
  const node = walkTo(loaded, path);
  const depth = loaded.depths[node]!;
  for (let k = starts[node]!; k < starts[node + 1]!; k++) {
    const test = tests.at(entries[k]!);
    const verbs = test.verbs;
    if (verbs !== 0 && !listsVerb(verbs, method)) continue;
    const skip = test.pieces < depth ? test.pieces : depth;
    const params = testPath(test, path, host, skip, skip === 0 ? 0 : segmentEnds[skip - 1]!);
    if (params !== undefined) return { route: routes.at(test.route), params };
  }
  return undefined;
}

/**
 * The verbs of every dynamic route whose path and host match (for `405` and `Allow`): those
 * at the node of `tree` the path reaches, or with no tree (a smaller app's), every one.
 */
export function allowedIn(
  tree: MatchTree | undefined,
  tests: RouteTests,
  path: string,
  host: string,
): string[] {
  const out: string[] = [];
  const allow = (test: RouteTest) => {
    if (test.verbs === 0 || testPath(test, path, host) === undefined) return;
    for (const verb of test.verbs) if (!out.includes(verb)) out.push(verb);
  };
  if (tree === undefined) {
    for (let k = 0; k < tests.length; k++) allow(tests.at(k));
    return out;
  }
  const loaded = loadTree(tree, (route) => tests.positionOf(route));
  const node = walkTo(loaded, path);
  for (const entry of loaded.entries.subarray(loaded.starts[node], loaded.starts[node + 1]))
    allow(tests.at(entry));
  return out;
}

/**
 * The parameters of `path` (and the host) for one route test, or `undefined`: the verb is not
 * looked at. A segment program starts at its step `from`, at `pos` of the path (`matchSegments`).
 */
export function testPath(
  test: RouteTest,
  path: string,
  host: string,
  from = 0,
  pos = 0,
): Params | undefined {
  let domain: string[] | undefined;
  const hostTest = test.host;
  if (hostTest !== 0) {
    if (typeof hostTest === 'string') {
      if (hostTest !== host) return undefined;
    } else {
      const bound = test.hostBound;
      if (bound !== 0 && !within(host, bound[0], bound[1])) return undefined;
      const m = hostTest.exec(host);
      if (m === null) return undefined;
      domain = m.slice(1);
    }
  }
  const pathTest = test.path;
  let values: (string | undefined)[];
  if (Array.isArray(pathTest)) {
    const found = matchSegments(path, pathTest as SegmentProgram, from, pos);
    if (found === undefined) return undefined;
    values = found;
  } else {
    const bound = test.pathBound;
    if (bound !== 0) {
      const head = bound[2];
      if (path.slice(0, head.length) !== head || !within(path, bound[0], bound[1]))
        return undefined;
    }
    const m = (pathTest as RegExp).exec(path);
    if (m === null) return undefined;
    const url = test.url;
    if (url === 0) {
      if (!passChecks(m, test)) return undefined;
      values = decodeAll(m, 1, m.length);
    } else {
      // A `setMatch` regex reads the path as normalised, `%2F` and `%25` encoded: it draws the
      // route's structure itself, which decoding would change. Its URL's parameters are given
      // when the URL regex matches and each passes its regex decoded, as the URL's own route.
      const u = url.exec(path);
      values =
        u === null || !passChecks(u, test)
          ? new Array<undefined>(test.urlParams).fill(undefined)
          : decodeAll(u, 1, 1 + test.urlParams);
      values.push(...decodeAll(m, 1, 1 + test.captures));
    }
  }
  return domain === undefined ? values : [...domain, ...values];
}

/** Whether each value of `m` that `test` checks again passes its regex decoded (`decodedPasses`). */
function passChecks(m: RegExpExecArray, test: RouteTest): boolean {
  for (const [group, check] of test.checks) if (!decodedPasses(m[group], check)) return false;
  return true;
}

function decodeAll(m: RegExpExecArray, from: number, to: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let k = from; k < to; k++) out.push(decodeParam(m[k]));
  return out;
}
