import { HOST_FLAGS } from '../groups.js';
import { ROUTE_FLAGS } from '../pattern.js';
import { accepts } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { Interned } from './_intern.js';
import { regexLiteral, str } from './_print.js';
import { pathBound, regexBound } from './bounds.js';
import { normalWithNormalRest } from './normal-only.js';
import type { RegexConstant } from './path-code.js';
import { codeSteps, segmentSteps, splitHead, type SegmentStep } from './segments.js';

/**
 * The dynamic routes' path tests as data rows (`$tests`, read by the runtime's `testPath`: the
 * shared walker of a large app, and `allowed`), and for a smaller app (`inline`) what its
 * tree's node functions call for a route they cannot test in place: straight-line code for a
 * regex-shaped route, the data row for a host-bound or `setMatch` one. The node functions test
 * every other route in place (`node-code`). `regex` names the module constant holding a regex.
 */
export function emitDynamic(
  tested: readonly RouteRecord[],
  inline: boolean,
  regex: RegexConstant,
): {
  tried: TriedRoute[];
  functions: string[];
  /** The data rows, as the runtime's `testList` reads them: header and lines. */
  tests: [string, string];
  /** By position: how many leading literal segments the route's data row has as steps of their own. */
  pieces: number[];
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
  const pieces: number[] = [];
  const tried = tested.map((route, k): TriedRoute => {
    const name = `$p${k}`;
    const [row, count] = emitRouteTest(route, testRegex, verbSet);
    rows.push(row);
    pieces[k] = count;
    const steps =
      route.domain || !inline ? undefined : codeSteps(route, normalWithNormalRest(route));
    const split = steps && splitHead(steps);
    if (inline && steps === undefined) {
      functions.push(
        !route.domain && !route.match
          ? emitRegexFunction(name, route, regex)
          : `function ${name}(path: string, host: string): Params | undefined {\n  return testPath($tests.at(${k}), path, host);\n}`,
      );
    }
    const verbs = route.verbs.includes('*')
      ? undefined
      : [...new Set([...route.verbs, ...(accepts(route, 'HEAD') ? ['HEAD'] : [])])];
    return {
      route: route.index,
      verbs,
      test: name,
      steps: split?.steps,
      pieces: split?.pieces ?? 0,
    };
  });
  return {
    tried,
    functions,
    tests: [
      JSON.stringify({ count: rows.length, verbs: verbSets.values, regexes: testRegexes.values }),
      rows.map((row) => JSON.stringify(row)).join('\n'),
    ],
    pieces,
  };
}

/**
 * A route whose shape needs its regex (a parameter matching `/`, or several in one segment):
 * its leading literal compared first, then one `exec` (on a path within its bound, `within`),
 * whose groups are its parameters.
 */
function emitRegexFunction(name: string, route: RouteRecord, regex: RegexConstant): string {
  const head = route.tokens[0]?.kind === 'literal' ? route.tokens[0].text : '';
  const groups = (new RegExp(`${route.regex}|`, ROUTE_FLAGS).exec('')?.length ?? 1) - 1;
  const values = Array.from({ length: groups }, (_, i) => `decodeParam(m[${i + 1}])`);
  const [fixed, params] = pathBound(route);
  return [
    `function ${name}(path: string): Params | undefined {`,
    ...(head === ''
      ? []
      : [`  if (path.slice(0, ${head.length}) !== ${str(head)}) return undefined;`]),
    `  if (!within(path, ${fixed}, ${params})) return undefined;`,
    `  const m = ${regex(regexLiteral(route.regex, ROUTE_FLAGS))}.exec(path);`,
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
  /** Its path test as steps, with its leading literal split by segment (`splitHead`), when code. */
  steps: readonly SegmentStep[] | undefined;
  /** How many leading literal segments `steps` has as steps of their own. */
  pieces: number;
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
      ? regex(route.domain.regex, HOST_FLAGS)
      : route.domain.pattern;
  const simple = segmentSteps(route);
  const split = simple && splitHead(simple);
  const program = split?.steps.map((step) =>
    step.kind === 'literal'
      ? step.text
      : step.run !== undefined
        ? [step.optional ? 1 : 0, 0, step.run]
        : [step.optional ? 1 : 0, step.check === undefined ? 0 : regex(step.check, step.flags)],
  );
  const path = route.match
    ? regex(route.match.source, route.match.flags)
    : (program ?? regex(route.regex, ROUTE_FLAGS));
  const url = route.match && route.params.length > 0 ? regex(route.regex, ROUTE_FLAGS) : 0;
  const bound = regexBound(route, program === undefined);
  return [
    [
      route.index,
      verbs,
      host,
      path,
      url,
      route.params.length,
      route.match?.captures ?? 0,
      ...(bound === 0 ? [] : [bound]),
    ],
    split?.pieces ?? 0,
  ];
}
