import type { MatcherPlan, PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { fits, key, str, strings } from './_print.js';
import { emitDynamic, emitNodeFunctions } from './dynamic-code.js';
import { buildTree } from './dynamic-tree.js';
import { emitStaticTree, type StaticLeaf } from './static-tree.js';

/**
 * The matcher as code. Static paths: a decision tree on length and characters, one string
 * comparison, then the verb (answers decided at build time; no hashing of the path). Other
 * paths: the segment tree as one function per node, whose leaves try their routes in
 * registration order (verb first, then the route's own path test).
 */
export function emitMatcher(routes: readonly RouteRecord[], plan: MatcherPlan): Chunk[] {
  const tested = plan.dynamic.map((i) => routes[i]!);
  const hits: PlannedHit[] = [];
  const hitIndex = new Map<string, number>();
  const hitOf = (hit: PlannedHit): number => {
    const id = JSON.stringify(hit);
    let index = hitIndex.get(id);
    if (index === undefined) hitIndex.set(id, (index = hits.push(hit) - 1));
    return index;
  };
  const leaves: StaticLeaf[] = [...plan.statics].map(([path, entry]) => ({
    path,
    code: verbSelect(entry, hitOf),
  }));
  const position = new Map(tested.map((route, k) => [route.index, k]));
  const tree = buildTree(routes, plan.dynamic, (i) => position.get(i)!);
  const dynamic = emitDynamic(tested);
  const nodes = emitNodeFunctions(tree, dynamic.tried);
  const functions: string[] = [];
  // A decision tree answers a few static paths fastest; past that, its code grows beyond what
  // V8 keeps hot, and one lookup in a table wins.
  const useTree = plan.statics.size <= STATIC_TREE_MAX;
  const staticTree = useTree
    ? emitStaticTree(leaves, functions)
    : `const entry = $static[path];
if (entry === undefined) return null;
const index = entry[method] ?? entry['*'];
return index === undefined ? undefined : $hits[index];`;
  return [
    {
      kind: 'list',
      open: 'const $tests: RouteTest[] = [',
      close: '];',
      empty: 'const $tests: RouteTest[] = [];',
      entries: dynamic.tests.map((text) => ({ text: `  ${text}` })),
    },
    printed(dynamic.regexes.join('\n')),
    {
      kind: 'list',
      open: 'const $hits: MatchHit[] = [',
      close: '];',
      empty: 'const $hits: MatchHit[] = [];',
      entries: hits.map((hit) => ({ text: `  ${emitHit(hit)}` })),
    },
    {
      kind: 'list',
      open: 'const $allow: Record<string, string[]> = {\n  __proto__: null,',
      close: '} as never;',
      empty: 'const $allow: Record<string, string[]> = {\n  __proto__: null,\n} as never;',
      entries: [...plan.statics].map(([path, entry]) => ({
        text: `  ${str(path)}: ${strings([...entry.keys()])}`,
      })),
    },
    {
      kind: 'list',
      open: 'const $static: Record<string, Record<string, number>> = {\n  __proto__: null,',
      close: '} as never;',
      empty:
        'const $static: Record<string, Record<string, number>> = {\n  __proto__: null,\n} as never;',
      entries: useTree
        ? []
        : [...plan.statics].map(([path, entry]) => ({
            text: `  ${str(path)}: { __proto__: null, ${[...entry].map(([verb, hit]) => `${key(verb)}: ${hitOf(hit)}`).join(', ')} }`,
          })),
    },
    {
      kind: 'list',
      open: 'const $dynamic: DynamicRoute[] = [',
      close: '];',
      empty: 'const $dynamic: DynamicRoute[] = [];',
      entries: dynamic.tried.map((route) => ({
        text: `  [${route.verbs === undefined ? '0' : strings(route.verbs)}, ${route.test}]`,
      })),
    },
    code(`function match(method: string, path: string, host: string): MatchHit | undefined {
  const hit = matchStatic(method, path);
  return hit !== null ? hit : $n0(method, path, host);
}

/** A static path's answer; \`null\` when the path is not one of them. */
function matchStatic(method: string, path: string): MatchHit | undefined | null {
${staticTree}
  return null;
}

${functions.join('\n\n')}

// The tree as data, for \`allowed\` (unmatched requests only): parsed on first use.
let $tree: MatchNode | undefined;

function allowed(path: string, host: string): string[] {
  $tree ??= parseTree(${str(JSON.stringify(tree))});
  return $allow[path] ?? allowedIn($tree, $dynamic, path, host);
}`),
    ...[...nodes.functions, ...nodes.tables, ...dynamic.functions].map((text) =>
      fits(text) ? printed(text) : code(text),
    ),
  ];
}

/** Above this many static paths, a table replaces the decision tree. */
const STATIC_TREE_MAX = 128;

/** A regex literal for `source`: `/` and line breaks escaped, validated. */
export function regexLiteral(source: string, flags = ''): string {
  new RegExp(source, flags);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      out += ch + (source[i + 1] ?? '');
      i++;
    } else if (ch === '/') out += '\\/';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else out += ch;
  }
  return `/${out}/${flags}`;
}

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
  const fallback = any ? `$hits[${hitOf(any)}]` : 'undefined';
  if (byHit.size === 0) return `return ${fallback};`;
  if (byHit.size === 1) {
    const [[index, verbs]] = [...byHit] as [[number, string[]]];
    return `return ${verbs.map((v) => `method === ${str(v)}`).join(' || ')} ? $hits[${index}] : ${fallback};`;
  }
  const cases = [...byHit].map(
    ([index, verbs]) => `${verbs.map((v) => `case ${str(v)}:`).join(' ')} return $hits[${index}];`,
  );
  return `switch (method) {\n${cases.join('\n')}\n}\nreturn ${fallback};`;
}

function emitHit(hit: PlannedHit): string {
  const params = hit.params.map((p) => (p === undefined ? 'undefined' : str(p)));
  return `{ route: routes[${hit.route}], params: [${params.join(', ')}] }`;
}
