/**
 * Small pieces the generated matcher shares, kept here so the generated module stays data
 * and straight-line code.
 */
import { within } from './bound.js';
import { decodeParam } from '../http/path.js';
import type { RouteList } from './route-list.js';
import type { Rows } from './rows.js';
import { loadTree, segmentEnds, SKIP_LIMIT, walkTo, type MatchTree } from './tree.js';
import type { MatchHit, Params } from '../types.js';

/**
 * A route's path program for `matchSegments`: literal strings, and parameters as
 * `[optional, check]` where `check` is `0` (`\w+`, read by `wordEnd`) or an anchored regex,
 * or `[optional, 0, run]` for a run of one ASCII class, read by `runEnd` with its `charRun`.
 */
export type SegmentProgram = readonly (
  | string
  | readonly [optional: 0 | 1, check: RegExp | 0]
  | readonly [optional: 0 | 1, check: 0, run: Uint8Array]
)[];

/**
 * Runs a path program (see the compiler's segments emitter): literals compared in place, each
 * parameter one `/`-separated segment, checked as it is read and sliced. One shared function
 * for every route keeps the generated module small and this code hot. `from` and `pos` resume
 * it after steps already known to match (the literal segments a tree walk compared): the
 * program's step `from` is tried at `pos` of the path. The first two values are kept in
 * variables, so a miss allocates nothing and a hit one array of the right size.
 */
export function matchSegments(
  path: string,
  program: SegmentProgram,
  from = 0,
  pos = 0,
): (string | undefined)[] | undefined {
  let count = 0;
  let first: string | undefined;
  let second: string | undefined;
  let more: (string | undefined)[] | undefined;
  const n = path.length;
  for (let k = from; k < program.length; k++) {
    const step = program[k]!;
    if (typeof step === 'string') {
      // A slice compared with `===` costs less than `startsWith` in V8.
      if (path.slice(pos, pos + step.length) !== step) return undefined;
      pos += step.length;
      continue;
    }
    let value: string | undefined;
    // A path of the root alone (`/`) is one without a first parameter (`/{lang?}`).
    if (pos >= n || (pos === 0 && n === 1 && path.charCodeAt(0) === 47)) {
      if (step[0] === 0) return undefined;
      pos = n;
    } else {
      if (path.charCodeAt(pos) !== 47 /* '/' */) return undefined;
      const check = step[1];
      let end: number;
      if (check === 0) {
        // A word, or a run of one class without `%`: nothing to decode.
        end = step.length === 3 ? runEnd(path, pos + 1, step[2]) : wordEnd(path, pos + 1);
        if (end === pos + 1 || (end < n && path.charCodeAt(end) !== 47)) return undefined;
        value = path.slice(pos + 1, end);
      } else {
        end = path.indexOf('/', pos + 1);
        if (end === -1) end = n;
        if (end === pos + 1) return undefined;
        value = path.slice(pos + 1, end);
        if (!check.test(value)) return undefined;
        value = decodeParam(value);
      }
      pos = end;
    }
    if (count === 0) first = value;
    else if (count === 1) second = value;
    else (more ??= []).push(value);
    count++;
  }
  if (pos !== n) return undefined;
  if (count === 0) return [];
  if (count === 1) return [first];
  return more === undefined ? [first, second] : [first, second, ...more];
}

/**
 * Whether `verbs` lists `method`. Most routes list the request's verb first (`GET` of `GET`,
 * `HEAD`): it is compared before the list is searched.
 */
export function listsVerb(verbs: readonly string[], method: string): boolean {
  return verbs[0] === method || verbs.includes(method);
}

/**
 * The position of the first character from `start` on that is not `\w` (`[A-Za-z0-9_]`, the
 * default parameter rule), or the end: a word parameter's value is read as its end is found.
 */
export function wordEnd(text: string, start: number): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0-9, A-Z, _, a-z
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122)))
      return i;
  }
  return i;
}

/**
 * The table `runEnd` reads for a parameter that is a run of one ASCII class (`[0-9]+`): `1` at
 * the code of each of `members`, the class's characters as the build listed them (ASCII,
 * neither `/` nor `%`).
 */
export function charRun(members: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let k = 0; k < members.length; k++) set[members.charCodeAt(k)] = 1;
  return set;
}

/**
 * The position of the first character from `start` on that `set` (`charRun`) does not hold,
 * or the end: such a parameter's value is read as its end is found, as a word's is.
 */
export function runEnd(text: string, start: number, set: Uint8Array): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127 || set[c] === 0) return i;
  }
  return i;
}

/**
 * A route as `testPath` reads it (one the generated code does not test inline): its index,
 * verbs (`0`: every verb), host (`0`: any), path test (a segment program, or an anchored regex
 * whose groups are the URL parameters, or a `setMatch` regex), for `setMatch` routes the URL
 * regex, the counts of both kinds, and when a regex reads the whole host or path, what bounds
 * the string it may run on (`within`): literal characters and parameters of each.
 */
export type RouteTest = readonly [
  route: number,
  verbs: readonly string[] | 0,
  host: RegExp | string | 0,
  path: SegmentProgram | RegExp,
  url: RegExp | 0,
  urlParams: number,
  captures: number,
  bound: RegexBound,
];

/**
 * `[host fixed, host parameters, path fixed, path parameters, path head]` (the head: the literal
 * every path the path regex matches starts with), or `0` when no such regex runs.
 */
export type RegexBound = readonly [number, number, number, number, string] | 0;

/**
 * Finds the first route matching among the dynamic ones of a large app: down the tree one path
 * segment at a time (`walkTo`), then the node's tests in order, each resuming after the literal
 * segments the walk compared. One small shared function for every route stays hot however
 * many routes there are.
 */
export function walkTree(
  tree: MatchTree,
  tests: Rows<RouteTest>,
  routes: RouteList,
  method: string,
  path: string,
  host: string,
): MatchHit | undefined {
  const loaded = loadTree(tree);
  const { starts, entries } = loaded;
  const node = walkTo(loaded, path);
  for (let k = starts[node]!; k < starts[node + 1]!; k++) {
    const entry = entries[k]!;
    const test = tests.at((entry / SKIP_LIMIT) | 0);
    const verbs = test[1];
    if (verbs !== 0 && !listsVerb(verbs, method)) continue;
    const skip = entry % SKIP_LIMIT;
    const params = testPath(test, path, host, skip, skip === 0 ? 0 : segmentEnds[skip - 1]!);
    if (params !== undefined) return { route: routes.at(test[0]), params };
  }
  return undefined;
}

/** The `allowedIn` view of route tests. */
export function testedRoutes(tests: Rows<RouteTest>): DynamicRoute[] {
  return Array.from({ length: tests.length }, (_, k) => {
    const test = tests.at(k);
    return [test[1], (path: string, host: string) => testPath(test, path, host)] as const;
  });
}

/**
 * A dynamic route for `allowedIn`: its verbs (`0`: every verb) and its generated path test.
 */
export type DynamicRoute = readonly [
  verbs: readonly string[] | 0,
  test: (path: string, host: string) => Params | undefined,
];

/** The verbs of every dynamic route whose path and host match (for `405` and `Allow`). */
export function allowedIn(
  tree: MatchTree,
  routes: readonly DynamicRoute[],
  path: string,
  host: string,
): string[] {
  const out: string[] = [];
  const loaded = loadTree(tree);
  const node = walkTo(loaded, path);
  for (const entry of loaded.entries.subarray(loaded.starts[node], loaded.starts[node + 1])) {
    const [verbs, test] = routes[(entry / SKIP_LIMIT) | 0]!;
    if (verbs === 0 || test(path, host) === undefined) continue;
    for (const verb of verbs) if (!out.includes(verb)) out.push(verb);
  }
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
  const hostTest = test[2];
  const bound = test[7];
  if (hostTest !== 0) {
    if (typeof hostTest === 'string') {
      if (hostTest !== host) return undefined;
    } else {
      if (bound !== 0 && !within(host, bound[0], bound[1])) return undefined;
      const m = hostTest.exec(host);
      if (m === null) return undefined;
      domain = m.slice(1);
    }
  }
  const pathTest = test[3];
  let values: (string | undefined)[];
  if (Array.isArray(pathTest)) {
    const found = matchSegments(path, pathTest as SegmentProgram, from, pos);
    if (found === undefined) return undefined;
    values = found;
  } else {
    if (bound !== 0) {
      const head = bound[4];
      if (path.slice(0, head.length) !== head || !within(path, bound[2], bound[3]))
        return undefined;
    }
    const m = (pathTest as RegExp).exec(path);
    if (m === null) return undefined;
    const url = test[4];
    if (url === 0) values = decodeAll(m, 1, m.length);
    else {
      const u = url.exec(path);
      values =
        u === null ? new Array<undefined>(test[5]).fill(undefined) : decodeAll(u, 1, 1 + test[5]);
      values.push(...decodeAll(m, 1, 1 + test[6]));
    }
  }
  return domain === undefined ? values : [...domain, ...values];
}

function decodeAll(m: RegExpExecArray, from: number, to: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let k = from; k < to; k++) out.push(decodeParam(m[k]));
  return out;
}
