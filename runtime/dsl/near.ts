/**
 * The hint for a `word` that is not one of `known`: the near one (`did you mean routes?`), else
 * every one (`the keys are routes, out, …`, `label` being `keys`).
 */
export function suggestion(word: string, known: readonly string[], label: string): string {
  const near = nearest(word, known);
  return near ? `did you mean ${near}?` : `the ${label} are ${known.join(', ')}`;
}

/** The candidate within two edits of `word` (case aside), for "did you mean" hints. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  return candidates.find((c) => editDistance(c.toLowerCase(), lower) <= 2);
}

// --- internal ---

/** Levenshtein distance: how many single-character edits turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length]!;
}
