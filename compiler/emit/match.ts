import { accepts, isStaticPath, type MatcherPlan, type PlannedHit } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { key, str, strings, WIDTH } from './_print.js';

/**
 * The matcher as code: the static lookup, then a `switch` on the first segment whose cases
 * try their routes in registration order (verb first, host next, path last: cheapest first).
 */
export function emitMatcher(routes: readonly RouteRecord[], plan: MatcherPlan): Chunk[] {
  const tested = routes.filter((r) => !isStaticPath(r) || !plan.statics.has(r.url) || r.domain);
  const cases = [...plan.buckets].map(
    ([segment, list]) =>
      `case ${str(segment)}:\n${list.map((i) => emitTest(routes[i]!)).join('\n')}\nbreak;`,
  );
  const fallback = plan.wild.map((i) => emitTest(routes[i]!)).join('\n');
  const candidates = [...plan.buckets].map(
    ([segment, list]) => `case ${str(segment)}: return ${emitCandidates(list, routes)};`,
  );
  return [
    printed(tested.flatMap(regexConstants).join('\n')),
    {
      kind: 'list',
      open: 'const $static: Record<string, Record<string, MatchHit>> = {\n  __proto__: null,',
      close: '} as never;',
      empty:
        'const $static: Record<string, Record<string, MatchHit>> = {\n  __proto__: null,\n} as never;',
      entries: [...plan.statics].map(([path, entry]) => ({ text: emitEntry(path, entry) })),
    },
    code(`function match(method: string, path: string, host: string): MatchHit | undefined {
  const entry = $static[path];
  if (entry !== undefined) return entry[method] ?? entry['*'];
  let m: RegExpExecArray | null;
  let h: RegExpExecArray | null;
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

function allowed(path: string, host: string): string[] {
  const entry = $static[path];
  return entry !== undefined ? Object.keys(entry) : allowedBy(candidates(firstSegment(path)), path, host);
}`),
  ];
}

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

function emitEntry(path: string, entry: Map<string, PlannedHit>): string {
  const lines = [...entry].map(([verb, hit]) => `    ${key(verb)}: ${emitHit(hit)},`);
  return [`  ${str(path)}: {`, '    __proto__: null,', ...lines, '  }'].join('\n');
}

function emitHit(hit: PlannedHit): string {
  const params = hit.params.map((p) => (p === undefined ? 'undefined' : str(p)));
  return `{ route: routes[${hit.route}], params: [${params.join(', ')}] }`;
}

function emitTest(route: RouteRecord): string {
  const i = route.index;
  const conditions = [
    verbCheck(route),
    hostCheck(route),
    `(m = $r${i}.exec(path)) !== null`,
  ].filter(Boolean);
  const domain = (route.domain?.params ?? []).map((_, k) => `h[${k + 1}]`);
  const url = route.params.map((_, k) => (route.match ? `d(u?.[${k + 1}])` : `d(m[${k + 1}])`));
  const captures = Array.from({ length: route.match?.captures ?? 0 }, (_, k) => `d(m[${k + 1}])`);
  const hit = `{ route: routes[${i}], params: [${[...domain, ...url, ...captures].join(', ')}] }`;
  const condition = conditions.map((c) => (c.includes('||') ? `(${c})` : c)).join(' && ');
  if (route.match && route.params.length > 0) {
    return `if (${condition}) {\nconst u = $u${i}.exec(path);\nreturn ${hit};\n}`;
  }
  return `if (${condition}) return ${hit};`;
}

function verbCheck(route: RouteRecord): string {
  if (route.verbs.includes('*')) return '';
  const verbs = new Set(route.verbs);
  if (accepts(route, 'HEAD')) verbs.add('HEAD');
  return [...verbs].map((v) => `method === ${str(v)}`).join(' || ');
}

function hostCheck(route: RouteRecord): string {
  if (!route.domain) return '';
  if (route.domain.params.length === 0) return `host === ${str(route.domain.pattern)}`;
  return `(h = $d${route.index}.exec(host)) !== null`;
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
