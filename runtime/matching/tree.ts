/**
 * The dynamic-route tree as the runtime walks it: nodes by row, each holding the route tests
 * to try there, and the edges between them (a node's child for one literal path segment) in
 * one open-addressed table of integers, so a request's segment is hashed as it is read and
 * found without a `Map`, a slice or a property lookup.
 */
import { parseLines } from './rows.js';

/** A hash of `text` from `start` to `end`, read in place; a small integer (V8 keeps it unboxed). */
export function segmentHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash & HASH_MASK;
}

/**
 * The tree as the generated module lists it, one node per line, pre-order: `[path, route, …]`,
 * the node's literal segments as a path (`""` for the root, `"/r1/p12"`) and the numbers of the
 * routes tried there, in registration order (a route that does not fix a segment is listed at
 * every node below it). A node's parent is the node of its path without its last segment. Read
 * when a request first reaches it.
 */
export interface MatchTree {
  readonly rows: string;
  loaded: LoadedTree | undefined;
}

/** The tree as the walk reads it: every part a typed array or a list of strings. */
export interface LoadedTree {
  /** `[hash, parent, child]` per slot, `-1` in an empty slot's hash. */
  readonly table: Int32Array;
  /** `32 -` log2 of the table's slot count: a slot is the top bits of a Fibonacci hash. */
  readonly shift: number;
  /** `1` for a node with children. */
  readonly inner: Uint8Array;
  /** Each node's last segment. */
  readonly segments: readonly string[];
  /** Each node's segments as a path (`/r1/p12`; the root's is empty), which a walk is checked against. */
  readonly prefixes: readonly string[];
  /** How many of a route's leading segments a walk has compared at each node (`SKIP_LIMIT` bounds it). */
  readonly depths: Uint8Array;
  /** Where each node's entries start in `entries`, and the end after the last. */
  readonly starts: Int32Array;
  /** Positions of route tests (`RouteTests.positionOf`). */
  readonly entries: Int32Array;
}

/**
 * How many segment ends a walk records: a route resumes after at most `SKIP_LIMIT - 1` of its
 * literal segments, and compares any further ones itself.
 */
export const SKIP_LIMIT = 16;

/** Reads the generated tree; nothing is parsed until a request reaches it. */
export function parseTree(rows: string): MatchTree {
  return { rows, loaded: undefined };
}

/** The tree's typed arrays, made on first use; `position` finds a route's test. */
export function loadTree(tree: MatchTree, position: (route: number) => number): LoadedTree {
  return tree.loaded ?? (tree.loaded = load(tree.rows, position));
}

/**
 * Where each segment the last walk compared ends: `segmentEnds[s]` is the position after the
 * segment at depth `s` (a `/` or the end of the path). Written by `walkTo`, read right after it.
 */
export const segmentEnds = new Int32Array(SKIP_LIMIT);

/**
 * The deepest node whose segments `path` has (every route that can match is listed there).
 * Each segment is hashed while its end is looked for and found in the edge table by hash and
 * parent; the segments the walk took are then compared with the node's, all at once (one
 * slice compared with `===` costs V8 less than reading each segment's characters again). A hash
 * alone never takes a request to a node (a polynomial hash is easy to collide on purpose): when
 * the comparison fails, the path is walked again comparing each segment as it is taken.
 */
export function walkTo(tree: LoadedTree, path: string): number {
  const row = descend(tree, path, false);
  return row === 0 || path.slice(0, walkedEnd) === tree.prefixes[row]
    ? row
    : descend(tree, path, true);
}

// --- internal ---

/** Where the last segment `descend` took ends. */
let walkedEnd = 0;

/** The walk of `walkTo`, each segment compared with the tree's as it is taken when `compare`. */
function descend(tree: LoadedTree, path: string, compare: boolean): number {
  const { table, shift, inner, segments } = tree;
  const n = path.length;
  let row = 0;
  let start = 1;
  let depth = 0;
  walkedEnd = 0;
  if (n === 0 || path.charCodeAt(0) !== 47 /* '/' */) return 0;
  while (inner[row] === 1) {
    // `segmentHash` of the segment, computed in the same loop that finds its end.
    let hash = 0;
    let end = start;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === 47) break;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    hash &= HASH_MASK;
    let slot = slotOf(row, hash, shift) * 3;
    let child = 0;
    for (let h = table[slot]!; h !== -1; h = table[slot]!) {
      if (
        h === hash &&
        table[slot + 1] === row &&
        (!compare || sameAt(path, start, end, segments[table[slot + 2]!]!))
      ) {
        child = table[slot + 2]!;
        break;
      }
      slot += 3;
      if (slot === table.length) slot = 0;
    }
    if (child === 0) break;
    if (depth < SKIP_LIMIT) segmentEnds[depth] = end;
    depth++;
    row = child;
    walkedEnd = end;
    // Past the end of the path, the next segment is empty.
    start = end + 1;
  }
  return row;
}

const HASH_MASK = 0x3fffffff;
// The most slots of the edge table in use: probes stay short.
const LOAD = 0.5;

/**
 * The slot of the edge from `parent` for a segment's `hash`: the top bits of the product with
 * the golden ratio mix every bit of both in, so neighbouring parents and similar segments
 * (`p1`, `p2`, …) spread over the table and probes stay short.
 */
function slotOf(parent: number, hash: number, shift: number): number {
  return Math.imul(hash ^ Math.imul(parent, 0x9e3779b1), 0x9e3779b1) >>> shift;
}

function load(text: string, position: (route: number) => number): LoadedTree {
  const rows = parseLines(text) as [path: string, ...routes: number[]][];
  let bits = 2;
  while (1 << bits < rows.length / LOAD) bits++;
  const table = new Int32Array((1 << bits) * 3).fill(-1);
  const inner = new Uint8Array(rows.length);
  const depths = new Uint8Array(rows.length);
  const segments: string[] = [''];
  const prefixes: string[] = [''];
  const starts = new Int32Array(rows.length + 1);
  const entries: number[] = [];
  const nodes = new Map<string, number>([['', 0]]);
  for (let node = 0; node < rows.length; node++) {
    const [prefix, ...routes] = rows[node]!;
    starts[node] = entries.length;
    for (const route of routes) entries.push(position(route));
    if (node === 0) continue;
    const cut = prefix.lastIndexOf('/');
    const parent = nodes.get(prefix.slice(0, cut))!;
    const segment = prefix.slice(cut + 1);
    nodes.set(prefix, node);
    segments.push(segment);
    prefixes.push(prefix);
    inner[parent] = 1;
    depths[node] = Math.min(depths[parent]! + 1, SKIP_LIMIT - 1);
    let slot = slotOf(parent, segmentHash(segment, 0, segment.length), 32 - bits) * 3;
    while (table[slot] !== -1) slot = (slot + 3) % table.length;
    table.set([segmentHash(segment, 0, segment.length), parent, node], slot);
  }
  starts[rows.length] = entries.length;
  return {
    table,
    shift: 32 - bits,
    inner,
    segments,
    prefixes,
    depths,
    starts,
    entries: Int32Array.from(entries),
  };
}

/** Whether `path` from `start` to `end` is `segment`, compared in place. */
function sameAt(path: string, start: number, end: number, segment: string): boolean {
  if (end - start !== segment.length) return false;
  for (let i = 0; i < segment.length; i++) {
    if (path.charCodeAt(start + i) !== segment.charCodeAt(i)) return false;
  }
  return true;
}
