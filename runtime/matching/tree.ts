/**
 * The dynamic-route tree as the runtime walks it: nodes by row, each holding the route tests
 * to try there, and the edges between them (a node's child for one literal path segment) in
 * one open-addressed table of integers, so a request's segment is hashed as it is read and
 * found without a `Map`, a slice or a property lookup.
 */

/** A hash of `text` from `start` to `end`, read in place; a small integer (V8 keeps it unboxed). */
export function segmentHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash & HASH_MASK;
}

/**
 * The tree as generated, JSON `{ starts, entries, pool, edges }`, read when a request first
 * reaches it. Nodes are numbered from the root, `0`; node `r`'s route tests are `entries` from
 * `starts[r]` to `starts[r + 1]`, each a test's position × `SKIP_LIMIT` + how many of the route's
 * leading literal segments the walk has compared on the way to the node. `edges` is `[hash,
 * parent, child, at, …]`, where `pool` holds the child's segment at `at` as its length (two
 * characters, the high and low 16 bits) then its characters: one string holds every segment, so
 * comparing them reads few cache lines.
 */
export interface MatchTree {
  readonly json: string;
  loaded: LoadedTree | undefined;
}

/** The tree as the walk reads it: every part a typed array or one string. */
export interface LoadedTree {
  /** `[hash, parent, child, at]` per slot (`at`: the child's segment in `pool`), `-1` in an empty slot's hash. */
  readonly table: Int32Array;
  /** `32 -` log2 of the table's slot count: a slot is the top bits of a Fibonacci hash. */
  readonly shift: number;
  /** `1` for a node with children. */
  readonly inner: Uint8Array;
  readonly pool: string;
  /** Each node's segments as a path (`/r1/p12`; the root's is empty), which a walk is checked against. */
  readonly prefixes: readonly string[];
  /** Where each node's entries start in `entries`, and the end after the last. */
  readonly starts: Int32Array;
  readonly entries: Int32Array;
}

/**
 * How many segment ends a walk records: a route resumes after at most `SKIP_LIMIT - 1` of its
 * literal segments, and compares any further ones itself.
 */
export const SKIP_LIMIT = 16;

/** Reads the generated tree; nothing is parsed until a request reaches it. */
export function parseTree(json: string): MatchTree {
  return { json, loaded: undefined };
}

/** The tree's typed arrays, made on first use. */
export function loadTree(tree: MatchTree): LoadedTree {
  return tree.loaded ?? load(tree);
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
  const { table, shift, inner, pool } = tree;
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
    let slot = slotOf(row, hash, shift) << 2;
    let child = 0;
    for (let h = table[slot]!; h !== -1; h = table[slot]!) {
      if (
        h === hash &&
        table[slot + 1] === row &&
        (!compare || sameAt(path, start, end, pool, table[slot + 3]!))
      ) {
        child = table[slot + 2]!;
        break;
      }
      slot = (slot + 4) & (table.length - 1);
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

function load(tree: MatchTree): LoadedTree {
  const data = JSON.parse(tree.json) as {
    starts: number[];
    entries: number[];
    pool: string;
    edges: number[];
  };
  const { edges } = data;
  let bits = 2;
  while (1 << bits < edges.length / 4 / LOAD) bits++;
  const size = 1 << bits;
  const table = new Int32Array(size * 4).fill(-1);
  const inner = new Uint8Array(data.starts.length);
  const parents = new Int32Array(data.starts.length);
  const segments: string[] = [];
  for (let k = 0; k < edges.length; k += 4) {
    const parent = edges[k + 1]!;
    inner[parent] = 1;
    parents[edges[k + 2]!] = parent;
    segments[edges[k + 2]!] = segmentAt(data.pool, edges[k + 3]!);
    let slot = slotOf(parent, edges[k]!, 32 - bits) << 2;
    while (table[slot] !== -1) slot = (slot + 4) & (table.length - 1);
    table.set(edges.slice(k, k + 4), slot);
  }
  return (tree.loaded = {
    table,
    shift: 32 - bits,
    inner,
    pool: data.pool,
    prefixes: prefixesOf(parents, segments),
    starts: Int32Array.from(data.starts),
    entries: Int32Array.from(data.entries),
  });
}

/** The segment at `at` of `pool`. */
function segmentAt(pool: string, at: number): string {
  return pool.slice(at + 2, at + 2 + lengthAt(pool, at));
}

/** The length of the segment at `at` of `pool`, stored in its first two characters. */
function lengthAt(pool: string, at: number): number {
  return pool.charCodeAt(at) * 0x10000 + pool.charCodeAt(at + 1);
}

/**
 * Each node's path from the root (`load`): its parent's, a `/`, its segment. Nodes are numbered
 * in pre-order, so a parent's path is made before its children's.
 */
function prefixesOf(parents: Int32Array, segments: readonly string[]): string[] {
  const prefixes: string[] = [''];
  for (let node = 1; node < parents.length; node++) {
    prefixes.push(`${prefixes[parents[node]!]!}/${segments[node]!}`);
  }
  return prefixes;
}

/** Whether `path` from `start` to `end` is the segment at `at` of `pool`, compared in place. */
function sameAt(path: string, start: number, end: number, pool: string, at: number): boolean {
  const length = lengthAt(pool, at);
  if (end - start !== length) return false;
  for (let i = 0; i < length; i++) {
    if (path.charCodeAt(start + i) !== pool.charCodeAt(at + 2 + i)) return false;
  }
  return true;
}
