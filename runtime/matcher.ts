/**
 * Small pieces the generated matcher shares, kept here so the generated module stays data
 * and straight-line code.
 */
import { decodeParam } from './path.js';
import type { RouteList } from './data/routes.js';
import { Rows } from './data/rows.js';
import type { HandlerInstance, Instantiable, MatchHit, Params } from './types.js';

/** A group with exception handlers: its prefix regex, host, and handlers. */
export type HandlerGroup = readonly [
  prefix: RegExp,
  host: RegExp | string | undefined,
  handlers: readonly Instantiable<HandlerInstance>[],
];

/**
 * Whether `text` from `start` to `end` is one or more `\w` characters (`[A-Za-z0-9_]`, the
 * default parameter rule), read in place.
 */
export function isWordIn(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    // 0-9, A-Z, _, a-z
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122)))
      return false;
  }
  return true;
}

/** The handlers of the groups (innermost first) whose prefix and host match. */
export function handlersOf(
  groups: readonly HandlerGroup[],
  path: string,
  host: string,
): Instantiable<HandlerInstance>[] {
  const out: Instantiable<HandlerInstance>[] = [];
  for (const [prefix, domain, handlers] of groups) {
    if (hostMatches(domain, host) && prefix.test(path)) out.push(...handlers);
  }
  return out;
}

// --- internal ---

function hostMatches(domain: RegExp | string | undefined, host: string): boolean {
  return domain === undefined || (typeof domain === 'string' ? domain === host : domain.test(host));
}

/**
 * A route's path program for `matchSegments`: literal strings, and parameters as
 * `[optional, check]` where `check` is `0` (`\w+`, checked by `isWordIn`) or an anchored regex.
 */
export type SegmentProgram = readonly (string | readonly [optional: 0 | 1, check: RegExp | 0])[];

/**
 * Runs a path program (see the compiler's segments emitter): literals compared in place, each
 * parameter one `/`-separated segment found with `indexOf`, checked, and sliced. One shared
 * function for every route keeps the generated module small and this code hot.
 */
export function matchSegments(
  path: string,
  program: SegmentProgram,
): (string | undefined)[] | undefined {
  let values: (string | undefined)[] | undefined;
  let pos = 0;
  for (let k = 0; k < program.length; k++) {
    const step = program[k]!;
    if (typeof step === 'string') {
      // A slice compared with `===` costs less than `startsWith` in V8.
      if (path.slice(pos, pos + step.length) !== step) return undefined;
      pos += step.length;
      continue;
    }
    if (pos >= path.length) {
      if (step[0] === 0) return undefined;
      (values ??= []).push(undefined);
      continue;
    }
    if (path.charCodeAt(pos) !== 47 /* '/' */) return undefined;
    let end = path.indexOf('/', pos + 1);
    if (end === -1) end = path.length;
    if (end === pos + 1) return undefined;
    const check = step[1];
    if (check === 0) {
      // A word has no `%`: nothing to decode.
      if (!isWordIn(path, pos + 1, end)) return undefined;
      (values ??= []).push(path.slice(pos + 1, end));
    } else {
      const value = path.slice(pos + 1, end);
      if (!check.test(value)) return undefined;
      (values ??= []).push(decodeParam(value));
    }
    pos = end;
  }
  return pos === path.length ? (values ?? []) : undefined;
}

/**
 * A route as `testPath` reads it (one the generated code does not test inline): its index,
 * verbs (`0`: every verb), host (`0`: any), path test (a segment program, or an anchored regex
 * whose groups are the URL parameters, or a `setMatch` regex), and for `setMatch` routes the
 * URL regex and the counts of both kinds.
 */
export type RouteTest = readonly [
  route: number,
  verbs: readonly string[] | 0,
  host: RegExp | string | 0,
  path: SegmentProgram | RegExp,
  url: RegExp | 0,
  urlParams: number,
  captures: number,
];

/** A node of the dynamic-route tree: children by path segment, and the tests to run here. */
export interface MatchNode {
  /** Children by the hash of their segment (`segmentHash`), the few that share one in a list. */
  readonly c: ReadonlyMap<number, readonly MatchChild[]> | undefined;
  /** Route tests, in registration order (at an inner node: those that fix no segment here). */
  readonly t: readonly number[];
}

/** A child node and the segment that leads to it: its row in the tree, the node once parsed. */
export interface MatchChild {
  readonly segment: string;
  readonly row: number;
  node: MatchNode | undefined;
}

/** The dynamic-route tree: its nodes by row, each parsed on first visit, and its root. */
export interface MatchTree {
  readonly rows: Rows<MatchNode>;
  root: MatchNode | undefined;
}

/**
 * Reads the generated tree (`count` rows of `[tests, hash, segment, row, …]`, the root first),
 * whose segment hashes were computed at build time. A request's segment is hashed in place
 * (`segmentHash`), so it is neither copied out of the path nor looked up as a property (which
 * would search V8's table of every string the process holds); a segment never reaches a
 * prototype. Nodes are parsed as requests reach them: loading the module parses none.
 */
export function parseTree(text: string, count: number): MatchTree {
  return { rows: new Rows(text, count, toNode), root: undefined };
}

type TreeRow = [tests: number[], ...children: (number | string)[]];

function toNode(row: TreeRow): MatchNode {
  if (row.length === 1) return { c: undefined, t: row[0] };
  const children = new Map<number, MatchChild[]>();
  for (let k = 1; k < row.length; k += 3) {
    const hash = row[k] as number;
    const entry: MatchChild = {
      segment: row[k + 1] as string,
      row: row[k + 2] as number,
      node: undefined,
    };
    const list = children.get(hash);
    if (list === undefined) children.set(hash, [entry]);
    else list.push(entry);
  }
  return { c: children, t: row[0] };
}

/** A hash of `text` from `start` to `end`, read in place. */
export function segmentHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Finds the first route matching among the dynamic ones of a large app: down the tree one path
 * segment at a time (one `indexOf` and one property read per level), then the node's tests in
 * order. One small shared function for every route stays hot however many routes there are.
 */
export function walkTree(
  tree: MatchTree,
  tests: Rows<RouteTest>,
  routes: RouteList,
  method: string,
  path: string,
  host: string,
): MatchHit | undefined {
  const list = nodeFor(tree, path).t;
  for (let k = 0; k < list.length; k++) {
    const test = tests.at(list[k]!);
    const verbs = test[1];
    if (verbs !== 0 && !verbs.includes(method)) continue;
    const params = testPath(test, path, host);
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
  for (const k of nodeFor(tree, path).t) {
    const [verbs, test] = routes[k]!;
    if (verbs === 0 || test(path, host) === undefined) continue;
    for (const verb of verbs) if (!out.includes(verb)) out.push(verb);
  }
  return out;
}

/** The parameters of `path` (and the host) for one route test, or `undefined`: the verb is not looked at. */
export function testPath(test: RouteTest, path: string, host: string): Params | undefined {
  let domain: string[] | undefined;
  const hostTest = test[2];
  if (hostTest !== 0) {
    if (typeof hostTest === 'string') {
      if (hostTest !== host) return undefined;
    } else {
      const m = hostTest.exec(host);
      if (m === null) return undefined;
      domain = m.slice(1);
    }
  }
  const pathTest = test[3];
  let values: (string | undefined)[];
  if (Array.isArray(pathTest)) {
    const found = matchSegments(path, pathTest as SegmentProgram);
    if (found === undefined) return undefined;
    values = found;
  } else {
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

/** The deepest node whose segments the path has: it lists every route that can match. */
function nodeFor(tree: MatchTree, path: string): MatchNode {
  let node = tree.root ?? rootOf(tree);
  let start = 1;
  while (node.c !== undefined) {
    let end = path.indexOf('/', start);
    // Past the end of the path, the segment is empty.
    if (end === -1) end = path.length < start ? start : path.length;
    const found = node.c.get(segmentHash(path, start, end));
    if (found === undefined) break;
    let child: MatchChild | undefined;
    if (found.length === 1) {
      // One segment of this node has the hash: it is not read. A request segment that only
      // shares the hash leads to routes that either fix the other segment (their tests fail)
      // or fix none here (they are in every child as well): the same routes match.
      if (found[0]!.segment.length === end - start) child = found[0];
    } else {
      for (let k = 0; k < found.length; k++) {
        const { segment } = found[k]!;
        if (segment.length === end - start && sameAt(path, start, segment)) {
          child = found[k]!;
          break;
        }
      }
    }
    if (child === undefined) break;
    node = child.node ?? childOf(tree, child);
    start = end + 1;
  }
  return node;
}

/** Whether `path` has `segment` at `start`, compared in place (no slice of the path). */
function sameAt(path: string, start: number, segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    if (path.charCodeAt(start + i) !== segment.charCodeAt(i)) return false;
  }
  return true;
}

// Kept out of `nodeFor`, so that it stays small enough for V8 to inline.
function rootOf(tree: MatchTree): MatchNode {
  return (tree.root = tree.rows.at(0));
}

function childOf(tree: MatchTree, child: MatchChild): MatchNode {
  return (child.node = tree.rows.at(child.row));
}

function decodeAll(m: RegExpExecArray, from: number, to: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let k = from; k < to; k++) out.push(decodeParam(m[k]));
  return out;
}
