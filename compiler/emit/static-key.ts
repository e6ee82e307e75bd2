import { MAX_OFFSETS, staticKeyOf } from 'course-router/internal';

/**
 * The characters that tell an app's static paths apart for the runtime's `staticKeyOf`: up to
 * `MAX_OFFSETS` offsets from the end (where paths that share a prefix differ), each picked
 * greedily as the one that leaves the fewest paths sharing a key. Empty when even those leave
 * too many paths per key: the key is then a hash of every character.
 */
export function chooseOffsets(paths: readonly string[]): number[] {
  const offsets: number[] = [];
  let best = collisions(paths, offsets);
  while (offsets.length < MAX_OFFSETS && best > 0) {
    let pick = -1;
    for (let offset = 0; offset < SEARCHED; offset++) {
      if (offsets.includes(offset)) continue;
      const score = collisions(paths, [...offsets, offset]);
      if (score < best) [best, pick] = [score, offset];
    }
    if (pick === -1) break;
    offsets.push(pick);
  }
  if (best > paths.length * TOLERATED) return [];
  // The length alone told them apart; `[]` would mean every character.
  return offsets.length === 0 ? [0] : offsets;
}

// --- internal ---

// Offsets from the end that are tried.
const SEARCHED = 24;
// Extra comparisons per path accepted before every character is hashed instead.
const TOLERATED = 0.25;

/** How many more comparisons than paths a lookup of every path would make with `offsets`. */
function collisions(paths: readonly string[], offsets: readonly number[]): number {
  const sizes = new Map<number, number>();
  const keyOf = staticKeyOf(offsets);
  for (const path of paths) {
    const key = offsets.length === 0 ? path.length : keyOf(path);
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  let extra = 0;
  for (const size of sizes.values()) extra += (size * (size - 1)) / 2;
  return extra;
}
