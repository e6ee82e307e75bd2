import type { RouteRecord } from '../types.js';
import { str } from './_print.js';

// At or below this many routes a list of tests beats another level of dispatch.
const LINEAR_MAX = 6;
// Below this many keys, comparing them in turn beats a switch on a character.
const KEYS_LINEAR_MAX = 4;

/**
 * Dispatch over the literal segments the routes start with, level by level: at each level
 * the path's segment is found with one `indexOf`, then a decision tree (length, characters,
 * one `startsWith`) picks the routes whose literal segment it is. Routes that do not fix the
 * segment at that level go down every branch, so each branch holds every route that can
 * match there, still in registration order.
 */
export function emitDynamicTree(
  routes: readonly RouteRecord[],
  list: readonly number[],
  test: (route: RouteRecord) => string,
  functions: string[],
): string {
  return emitLevel(routes, [...list], 0, 1, test, functions);
}

// A branch with more routes, or more lines, than this becomes a function of its own: V8 does
// not optimise very large functions, and one huge matcher would stay in its slowest tier.
const FUNCTION_MIN = 16;
const BODY_LINES_MAX = 12;

/** The variables every matching function's tests use. */
export const PREAMBLE = `let m: RegExpExecArray | null;
let h: RegExpExecArray | null;
let p: (string | undefined)[] | undefined;`;

// --- internal ---

function emitLevel(
  routes: readonly RouteRecord[],
  list: number[],
  depth: number,
  offset: number,
  test: (route: RouteRecord) => string,
  functions: string[],
): string {
  const linear = () => list.map((i) => test(routes[i]!)).join('\n');
  if (list.length <= LINEAR_MAX) return linear();
  const groups = new Map<string, number[]>();
  const loose: number[] = [];
  for (const i of list) {
    const key = segmentsOf(routes[i]!)[depth];
    if (key === undefined) loose.push(i);
    else groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  // No route fixes this segment, or one group with loose routes beside it: no gain.
  if (groups.size === 0 || (groups.size === 1 && loose.length > 0)) return linear();
  const end = `e${depth}`;
  const branches = new Map<string, string>();
  for (const [key, own] of groups) {
    const members = [...own, ...loose].sort((a, b) => a - b);
    const body = `${emitLevel(routes, members, depth + 1, offset + key.length + 1, test, functions)}\nreturn undefined;`;
    if (members.length <= FUNCTION_MIN && body.split('\n').length <= BODY_LINES_MAX) {
      branches.set(key, body);
    } else {
      const name = `$b${functions.length}`;
      functions.push(
        `function ${name}(method: string, path: string, host: string): MatchHit | undefined {\n${PREAMBLE}\n${body}\n}`,
      );
      branches.set(key, `return ${name}(method, path, host);`);
    }
  }
  const head = `const ${end} = path.indexOf('/', ${offset});\nconst n${depth} = (${end} === -1 ? path.length : ${end}) - ${offset};`;
  return `${head}\n${emitKeys([...branches], offset, `n${depth}`)}\n${loose.map((i) => test(routes[i]!)).join('\n')}`;
}

/** The complete literal segments a route's paths begin with (`/a/b/{id}` → `a`, `b`). */
function segmentsOf(route: RouteRecord): string[] {
  if (route.match) return [];
  const [head, next] = route.tokens;
  if (!head) return [''];
  if (head.kind !== 'literal') return [];
  const parts = head.text.split('/').slice(1);
  // The last literal segment is complete only when a `/` or the end of the pattern follows it.
  const complete = next === undefined || (next.kind === 'param' && next.separator === '/');
  return complete ? parts : parts.slice(0, -1);
}

/** A decision tree over segment keys (by length, then characters) ending in `startsWith`. */
function emitKeys(branches: [string, string][], offset: number, length: string): string {
  const byLength = new Map<number, [string, string][]>();
  for (const branch of branches)
    byLength.set(branch[0].length, [...(byLength.get(branch[0].length) ?? []), branch]);
  const cases = [...byLength]
    .sort(([a], [b]) => a - b)
    .map(([n, group]) => `case ${n}:\n${emitKeyGroup(group, offset)}\nbreak;`);
  return `switch (${length}) {\n${cases.join('\n')}\n}`;
}

function emitKeyGroup(group: [string, string][], offset: number): string {
  if (group.length <= KEYS_LINEAR_MAX) {
    return group
      .map(([key, body]) => `if (path.startsWith(${str(key)}, ${offset})) {\n${body}\n}`)
      .join('\n');
  }
  const position = bestPosition(group.map(([key]) => key));
  const byChar = new Map<number, [string, string][]>();
  for (const branch of group) {
    const code = branch[0].charCodeAt(position);
    byChar.set(code, [...(byChar.get(code) ?? []), branch]);
  }
  const cases = [...byChar]
    .sort(([a], [b]) => a - b)
    .map(([code, sub]) => `case ${code}:\n${emitKeyGroup(sub, offset)}\nbreak;`);
  return `switch (path.charCodeAt(${offset + position})) {\n${cases.join('\n')}\n}`;
}

function bestPosition(keys: readonly string[]): number {
  let best = 0;
  let bestScore = -1;
  for (let position = 0; position < keys[0]!.length; position++) {
    const counts = new Map<number, number>();
    for (const key of keys)
      counts.set(key.charCodeAt(position), (counts.get(key.charCodeAt(position)) ?? 0) + 1);
    const score = counts.size * keys.length - Math.max(...counts.values());
    if (score > bestScore) {
      bestScore = score;
      best = position;
    }
  }
  return best;
}
