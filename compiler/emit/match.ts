import type { MatcherPlan, PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { Interned } from './_intern.js';
import type { RegexConstant } from './path-code.js';
import { fits, str } from './_print.js';
import { emitDynamic } from './dynamic-code.js';
import { staticKey } from 'course-router/internal';
import { buildTree, treeData } from './dynamic-tree.js';
import { chooseOffsets, keyFunction } from './static-key.js';
import { emitStaticTree, type StaticLeaf } from './static-tree.js';
import { emitNodeFunctions } from './node-code.js';

/**
 * The matcher as code. Static paths: a decision tree on length and characters, one string
 * comparison, then the verb (answers decided at build time; no hashing of the path). Other
 * paths: the segment tree as one function per node, whose leaves try their routes in
 * registration order: the verb, then the path from where the walk left it (a parameter that
 * consecutive routes begin with read once).
 */
export function emitMatcher(
  routes: readonly RouteRecord[],
  plan: MatcherPlan,
  thresholds: MatcherThresholds = THRESHOLDS,
): Chunk[] {
  const tested = plan.dynamic.map((i) => routes[i]!);
  const hits = new Interned<PlannedHit>();
  const hitOf = (hit: PlannedHit): number => hits.add(hit);
  const leaves: StaticLeaf[] = [...plan.statics].map(([path, entry]) => ({
    path,
    code: verbSelect(entry, hitOf),
  }));
  const position = new Map(tested.map((route, k) => [route.index, k]));
  const tree = buildTree(routes, plan.dynamic, (i) => position.get(i)!);
  // Code per node and per route is fastest while it stays hot; an app with many routes spreads
  // its requests over too many functions for V8 to optimise them, and one shared walker wins.
  const inline = tested.length <= thresholds.inlineMax;
  // Regexes of the generated code (as literals), hoisted to module constants `$r<position>`.
  const codeRegexes = new Interned<string>();
  // The character tables of parameters that are runs of one class, `$u<position>`.
  const runs = new Interned<string>();
  const regex: RegexConstant = (text, run) =>
    run ? `$u${runs.add(text)}` : `$r${codeRegexes.add(text)}`;
  const dynamic = emitDynamic(tested, inline, regex);
  const nodes = inline
    ? emitNodeFunctions(tree, dynamic.tried, regex)
    : { functions: [], tables: [] };
  const treeArgs = str(treeData(tree, (position) => dynamic.pieces[position] ?? 0));
  const functions: string[] = [];
  // A decision tree answers a few static paths fastest; past that, its code grows beyond what
  // V8 keeps hot, and one lookup in a table wins.
  const useTree = plan.statics.size <= thresholds.staticTreeMax;
  const statics = staticData(plan, hitOf);
  const staticTree = useTree
    ? `${emitStaticTree(leaves, functions)}\nreturn null;`
    : `const index = $static.find(path, method);
return index === null || index === undefined ? index : $hit(index);`;
  const walk = inline
    ? '$n0(method, path, host)'
    : 'walkTree($tree, $tests, $routes, method, path, host)';
  // An app without dynamic routes has no query to check for (`resolveTarget`).
  const dynamicLookup =
    tested.length === 0
      ? 'return undefined;'
      : `// A raw target's query is cut before its route is looked for among these (\`resolveTarget\`).
  return target === true && path.indexOf('?') !== -1 ? undefined : ${walk};`;
  return [
    code(`const $tests = testList(${str(dynamic.tests[0])}, ${str(dynamic.tests[1])});`),
    printed(
      [
        ...codeRegexes.values.map((literal, k) => `const $r${k} = ${literal};`),
        ...runs.values.map((members, k) => `const $u${k} = charRun(${str(members)});`),
      ].join('\n'),
    ),
    code(
      `const $hit = hitList(${str(hits.values.map((hit) => JSON.stringify(hitRow(hit))).join('\n'))}, ${hits.values.length}, $routes);`,
    ),
    code(
      `const $static = new StaticPaths(${str(JSON.stringify(statics.data))}, ${keyFunction(statics.offsets)});`,
    ),
    printed('let $dynamic: DynamicRoute[] | undefined;'),
    code(`function match(method: string, path: string, host: string, target?: boolean): MatchHit | undefined {
  const hit = matchStatic(method, path);
  if (hit !== null) return hit;
  ${dynamicLookup}
}

/** A static path's answer; \`null\` when the path is not one of them. */
function matchStatic(method: string, path: string): MatchHit | undefined | null {
${staticTree}
}

${functions.join('\n\n')}

// The tree as data, for \`allowed\` (unmatched requests only)${inline ? '' : ' and the walker'}.
const $tree = parseTree(${treeArgs});

function allowed(path: string, host: string): string[] {
  return $static.verbs(path) ?? allowedIn($tree, ($dynamic ??= testedRoutes($tests)), path, host);
}`),
    ...[...nodes.functions, ...nodes.tables, ...dynamic.functions].map((text) =>
      fits(text) ? printed(text) : code(text),
    ),
  ];
}

/** Where the matcher changes shape (a test may set lower ones to try every shape). */
export interface MatcherThresholds {
  /** Above this many dynamic routes, the shared walker replaces code per route. */
  inlineMax: number;
  /** Above this many static paths, a table replaces the decision tree. */
  staticTreeMax: number;
}

/** The thresholds of every build. */
export const THRESHOLDS: Readonly<MatcherThresholds> = { inlineMax: 64, staticTreeMax: 128 };

// --- internal ---

/** The statement answering a static path: its hit for the request's verb, or nothing. */
function verbSelect(entry: Map<string, PlannedHit>, hitOf: (hit: PlannedHit) => number): string {
  const any = entry.get('*');
  const byHit = new Map<number, string[]>();
  for (const [verb, hit] of entry) {
    if (verb === '*') continue;
    const index = hitOf(hit);
    if (any && index === hitOf(any)) continue;
    byHit.set(index, [...(byHit.get(index) ?? []), verb]);
  }
  const fallback = any ? `$hit(${hitOf(any)})` : 'undefined';
  if (byHit.size === 0) return `return ${fallback};`;
  if (byHit.size === 1) {
    const [[index, verbs]] = [...byHit] as [[number, string[]]];
    return `return ${verbs.map((v) => `method === ${str(v)}`).join(' || ')} ? $hit(${index}) : ${fallback};`;
  }
  const cases = [...byHit].map(
    ([index, verbs]) => `${verbs.map((v) => `case ${str(v)}:`).join(' ')} return $hit(${index});`,
  );
  return `switch (method) {\n${cases.join('\n')}\n}\nreturn ${fallback};`;
}

/** A hit as the runtime's \`hitList\` reads it: route and parameters (\`null\`: absent). */
function hitRow(hit: PlannedHit): number | [number, (string | null)[]] {
  return hit.params.length === 0 ? hit.route : [hit.route, hit.params.map((p) => p ?? null)];
}

/**
 * Static path → verb → hit, for the runtime's \`StaticPaths\`: a path whose verbs share one hit
 * is written \`hit × sets + set\` (its verbs one of \`verbs\`), else \`[verb, hit, …]\`.
 */
function staticData(
  plan: MatcherPlan,
  hitOf: (hit: PlannedHit) => number,
): { data: { verbs: string[][]; paths: unknown[]; keys: number[] }; offsets: number[] } {
  const sets = new Map<string, number>();
  const verbs: string[][] = [];
  for (const entry of plan.statics.values()) {
    const key = [...entry.keys()].join(' ');
    if (!sets.has(key)) sets.set(key, verbs.push([...entry.keys()]) - 1);
  }
  const offsets = chooseOffsets([...plan.statics.keys()]);
  const paths: unknown[] = [];
  const keys: number[] = [];
  for (const [path, entry] of plan.statics) {
    keys.push(staticKey(path, offsets));
    const answers = [...entry].map(([verb, hit]) => [verb, hitOf(hit)] as const);
    const one = answers.every(([, hit]) => hit === answers[0]![1]);
    paths.push(
      path,
      one ? answers[0]![1] * verbs.length + sets.get([...entry.keys()].join(' '))! : answers.flat(),
    );
  }
  return { data: { verbs, paths, keys }, offsets };
}
