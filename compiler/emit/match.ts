import { accepts } from '../plan.js';
import type { MatcherPlan, PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { key, str, strings, WIDTH } from './_print.js';

/**
 * The matcher as code: the static lookup, then a `switch` on the first segment whose cases
 * try their routes in registration order (verb first, it is the cheaper test).
 */
export function emitMatcher(routes: readonly RouteRecord[], plan: MatcherPlan): Chunk[] {
  const dynamic = routes.filter((r) => r.params.length > 0);
  const regexes = dynamic.map((r) => {
    const line = `const $r${r.index} = ${regexLiteral(r.regex)};`;
    // Prettier moves a value that does not fit to its own line; a regex never breaks further.
    return line.length <= WIDTH ? line : `const $r${r.index} =\n  ${regexLiteral(r.regex)};`;
  });
  const cases = [...plan.buckets].map(
    ([segment, list]) =>
      `case ${str(segment)}:\n${list.map((i) => emitTest(routes[i]!)).join('\n')}\nbreak;`,
  );
  const fallback = plan.wild.map((i) => emitTest(routes[i]!)).join('\n');
  const candidates = [...plan.buckets].map(
    ([segment, list]) => `case ${str(segment)}: return ${emitCandidates(list, routes)};`,
  );
  const statics: Chunk = {
    kind: 'list',
    open: 'const $static: Record<string, Record<string, MatchHit>> = {\n  __proto__: null,',
    close: '} as never;',
    empty:
      'const $static: Record<string, Record<string, MatchHit>> = {\n  __proto__: null,\n} as never;',
    entries: [...plan.statics].map(([path, entry]) => ({ text: emitEntry(path, entry) })),
  };
  return [
    printed(regexes.join('\n')),
    statics,
    code(`function match(method: string, path: string): MatchHit | undefined {
  const entry = $static[path];
  if (entry !== undefined) return entry[method] ?? entry['*'];
  let m: RegExpExecArray | null;
  switch (firstSegment(path)) {
${cases.join('\n')}
default:
${fallback}
}
  return undefined;
}

const $wild: Candidate[] = ${emitCandidates(plan.wild, routes)};

function candidates(segment: string): Candidate[] {
  switch (segment) {
${candidates.join('\n')}
default: return $wild;
}
}

function allowed(path: string): string[] {
  const entry = $static[path];
  return entry !== undefined ? Object.keys(entry) : allowedBy(candidates(firstSegment(path)), path);
}`),
  ];
}

/** A regex literal for `source`: `/` and line breaks escaped, validated. */
export function regexLiteral(source: string): string {
  new RegExp(source);
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
  return `/${out}/`;
}

// --- internal ---

function emitEntry(path: string, entry: Map<string, PlannedHit>): string {
  const lines = [...entry].map(([verb, hit]) => `    ${key(verb)}: ${emitHit(hit)},`);
  return [`  ${str(path)}: {`, '    __proto__: null,', ...lines, '  }'].join('\n');
}

function emitHit(hit: PlannedHit): string {
  const params = hit.params.map((p) => (p === undefined ? 'undefined' : str(p)));
  return `{ route: routes[${hit.route}], params: [${params.join(', ')}] }`;
}

function emitTest(route: RouteRecord): string {
  const verbs = verbCheck(route);
  const params = route.params.map((_, i) => `d(m[${i + 1}])`).join(', ');
  const regex = `(m = $r${route.index}.exec(path)) !== null`;
  const condition = verbs ? `(${verbs}) && ${regex}` : regex;
  return `if (${condition}) return { route: routes[${route.index}], params: [${params}] };`;
}

function verbCheck(route: RouteRecord): string {
  if (route.verbs.includes('*')) return '';
  const verbs = new Set(route.verbs);
  if (accepts(route, 'HEAD')) verbs.add('HEAD');
  return [...verbs].map((v) => `method === ${str(v)}`).join(' || ');
}

function emitCandidates(list: readonly number[], routes: readonly RouteRecord[]): string {
  const items = list.map((i) => {
    const verbs = new Set(routes[i]!.verbs);
    if (verbs.has('GET')) verbs.add('HEAD');
    return `[$r${i}, ${strings([...verbs])}]`;
  });
  return `[${items.join(', ')}]`;
}
