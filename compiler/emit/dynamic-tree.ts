import type { RouteRecord } from '../types.js';

// At or below this many routes a list of tests beats another level of the tree.
const LINEAR_MAX = 6;

/** A node of the dynamic-route tree: its children by segment, test positions, depth. */
export interface TreeNode {
  c?: Record<string, TreeNode>;
  t: number[];
  /** How many segments lead to the node. */
  d: number;
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
 * The tree as the runtime's `parseTree` reads it (runtime `MatchTree`): one line per node,
 * pre-order, `[path, route, …]`: the node's segments as a path (`""` for the root) and the
 * numbers of the routes tried there (`route` maps a test position to its route).
 */
export function treeRows(root: TreeNode, route: (position: number) => number): string[] {
  const rows: string[] = [];
  const add = (node: TreeNode, prefix: string): void => {
    rows.push(JSON.stringify([prefix, ...node.t.map(route)]));
    for (const [segment, child] of Object.entries(node.c ?? {})) add(child, `${prefix}/${segment}`);
  };
  add(root, '');
  return rows;
}

/**
 * How many of a route's leading literal segments (`pieces`, its program's own steps: `splitHead`)
 * the walk has compared when it reaches `node`, where the route is listed: the route was put
 * there by those segments, or by fewer when it does not fix the segment at some level.
 */
export function walkedPieces(node: TreeNode, pieces: number): number {
  return Math.min(pieces, node.d);
}

// --- internal ---

function level(
  routes: readonly RouteRecord[],
  list: number[],
  depth: number,
  position: (route: number) => number,
): TreeNode {
  const leaf = { t: list.map(position), d: depth };
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
  // No prototype: a segment may be any word, `__proto__` too.
  const children = Object.create(null) as Record<string, TreeNode>;
  for (const [key, own] of groups) {
    children[key] = level(
      routes,
      [...own, ...loose].sort((a, b) => a - b),
      depth + 1,
      position,
    );
  }
  return { c: children, t: loose.map(position), d: depth };
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
