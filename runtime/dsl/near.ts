/**
 * The hint for a `word` that is not one of `known`: the near one (`did you mean routes?`), else
 * every one (`the keys are routes, out, …`, `label` being `keys`).
 */
export function suggestion(word: string, known: readonly string[], label: string): string {
  const near = nearest(word, known);
  return near ? `did you mean ${near}?` : `the ${label} are ${known.join(', ')}`;
}

/**
 * The candidate fewest edits from `word` (case aside), for "did you mean" hints: within two edits,
 * one for a word of four letters or fewer (`nope` is not a misspelt `home`). Else one of six
 * letters or more whose other form it is: all of it but its last letter, then up to three more
 * (`trustProxies` for `trustProxy`).
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let fewest = (lower.length <= 4 ? 1 : 2) + 1;
  for (const candidate of candidates) {
    const edits = editDistance(candidate.toLowerCase(), lower);
    if (edits < fewest) [best, fewest] = [candidate, edits];
  }
  return (
    best ??
    candidates.find(
      (candidate) =>
        candidate.length >= 6 &&
        lower.length > candidate.length &&
        lower.length <= candidate.length + 2 &&
        lower.startsWith(candidate.toLowerCase().slice(0, -1)),
    )
  );
}

// --- internal ---

/**
 * How many single-character edits turn `a` into `b`: insertions, deletions, substitutions and
 * swaps of two neighbours (`sulg` is one edit from `slug`).
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        next[j] = Math.min(next[j]!, before[j - 2]! + 1);
    }
    [before, row] = [row, next];
  }
  return row[b.length]!;
}
