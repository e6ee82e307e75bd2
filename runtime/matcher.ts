/**
 * Small pieces the generated matcher shares, kept here so the generated module stays data
 * and straight-line code.
 */

/** A dynamic route as the `405` check sees it: its regex and its verbs. */
export type Candidate = readonly [regex: RegExp, verbs: readonly string[]];

/** The first segment of a normalised path (`/user/5` → `user`). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** The verbs of every candidate whose regex matches `path`, without repeats. */
export function allowedBy(candidates: readonly Candidate[], path: string): string[] {
  const out: string[] = [];
  for (const [regex, verbs] of candidates) {
    if (!regex.test(path)) continue;
    for (const verb of verbs) if (!out.includes(verb)) out.push(verb);
  }
  return out;
}
