import { str } from './_print.js';

/** A static path and the statement that answers it. */
export interface StaticLeaf {
  path: string;
  code: string;
}

// At or below this many paths, comparing the strings in turn beats another switch.
const LINEAR_MAX = 4;

/**
 * A decision tree over the static paths: a `switch` on the length, then on the character
 * that best splits each group, ending in one `===` per path. A request string is never
 * hashed: a fresh `req.url` string costs as little as a literal.
 */
export function emitStaticTree(leaves: readonly StaticLeaf[]): string {
  if (leaves.length === 0) return '';
  const byLength = new Map<number, StaticLeaf[]>();
  for (const leaf of leaves)
    byLength.set(leaf.path.length, [...(byLength.get(leaf.path.length) ?? []), leaf]);
  const cases = [...byLength]
    .sort(([a], [b]) => a - b)
    .map(([length, group]) => `case ${length}:\n${emitGroup(group)}\nbreak;`);
  return `switch (path.length) {\n${cases.join('\n')}\n}`;
}

// --- internal ---

function emitGroup(group: readonly StaticLeaf[]): string {
  if (group.length <= LINEAR_MAX) {
    return group.map((leaf) => `if (path === ${str(leaf.path)}) {\n${leaf.code}\n}`).join('\n');
  }
  const position = bestSplit(group);
  const byChar = new Map<number, StaticLeaf[]>();
  for (const leaf of group) {
    const code = leaf.path.charCodeAt(position);
    byChar.set(code, [...(byChar.get(code) ?? []), leaf]);
  }
  const cases = [...byChar]
    .sort(([a], [b]) => a - b)
    .map(([code, sub]) => `case ${code}:\n${emitGroup(sub)}\nbreak;`);
  return `switch (path.charCodeAt(${position})) {\n${cases.join('\n')}\n}`;
}

/** The position whose characters split the group into the most (and most even) parts. */
function bestSplit(group: readonly StaticLeaf[]): number {
  const length = group[0]!.path.length;
  let best = 0;
  let bestScore = -1;
  for (let position = 1; position < length; position++) {
    const counts = new Map<number, number>();
    for (const leaf of group)
      counts.set(
        leaf.path.charCodeAt(position),
        (counts.get(leaf.path.charCodeAt(position)) ?? 0) + 1,
      );
    const largest = Math.max(...counts.values());
    const score = counts.size * group.length - largest;
    if (score > bestScore) {
      bestScore = score;
      best = position;
    }
  }
  return best;
}
