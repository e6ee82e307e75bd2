import type { MatcherPlan, PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { describeRoute } from './_describe.js';
import { Interned } from './_intern.js';
import type { RegexConstant } from './path-code.js';
import { fits, rowsCall, str } from './_print.js';
import { emitDynamic } from './dynamic-code.js';
import { buildTree, treeRows } from './dynamic-tree.js';
import { chooseOffsets } from './static-key.js';
import { emitStaticTree, type StaticLeaf } from './static-tree.js';
import { emitNodeFunctions } from './node-code.js';

/**
 * The matcher. Static paths: up to `staticTreeMax` of them, a decision tree on length and
 * characters, one string comparison, then the verb (answers decided at build time; no hashing
 * of the path); past that, one lookup in a table built at first use (`StaticPaths`). Other
 * paths: up to `inlineMax` routes, the segment tree as one function per node, whose leaves try
 * their routes in registration order (the verb, then the path from where the walk left it; a
 * parameter that consecutive routes begin with read once); past that, the runtime's one walker
 * over the same tree as data. Every answer names its route's number in the route table.
 */
export function emitMatcher(
  routes: readonly RouteRecord[],
  plan: MatcherPlan,
  thresholds: MatcherThresholds = THRESHOLDS,
): Chunk[] {
  const tested = plan.dynamic.map((i) => routes[i]!);
  const position = new Map(tested.map((route, k) => [route.index, k]));
  const tree = buildTree(routes, plan.dynamic, (i) => position.get(i)!);
  // Code per node and per route is fastest while it stays hot; an app with many routes spreads
  // its requests over too many functions for V8 to optimise them, and one shared walker wins.
  const inline = tested.length <= thresholds.inlineMax;
  // A decision tree answers a few static paths fastest; past that, its code grows beyond what
  // V8 keeps hot, and one lookup in a table wins.
  const useTree = plan.statics.size <= thresholds.staticTreeMax;
  // Regexes of the generated code (as literals), hoisted to module constants `$r<position>`.
  const codeRegexes = new Interned<string>();
  // The character tables of parameters that are runs of one class, `$u<position>`.
  const runs = new Interned<string>();
  const regex: RegexConstant = (text, run) =>
    run ? `$u${runs.add(text)}` : `$r${codeRegexes.add(text)}`;
  const dynamic = emitDynamic(tested, inline, regex);
  const nodes = inline
    ? emitNodeFunctions(tree, dynamic.tried, regex, thresholds.compareMax ?? THRESHOLDS.compareMax)
    : { functions: [], tables: [] };
  const testsNote = inline
    ? 'what `allowed` tests, and what the code below\n * calls for a route with a host or `setMatch`'
    : 'what the walker and `allowed` test';
  const offsets = useTree ? [] : chooseOffsets([...plan.statics.keys()]);
  const about = (h: PlannedHit) => describeRoute(routes[h.route]!);
  const staticCode = useTree
    ? `${emitStaticTree(
        [...plan.statics].map(([path, entry]): StaticLeaf => ({
          path,
          code: verbSelect(entry, about),
        })),
      )}\nreturn null;`
    : 'return $static.find(path, method);';
  const walk = inline
    ? '$n0(method, path, host)'
    : 'walkTree($tree, $tests, $routes, method, path, host)';
  // An app without dynamic routes has no query to check for (`resolveTarget`).
  const dynamicLookup =
    tested.length === 0
      ? 'return undefined;'
      : `// A raw target's query is cut before its route is looked for among these (\`resolveTarget\`).
  return target === true && path.indexOf('?') !== -1 ? undefined : ${walk};`;
  const verbs = verbsOf(routes);
  // A smaller app's dynamic routes are code: each verb of theirs is looked for as a request's,
  // a few calls of that code instead of testing every route.
  const dynamicAllowed =
    tested.length === 0
      ? '[]'
      : inline
        ? `${JSON.stringify(verbsOf(tested))}.filter((verb) => $n0(verb, path, host) !== undefined)`
        : 'allowedIn($tree, $tests, path, host)';
  const staticVerbs = useTree
    ? `$verbs.filter((verb) => matchStatic(verb, path) != null)`
    : '$static.verbs(path) ?? []';
  return [
    ...(tested.length === 0
      ? []
      : [
          printed(`/**
 * The routes that are not static paths, one per line, \`[route, verbs, path, host]\`, the path
 * segment by segment or a regex: ${testsNote}.
 */
const $tests = ${rowsCall('new RouteTests', [], dynamic.rows)};`),
        ]),
    ...(useTree || plan.statics.size === 0
      ? []
      : [
          printed(`/**
 * The static paths, one per line: the path, then verbs and the route they get (\`[route, value,
 * ...]\` for a route with parameters); the table is made when a request first needs it, with keys of the
 * characters at offsets ${offsets.join(', ')} from a path's end (\`staticKeyOf\`).
 */
const $static = ${rowsCall('new StaticPaths', ['$routes', `[${offsets.join(', ')}]`], staticRows(plan))};`),
        ]),
    ...(inline || tested.length === 0
      ? []
      : [
          printed(`/**
 * The tree the walker goes down, one node per line: its literal segments, then the routes
 * tried there in registration order (those that do not fix a segment are listed at every
 * node below it).
 */
const $tree = ${rowsCall(
            'parseTree',
            [],
            treeRows(tree, (k) => tested[k]!.index),
          )};`),
        ]),
    printed(
      [
        ...codeRegexes.values.map((literal, k) => `const $r${k} = ${literal};`),
        ...runs.values.map((members, k) => `const $u${k} = charRun(${str(members)});`),
      ].join('\n'),
    ),
    code(`function match(method: string, path: string, host: string, target?: boolean): MatchHit | undefined {
  const hit = matchStatic(method, path);
  if (hit !== null) return hit;
  ${dynamicLookup}
}

/** A static path's answer; \`null\` when the path is not one of them. */
function matchStatic(method: string, path: string): MatchHit | undefined | null {
${staticCode}
}

${useTree ? `// Every verb of the app, for \`allowed\`.\nconst $verbs = ${JSON.stringify(verbs)};\n` : ''}
/** The verbs of the routes whose URL matches (for \`405\` and \`Allow\`). */
function allowed(path: string, host: string): string[] {
  const verbs = ${staticVerbs};
  return verbs.length > 0 ? verbs : ${dynamicAllowed};
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
  /**
   * Above this many children, a node of the generated code finds the next by a `Map` lookup on
   * the segment rather than comparing each in turn [8].
   */
  compareMax?: number;
}

/** The thresholds of every build. */
export const THRESHOLDS: Readonly<Required<MatcherThresholds>> = {
  inlineMax: 64,
  staticTreeMax: 128,
  compareMax: 8,
};

// --- internal ---

/** A hit as code: the route's cached hit, or a new one with the parameters' values. */
function hit(planned: PlannedHit): string {
  if (planned.params.length === 0) return `$routes.hit(${planned.route})`;
  const values = planned.params.map((p) => (p === undefined ? 'undefined' : str(p)));
  return `{ route: $routes.at(${planned.route}), params: [${values.join(', ')}] }`;
}

/**
 * The statement answering a static path: its hit for the request's verb, or nothing; each hit
 * followed by its route in a comment (`about`).
 */
function verbSelect(entry: Map<string, PlannedHit>, about: (h: PlannedHit) => string): string {
  const any = entry.get('*');
  const key = (h: PlannedHit) => JSON.stringify(h);
  const byHit = new Map<string, { hit: PlannedHit; verbs: string[] }>();
  for (const [verb, h] of entry) {
    if (verb === '*' || (any && key(h) === key(any))) continue;
    const group = byHit.get(key(h)) ?? { hit: h, verbs: [] };
    group.verbs.push(verb);
    byHit.set(key(h), group);
  }
  const fallback = any ? hit(any) : 'undefined';
  const anyNote = any ? ` // ${about(any)}` : '';
  if (byHit.size === 0) return `return ${fallback};${anyNote}`;
  if (byHit.size === 1 && !any) {
    const [{ hit: h, verbs }] = [...byHit.values()] as [{ hit: PlannedHit; verbs: string[] }];
    return `return ${verbs.map((v) => `method === ${str(v)}`).join(' || ')} ? ${hit(h)} : undefined; // ${about(h)}`;
  }
  const cases = [...byHit.values()].map(
    ({ hit: h, verbs }) =>
      `${verbs.map((v) => `case ${str(v)}:`).join(' ')} return ${hit(h)}; // ${about(h)}`,
  );
  return `switch (method) {\n${cases.join('\n')}\n}\nreturn ${fallback};${anyNote}`;
}

/** The static paths as the runtime's `StaticPaths` reads them: verbs with one hit together. */
function staticRows(plan: MatcherPlan): string[] {
  return [...plan.statics].map(([path, entry]) => {
    const groups = new Map<string, [verbs: string[], answer: unknown]>();
    for (const [verb, hit] of entry) {
      const answer =
        hit.params.length === 0 ? hit.route : [hit.route, ...hit.params.map((p) => p ?? null)];
      const key = JSON.stringify(answer);
      const group = groups.get(key) ?? [[], answer];
      group[0].push(verb);
      groups.set(key, group);
    }
    return JSON.stringify([path, ...[...groups.values()].flatMap(([v, a]) => [v.join('|'), a])]);
  });
}

/** The verbs `routes` answer (HEAD with GET), in the order of the `Allow` header: alphabetical. */
function verbsOf(routes: readonly { verbs: readonly string[] }[]): string[] {
  return [
    ...new Set(routes.flatMap((r) => [...r.verbs, ...(r.verbs.includes('GET') ? ['HEAD'] : [])])),
  ].sort();
}
