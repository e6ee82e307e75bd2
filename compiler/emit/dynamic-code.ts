import { accepts } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { Interned } from './_intern.js';
import { str } from './_print.js';
import type { TreeNode } from './dynamic-tree.js';
import { regexLiteral } from './match.js';
import { emitPathFunction } from './path-code.js';
import { codeSteps, segmentSteps, splitHead } from './segments.js';

/**
 * The dynamic routes' path tests: straight-line code for the common shapes, the runtime's
 * `testPath` on a data row (`$tests`) for host-bound, `setMatch` and regex-shaped routes.
 * Not `inline`: every route is a data row, for the runtime's shared walker.
 */
export function emitDynamic(
  tested: readonly RouteRecord[],
  inline: boolean,
): {
  tried: TriedRoute[];
  functions: string[];
  /** The data rows, as the runtime's `testList` reads them: header and lines. */
  tests: [string, string];
  /** By position: how many leading literal segments the route's data row has as steps of their own. */
  pieces: number[];
  regexes: string[];
} {
  const functions: string[] = [];
  const rows: unknown[] = [];
  // Verb lists and regexes of the data rows, by position + 1 (`0`: every verb, or none).
  const verbSets = new Interned<string[]>();
  const verbSet = (verbs: string[]): number => verbSets.add(verbs) + 1;
  const testRegexes = new Interned<[string, string]>();
  const testRegex = (source: string, flags = ''): number => {
    new RegExp(source, flags);
    return testRegexes.add([source, flags]) + 1;
  };
  // Regexes of the generated code, hoisted to module constants `$r<position>`.
  const codeRegexes = new Interned<string>();
  const regex = (source: string): string => `$r${codeRegexes.add(source)}`;
  const pieces: number[] = [];
  const tried = tested.map((route, k): TriedRoute => {
    const name = `$p${k}`;
    const steps = route.domain || !inline ? undefined : codeSteps(route);
    if (steps !== undefined) functions.push(emitPathFunction(name, steps, regex));
    else if (!inline) {
      const [row, count] = emitRouteTest(route, testRegex, verbSet);
      rows.push(row);
      pieces[k] = count;
    } else if (!route.domain && !route.match) functions.push(emitRegexFunction(name, route, regex));
    else {
      functions.push(
        `function ${name}(path: string, host: string): Params | undefined {\n  return testPath($tests.at(${rows.length}), path, host);\n}`,
      );
      rows.push(emitRouteTest(route, testRegex, verbSet)[0]);
    }
    const verbs = route.verbs.includes('*')
      ? undefined
      : [...new Set([...route.verbs, ...(accepts(route, 'HEAD') ? ['HEAD'] : [])])];
    return { route: route.index, verbs, test: name };
  });
  return {
    tried,
    functions,
    tests: [
      JSON.stringify({ count: rows.length, verbs: verbSets.values, regexes: testRegexes.values }),
      rows.map((row) => JSON.stringify(row)).join('\n'),
    ],
    pieces,
    regexes: codeRegexes.values.map((source, k) => `const $r${k} = ${regexLiteral(source)};`),
  };
}

/**
 * A route whose shape needs its regex (a parameter matching `/`, or several in one segment):
 * its leading literal compared first, then one `exec`, whose groups are its parameters.
 */
function emitRegexFunction(
  name: string,
  route: RouteRecord,
  regex: (source: string) => string,
): string {
  const head = route.tokens[0]?.kind === 'literal' ? route.tokens[0].text : '';
  const groups = (new RegExp(`${route.regex}|`).exec('')?.length ?? 1) - 1;
  const values = Array.from({ length: groups }, (_, i) => `decodeParam(m[${i + 1}])`);
  return [
    `function ${name}(path: string): Params | undefined {`,
    ...(head === ''
      ? []
      : [`  if (path.slice(0, ${head.length}) !== ${str(head)}) return undefined;`]),
    `  const m = ${regex(route.regex)}.exec(path);`,
    '  if (m === null) return undefined;',
    `  return [${values.join(', ')}];`,
    '}',
  ].join('\n');
}

/** A dynamic route as the tree's node functions try it. */
export interface TriedRoute {
  route: number;
  /** Verbs it answers (`HEAD` included for `GET`); `undefined`: every verb. */
  verbs: readonly string[] | undefined;
  /** The function testing its path (and host): parameters or `undefined`. */
  test: string;
}

// Above this many children, a node finds the next one by a property lookup on the segment
// rather than comparing each in turn.
const COMPARE_MAX = 8;

/**
 * The dynamic-route tree as code, one function per node: the segment at the node's depth
 * picks the child (its literal prefix is known at build time, so positions are constants),
 * and a node no child takes tries its routes in registration order. Small functions, each
 * optimised on its own, however many routes the app has. Returns the functions (root first)
 * and the child tables they use.
 */
export function emitNodeFunctions(
  root: TreeNode,
  tried: readonly TriedRoute[],
): { functions: string[]; tables: string[] } {
  const functions: string[] = [];
  const tables: string[] = [];
  const emit = (node: TreeNode, prefix: number): string => {
    const name = `$n${functions.length}`;
    functions.push('');
    const body: string[] = [];
    const children = Object.entries(node.c ?? {});
    if (children.length > 0) {
      const start = prefix + 1;
      body.push(`let end = path.indexOf('/', ${start});`, 'if (end === -1) end = path.length;');
      const named = children.map(([segment, child]) => {
        return [segment, emit(child, prefix + 1 + segment.length)] as const;
      });
      if (named.length <= COMPARE_MAX) {
        for (const [segment, fn] of named) {
          const test =
            segment === ''
              ? `end <= ${start}`
              : `end === ${start + segment.length} && path.slice(${start}, end) === ${str(segment)}`;
          body.push(`if (${test}) return ${fn}(method, path, host);`);
        }
      } else {
        const table = `$k${tables.length}`;
        tables.push(
          [
            `const ${table} = new Map<string, typeof ${name}>([`,
            ...named.map(([segment, fn]) => `  [${str(segment)}, ${fn}],`),
            ']);',
          ].join('\n'),
        );
        body.push(
          `const next = ${table}.get(path.slice(${start}, end));`,
          'if (next !== undefined) return next(method, path, host);',
        );
      }
    }
    if (node.t.length > 0) body.push('let p: Params | undefined;');
    for (const position of node.t) body.push(...tryRoute(tried[position]!));
    body.push('return undefined;');
    functions[Number(name.slice(2))] = [
      `function ${name}(method: string, path: string, host: string): MatchHit | undefined {`,
      ...body.map((line) => `  ${line}`),
      '}',
    ].join('\n');
    return name;
  };
  emit(root, 0);
  return { functions, tables };
}

// --- internal ---

/**
 * A route as the runtime's `testPath` reads it (runtime `RouteTest`, as `testList` JSON), and
 * how many leading literal segments its path program has as steps of their own (`splitHead`).
 */
function emitRouteTest(
  route: RouteRecord,
  regex: (source: string, flags?: string) => number,
  verbSet: (verbs: string[]) => number,
): [row: unknown[], pieces: number] {
  const verbs = route.verbs.includes('*')
    ? 0
    : verbSet([...new Set([...route.verbs, ...(accepts(route, 'HEAD') ? ['HEAD'] : [])])]);
  const host = !route.domain
    ? 0
    : route.domain.params.length
      ? regex(route.domain.regex, 'i')
      : route.domain.pattern;
  const simple = segmentSteps(route);
  const split = simple && splitHead(simple);
  const program = split?.steps.map((step) =>
    step.kind === 'literal'
      ? step.text
      : [step.optional ? 1 : 0, step.check === undefined ? 0 : regex(step.check)],
  );
  const path = route.match
    ? regex(route.match.source, route.match.flags)
    : (program ?? regex(route.regex));
  const url = route.match && route.params.length > 0 ? regex(route.regex) : 0;
  return [
    [route.index, verbs, host, path, url, route.params.length, route.match?.captures ?? 0],
    split?.pieces ?? 0,
  ];
}
function tryRoute(route: TriedRoute): string[] {
  const attempt = [
    `p = ${route.test}(path, host);`,
    `if (p !== undefined) return { route: $routes.at(${route.route}), params: p };`,
  ];
  if (route.verbs === undefined) return attempt;
  const verbs = route.verbs.map((verb) => `method === ${str(verb)}`).join(' || ');
  return [`if (${verbs}) {`, ...attempt.map((line) => `  ${line}`), '}'];
}
