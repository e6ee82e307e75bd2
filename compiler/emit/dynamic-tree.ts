import { segmentHash } from '../../runtime/matcher.js';
import type { RouteRecord } from '../types.js';

// At or below this many routes a list of tests beats another level of the tree.
const LINEAR_MAX = 6;

/** A node of the generated dynamic-route tree (runtime `MatchNode`): test positions. */
export interface TreeNode {
  c?: Record<string, TreeNode>;
  t: number[];
}

/**
 * The tree the runtime walks for dynamic routes, level by level over the literal segments
 * the routes start with. Routes that do not fix the segment at a level are in every child
 * below it and in the node's own list, so each node holds every route that can match there,
 * still in registration order. `position` maps a route to its entry in the tests table.
 */
export function buildTree(
  routes: readonly RouteRecord[],
  list: readonly number[],
  position: (route: number) => number,
): TreeNode {
  return level(routes, [...list], 0, position);
}

/**
 * The tree as the runtime's `parseTree` reads it: one JSON row per node, the root first, each
 * `[tests, hash, segment, row, …]` (a child's segment with its hash computed here, so loading
 * the module does not, and the row that holds the child). The runtime parses a node when a
 * request first reaches it, so start-up parses none.
 */
export function treeRows(root: TreeNode): { text: string; count: number } {
  const rows: unknown[][] = [];
  const add = (node: TreeNode): number => {
    const row: unknown[] = [node.t];
    rows.push(row);
    const at = rows.length - 1;
    for (const [segment, child] of Object.entries(node.c ?? {})) {
      row.push(segmentHash(segment, 0, segment.length), segment, add(child));
    }
    return at;
  };
  add(root);
  return { text: rows.map((row) => JSON.stringify(row)).join('\n'), count: rows.length };
}

// --- internal ---

function level(
  routes: readonly RouteRecord[],
  list: number[],
  depth: number,
  position: (route: number) => number,
): TreeNode {
  const leaf = { t: list.map(position) };
  if (list.length <= LINEAR_MAX) return leaf;
  const groups = new Map<string, number[]>();
  const loose: number[] = [];
  for (const i of list) {
    const key = segmentsOf(routes[i]!)[depth];
    if (key === undefined) loose.push(i);
    else groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  // No route fixes this segment, or one group with loose routes beside it: no gain.
  if (groups.size === 0 || (groups.size === 1 && loose.length > 0)) return leaf;
  const children: Record<string, TreeNode> = {};
  for (const [key, own] of groups) {
    children[key] = level(
      routes,
      [...own, ...loose].sort((a, b) => a - b),
      depth + 1,
      position,
    );
  }
  return { c: children, t: loose.map(position) };
}

/** The complete literal segments a route's paths begin with (`/a/b/{id}` → `a`, `b`). */
function segmentsOf(route: RouteRecord): string[] {
  if (route.match) return [];
  const [head, next] = route.tokens;
  if (!head) return [''];
  if (head.kind !== 'literal') return [];
  const parts = head.text.split('/').slice(1);
  // The last literal segment is complete only when a `/` or the end of the pattern follows it.
  const complete = next === undefined || (next.kind === 'param' && next.separator === '/');
  return complete ? parts : parts.slice(0, -1);
}
