import { accepts, isStaticPath, type MatcherPlan, type PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { key, str, strings, WIDTH } from './_print.js';
import { buildTree } from './dynamic-tree.js';
import { segmentProgram } from './segments.js';
import { emitStaticTree, type StaticLeaf } from './static-tree.js';

/**
 * The matcher as code. Static paths: a decision tree on length and characters, one string
 * comparison, then the verb (answers decided at build time; no hashing of the path). Other
 * paths: a `switch` on the second character, whose cases try their routes in registration
 * order, cheapest test first (verb, literal prefix, host, regex).
 */
export function emitMatcher(routes: readonly RouteRecord[], plan: MatcherPlan): Chunk[] {
  const tested = routes.filter((r) => !isStaticPath(r) || !plan.statics.has(r.url) || r.domain);
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
  const dynamic = [...new Set([...[...plan.buckets.values()].flat(), ...plan.wild])].sort(
    (a, b) => a - b,
  );
  const candidates = [...plan.buckets].map(
    ([char, list]) => `case ${char}: return ${emitCandidates(list, routes)};`,
  );
  const position = new Map(tested.map((route, k) => [route.index, k]));
  const tree = buildTree(routes, dynamic, (i) => position.get(i)!);
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
    printed(tested.flatMap(regexConstants).join('\n')),
    {
      kind: 'list',
      open: 'const $tests: RouteTest[] = [',
      close: '];',
      empty: 'const $tests: RouteTest[] = [];',
      entries: tested.map((route) => ({ text: `  ${emitRouteTest(route)}` })),
    },
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
    code(`function match(method: string, path: string, host: string): MatchHit | undefined {
  const hit = matchStatic(method, path);
  return hit !== null ? hit : matchDynamic(method, path, host);
}

/** A static path's answer; \`null\` when the path is not one of them. */
function matchStatic(method: string, path: string): MatchHit | undefined | null {
${staticTree}
  return null;
}

const $tree = parseTree(${str(JSON.stringify(tree))});

function matchDynamic(method: string, path: string, host: string): MatchHit | undefined {
  return walkTree($tree, $tests, routes, method, path, host);
}

${functions.join('\n\n')}

const $wild: Candidate[] = ${emitCandidates(plan.wild, routes)};

function candidates(char: number): Candidate[] {
  switch (char) {
${candidates.join('\n')}
default: return $wild;
}
}

function allowed(path: string, host: string): string[] {
  return $allow[path] ?? allowedBy(candidates(path.charCodeAt(1)), path, host);
}`),
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

/** `$r<i>` (path), `$u<i>` (URL parameters of a `setMatch` route), `$d<i>` (host). */
function regexConstants(route: RouteRecord): string[] {
  const lines: [string, string][] = [];
  const i = route.index;
  if (route.match) {
    lines.push([`$r${i}`, regexLiteral(route.match.source, route.match.flags)]);
    if (route.params.length > 0) lines.push([`$u${i}`, regexLiteral(route.regex)]);
  } else {
    lines.push([`$r${i}`, regexLiteral(route.regex)]);
  }
  if (route.domain && route.domain.params.length > 0)
    lines.push([`$d${i}`, regexLiteral(route.domain.regex, 'i')]);
  return lines.map(([name, literal]) => {
    const line = `const ${name} = ${literal};`;
    // Prettier moves a value that does not fit to its own line; a regex never breaks further.
    return line.length <= WIDTH ? line : `const ${name} =\n  ${literal};`;
  });
}

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

/** A route as the runtime's shared walker tests it (runtime `RouteTest`). */
function emitRouteTest(route: RouteRecord): string {
  const verbs = route.verbs.includes('*')
    ? '0'
    : strings([...new Set([...route.verbs, ...(accepts(route, 'HEAD') ? ['HEAD'] : [])])]);
  const host = !route.domain
    ? '0'
    : route.domain.params.length
      ? regexLiteral(route.domain.regex, 'i')
      : str(route.domain.pattern);
  const program = segmentProgram(route);
  const path = route.match
    ? regexLiteral(route.match.source, route.match.flags)
    : (program ?? regexLiteral(route.regex));
  const url = route.match && route.params.length > 0 ? regexLiteral(route.regex) : '0';
  return `[${route.index}, ${verbs}, ${host}, ${path}, ${url}, ${route.params.length}, ${route.match?.captures ?? 0}]`;
}

function emitCandidates(list: readonly number[], routes: readonly RouteRecord[]): string {
  const items = list.map((i) => {
    const route = routes[i]!;
    const verbs = new Set(route.verbs);
    if (verbs.has('GET')) verbs.add('HEAD');
    const host = !route.domain
      ? ''
      : route.domain.params.length
        ? `, $d${i}`
        : `, ${str(route.domain.pattern)}`;
    return `[$r${i}, ${strings([...verbs])}${host}]`;
  });
  return `[${items.join(', ')}]`;
}
