import { createRequire } from 'node:module';
import regexpTree from 'regexp-tree';
import { delimited } from './regex.js';

/**
 * The verdict on a regex: safe, or why not (`reason`: how its matching time can explode, or
 * that the checker could not decide) and an input that shows it.
 */
export type RegexSafety =
  { safe: true } | { safe: false; reason: string; attack: string | undefined };

/**
 * A single character class, class escape, property escape, dot or character, repeated or not:
 * anchored or not, it can only backtrack linearly.
 */
export const TRIVIAL =
  /^(?:\[(?:\\.|[^\]\\])+\]|\\[wdsWDS]|\\[pP]\{[\w=]+\}|\.|[\w-])(?:[+*?]|\{\d+(?:,\d*)?\})?$/;

/**
 * How long the fuzzing checker may think about one regex with counted repetitions; past it, the
 * regex is refused. Every other regex gets a verdict that does not depend on the time it takes.
 */
const TIMEOUT_MS = 2_000;

/** A counted repetition (`{2}`, `{1,30}`): the automaton checker's verdict on it is not final. */
const COUNTED = /(?<!\\)\{\d+(?:,\d*)?\}/;

const cache = new Map<string, RegexSafety>();

/**
 * Checks a regex, exactly as it runs (the caller gives its running form and flags), for
 * catastrophic backtracking (ReDoS: path-to-regexp CVE-2024-45296, find-my-way CVE-2024-45813)
 * with recheck. Only a regex the checker proves safe passes: exponential and polynomial ones
 * are refused, and so is one it cannot decide (a timeout, an unsupported feature). Trivial
 * regexes skip the checker; verdicts are cached for the process.
 *
 * The automaton checker decides first, with no time limit: its verdict is the same on a busy
 * machine as on an idle one, so a build never fails for the machine's load. A regex it cannot
 * decide, or one with counted repetitions (which it proves safe when nested ones can still
 * backtrack for minutes), goes to recheck's own choice of checker, within `TIMEOUT_MS`.
 */
export function regexSafety(source: string, flags = ''): RegexSafety {
  if (TRIVIAL.test(source)) return { safe: true };
  const key = `${flags}/${source}`;
  let verdict = cache.get(key);
  if (!verdict && repeatsInLookbehind(source, flags)) {
    // recheck reads such a lookbehind as safe when it is not: `(?<!!(?:a|a)*[.])b` after a
    // parameter of `a`s reads back over all of them, exponentially.
    verdict = {
      safe: false,
      reason:
        'repeats inside a lookbehind, which reads back from where it stands (in a route, into what comes before) and cannot be proven safe from catastrophic backtracking',
      attack: undefined,
    };
    cache.set(key, verdict);
  }
  if (!verdict) {
    const runFlags = flags.replace(/[dgy]/g, '');
    const exact = checker().checkSync(source, runFlags, { checker: 'automaton', timeout: null });
    const decided =
      exact.status === 'vulnerable' || (exact.status === 'safe' && !COUNTED.test(source));
    verdict = toVerdict(
      decided ? exact : checker().checkSync(source, runFlags, { timeout: TIMEOUT_MS }),
    );
    cache.set(key, verdict);
  }
  return verdict;
}

// --- internal ---

function toVerdict(result: import('recheck').Diagnostics): RegexSafety {
  if (result.status === 'safe') return { safe: true };
  if (result.status === 'vulnerable')
    return {
      safe: false,
      reason: `can take ${describe(result.complexity)} time to fail`,
      attack: result.attack.pattern,
    };
  const why =
    result.error.kind === 'timeout'
      ? `gave up after ${TIMEOUT_MS / 1000} s`
      : `answered ${result.error.kind}`;
  return {
    safe: false,
    reason: `could not be proven safe from catastrophic backtracking (the checker ${why})`,
    attack: undefined,
  };
}

/** A node of regexp-tree's tree, as far as the walk needs it. */
interface RegexNode {
  type: string;
  kind?: string;
  [child: string]: unknown;
}

/** Whether a lookbehind of `source` holds a repetition (`*`, `+`, `{n,m}`, `?`). */
function repeatsInLookbehind(source: string, flags: string): boolean {
  if (!source.includes('(?<')) return false;
  let ast: { body: unknown };
  try {
    ast = regexpTree.parse(`/${delimited(source)}/${flags.replace(/[^imsu]/g, '')}`);
  } catch {
    return false;
  }
  const walk = (node: unknown, behind: boolean): boolean => {
    if (Array.isArray(node)) return node.some((child) => walk(child, behind));
    if (node === null || typeof node !== 'object' || !('type' in node)) return false;
    const { type, kind } = node as RegexNode;
    if (behind && type === 'Repetition') return true;
    const inside = behind || (type === 'Assertion' && kind === 'Lookbehind');
    return Object.values(node).some((child) => walk(child, inside));
  };
  return walk(ast.body, false);
}

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
