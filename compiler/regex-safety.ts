import { createRequire } from 'node:module';

/** The verdict on a regex: safe, or how its matching time can explode and an input that shows it. */
export type RegexSafety =
  { safe: true } | { safe: false; complexity: string; attack: string | undefined };

// A single quantified character class, escape or dot can only backtrack linearly.
const TRIVIAL = /^(?:\[(?:\\.|[^\]\\])+\]|\\[wdsWDS]|\.|[\w-])[+*?]?$/;
const cache = new Map<string, RegexSafety>();

/**
 * Checks a regex for catastrophic backtracking (ReDoS: path-to-regexp CVE-2024-45296,
 * find-my-way CVE-2024-45813) with recheck; exponential and polynomial ones are unsafe.
 * Trivial regexes skip the checker; verdicts are cached for the process.
 */
export function regexSafety(source: string, flags = ''): RegexSafety {
  if (TRIVIAL.test(source)) return { safe: true };
  const key = `${flags}/${source}`;
  let verdict = cache.get(key);
  if (!verdict) {
    const result = checker().checkSync(source, flags.replace(/[gy]/g, ''), { timeout: 2_000 });
    verdict =
      result.status === 'vulnerable'
        ? { safe: false, complexity: describe(result.complexity), attack: result.attack?.pattern }
        : { safe: true };
    cache.set(key, verdict);
  }
  return verdict;
}

// --- internal ---

// The checker is large and most apps' regexes are trivial: it is loaded on first need.
let recheck: typeof import('recheck') | undefined;

function checker(): typeof import('recheck') {
  return (recheck ??= createRequire(import.meta.url)('recheck') as typeof import('recheck'));
}

function describe(complexity: { type: string; degree?: number } | undefined): string {
  if (!complexity) return 'super-linear';
  return complexity.type === 'polynomial'
    ? `polynomial (degree ${complexity.degree ?? '?'})`
    : complexity.type;
}
