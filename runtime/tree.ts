/**
 * The dynamic-route tree as the runtime walks it: nodes by row, each holding the route tests
 * to try there, and the edges between them (a node's child for one literal path segment) in
 * one open-addressed table of integers, so a request's segment is hashed as it is read and
 * found without a `Map`, a slice or a property lookup.
 */
import { Rows } from './data/rows.js';

/** A hash of `text` from `start` to `end`, read in place; a small integer (V8 keeps it unboxed). */
export function segmentHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash & HASH_MASK;
}

/**
 * The tree as generated: node rows (`[entry, …]`, one per line, the root first; an entry is a
 * test's position × `SKIP_LIMIT` + how many of the route's leading literal segments the walk has
 * compared on the way to the node), and the edges as JSON `{ segments, edges }`: the segment
 * leading to each row (`''` for the root) and `[hash, parent, child, …]`.
 */
export interface MatchTree {
  readonly rows: Rows<readonly number[]>;
  readonly edgeJson: string;
  edges: Edges | undefined;
}

/** How many segment ends a walk records: deeper nodes give routes no segments to skip. */
export const SKIP_LIMIT = 16;

/** Reads the generated tree; nothing is parsed until a request reaches it. */
export function parseTree(rows: string, count: number, edgeJson: string): MatchTree {
  return { rows: new Rows(rows, count, (row: number[]) => row), edgeJson, edges: undefined };
}

/**
 * Where each segment the last walk compared ends: `segmentEnds[s]` is the position after the
 * segment at depth `s` (a `/` or the end of the path). Written by `walkTo`, read right after it.
 */
export const segmentEnds = new Int32Array(SKIP_LIMIT);

/**
 * The row of the deepest node whose segments `path` has (every route that can match is listed
 * there). Each segment is read once: hashed while its end is looked for, found in the edge
 * table by hash and parent, and compared with the node's own segment.
 */
export function walkTo(tree: MatchTree, path: string): number {
  const { table, mask, inner, segments } = tree.edges ?? loadEdges(tree);
  const n = path.length;
  let row = 0;
  let start = 1;
  let depth = 0;
  if (n === 0 || path.charCodeAt(0) !== 47 /* '/' */) return 0;
  while (inner[row] === 1) {
    let hash = 0;
    let end = start;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === 47) break;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    hash &= HASH_MASK;
    let slot = (slotOf(row, hash) & mask) * 3;
    let child = 0;
    for (let h = table[slot]!; h !== -1; h = table[slot]!) {
      if (h === hash && table[slot + 1] === row) {
        const candidate = table[slot + 2]!;
        if (sameAt(path, start, end, segments[candidate]!)) {
          child = candidate;
          break;
        }
      }
      slot = slot + 3 === table.length ? 0 : slot + 3;
    }
    if (child === 0) break;
    if (depth < SKIP_LIMIT) segmentEnds[depth] = end;
    depth++;
    row = child;
    // Past the end of the path, the next segment is empty.
    start = end + 1;
  }
  return row;
}

// --- internal ---

const HASH_MASK = 0x3fffffff;

interface Edges {
  /** `[hash, parent, child]` per slot, `-1` in an empty slot's hash. */
  readonly table: Int32Array;
  readonly mask: number;
  /** `1` for a row with children. */
  readonly inner: Uint8Array;
  readonly segments: readonly string[];
}

function slotOf(parent: number, hash: number): number {
  return Math.imul(parent, 0x9e3779b1) ^ hash;
}

function loadEdges(tree: MatchTree): Edges {
  const { segments, edges } = JSON.parse(tree.edgeJson) as { segments: string[]; edges: number[] };
  let size = 4;
  while (size < edges.length / 3 / 0.5) size *= 2;
  const table = new Int32Array(size * 3).fill(-1);
  const inner = new Uint8Array(segments.length);
  for (let k = 0; k < edges.length; k += 3) {
    const [hash, parent, child] = [edges[k]!, edges[k + 1]!, edges[k + 2]!];
    inner[parent] = 1;
    let slot = (slotOf(parent, hash) & (size - 1)) * 3;
    while (table[slot] !== -1) slot = slot + 3 === table.length ? 0 : slot + 3;
    table[slot] = hash;
    table[slot + 1] = parent;
    table[slot + 2] = child;
  }
  return (tree.edges = { table, mask: size - 1, inner, segments });
}

/** Whether `path` from `start` to `end` is `segment`, compared in place. */
function sameAt(path: string, start: number, end: number, segment: string): boolean {
  if (end - start !== segment.length) return false;
  for (let i = 0; i < segment.length; i++) {
    if (path.charCodeAt(start + i) !== segment.charCodeAt(i)) return false;
  }
  return true;
}
