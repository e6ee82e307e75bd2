import { HOST_FLAGS } from '../groups.js';
import { ROUTE_FLAGS } from '../pattern.js';
import { paramFlags } from '../regex.js';
import { accepts, literalPrefix } from '../plan.js';
import type { RouteRecord } from '../types.js';
import { describeRoute } from './_describe.js';
import { regexLiteral, str } from './_print.js';
import { hostBound, pathBound } from './bounds.js';
import { normalWithNormalRest } from './normal-only.js';
import type { RegexConstant } from './path-code.js';
import {
  classUnit,
  codeSteps,
  segmentSteps,
  splitHead,
  type SegmentStep,
  type SimpleStep,
} from './segments.js';

/**
 * The dynamic routes' path tests as data rows (`$tests`, runtime `RouteTests`: read by the
 * shared walker of a large app, and by `allowed`), and for a smaller app (`inline`) what its
 * tree's node functions call for a route they cannot test in place: straight-line code for a
 * regex-shaped route, its data row for a host-bound or `setMatch` one. The node functions test
 * every other route in place (`node-code`). `regex` names the module constant holding a regex.
 */
export function emitDynamic(
  tested: readonly RouteRecord[],
  inline: boolean,
  regex: RegexConstant,
): { tried: TriedRoute[]; functions: string[]; rows: string[] } {
  const functions: string[] = [];
  const tried = tested.map((route, k): TriedRoute => {
    const name = `$p${k}`;
    const steps =
      route.domain || !inline ? undefined : codeSteps(route, normalWithNormalRest(route));
    const split = steps && splitHead(steps);
    if (inline && steps === undefined) {
      functions.push(
        !route.domain && !route.match
          ? emitRegexFunction(name, route, regex)
          : `function ${name}(path: string, host: string): Params | undefined {\n  return testPath($tests.of(${route.index}), path, host);\n}`,
      );
    }
    return {
      route: route.index,
      about: describeRoute(route),
      verbs: verbsOf(route),
      test: name,
      steps: split?.steps,
      pieces: split?.pieces ?? 0,
    };
  });
  return { tried, functions, rows: tested.map((route) => JSON.stringify(testRow(route))) };
}

/**
 * A route whose shape needs its regex (a parameter matching `/`, or several in one segment):
 * its leading literal compared first, then one `exec` (on a path within its bound, `within`),
 * whose groups are its parameters; a value with an escape must then pass its own regex decoded
 * (`decodedPasses`).
 */
function emitRegexFunction(name: string, route: RouteRecord, regex: RegexConstant): string {
  const head = route.tokens[0]?.kind === 'literal' ? route.tokens[0].text : '';
  const groups = (new RegExp(`${route.regex}|`, ROUTE_FLAGS).exec('')?.length ?? 1) - 1;
  const values = Array.from({ length: groups }, (_, i) => `decodeParam(m[${i + 1}])`);
  const checks = decodedChecks(route).map(
    ([group, source, flags]) =>
      `  if (!decodedPasses(m[${group}], ${regex(regexLiteral(source, flags))})) return undefined;`,
  );
  const [fixed, params] = pathBound(route);
  return [
    `function ${name}(path: string, host: string): Params | undefined {`,
    ...(head === ''
      ? []
      : [`  if (path.slice(0, ${head.length}) !== ${str(head)}) return undefined;`]),
    `  if (!within(path, ${fixed}, ${params})) return undefined;`,
    `  const m = ${regex(regexLiteral(route.regex, ROUTE_FLAGS))}.exec(path);`,
    '  if (m === null) return undefined;',
    ...checks,
    `  return [${values.join(', ')}];`,
    '}',
  ].join('\n');
}

/**
 * The parameters of a route's regex whose value may hold an escape (`%2F`, `%25`) and read
 * otherwise decoded, as `[group, anchored regex, flags]` (the form the ReDoS gate checks): the
 * matcher tests each such value again, decoded (runtime `decodedPasses`). A class without `%`
 * (`\w+`, `[0-9]+`) never captures an escape; `.*` and `.+` take a decoded `/` or `%` as they
 * take the escape's characters.
 */
function decodedChecks(route: RouteRecord): [group: number, source: string, flags: string][] {
  const out: [number, string, string][] = [];
  let group = 0;
  for (const token of route.tokens) {
    if (token.kind !== 'param') continue;
    group++;
    const flags = paramFlags(token);
    if (token.regex === '.*' || token.regex === '.+') continue;
    if (classUnit(token.regex, flags)?.test('%') === false) continue;
    out.push([group, `^(?:${token.regex})$`, flags]);
  }
  return out;
}

/** A dynamic route as the tree's node functions try it. */
export interface TriedRoute {
  route: number;
  /** The route in a few words, for a comment (`describeRoute`). */
  about: string;
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

/** The verbs a route answers (`HEAD` included for `GET`); `undefined`: every verb. */
function verbsOf(route: RouteRecord): string[] | undefined {
  if (route.verbs.includes('*')) return undefined;
  return [...new Set([...route.verbs, ...(accepts(route, 'HEAD') ? ['HEAD'] : [])])];
}

/** A route as the runtime's `RouteTests` reads it (see there). */
function testRow(route: RouteRecord): unknown[] {
  const verbs = verbsOf(route)?.join('|') ?? '*';
  const domain = route.domain;
  const host =
    domain === undefined
      ? undefined
      : domain.params.length === 0
        ? domain.pattern
        : { ...checked(domain.regex, HOST_FLAGS), ...bounded(hostBound(domain.tokens)) };
  const simple = segmentSteps(route);
  const bound = bounded(pathBound(route));
  const checks = decodedChecks(route);
  const decoded = checks.length === 0 ? {} : { checks };
  const path = route.match
    ? {
        match: checked(route.match.source, route.match.flags).regex,
        flags: route.match.flags,
        ...bound,
        ...(route.params.length > 0
          ? { url: checked(route.regex, ROUTE_FLAGS).regex, urlFlags: ROUTE_FLAGS }
          : {}),
        urlParams: route.params.length,
        captures: route.match.captures,
        ...decoded,
      }
    : simple
      ? splitHead(simple).steps.map(stepRow)
      : { ...checked(route.regex, ROUTE_FLAGS), ...bound, head: literalPrefix(route), ...decoded };
  return host === undefined ? [route.index, verbs, path] : [route.index, verbs, path, host];
}

/** A regex as a row holds it, validated. */
function checked(regex: string, flags: string): { regex: string; flags: string } {
  new RegExp(regex, flags);
  return { regex, flags };
}

/** What bounds the string a regex runs on (`within`), as a row holds it. */
function bounded([fixed, params]: readonly [number, number]): { fixed: number; params: number } {
  return { fixed, params };
}

/** A step of a path program as a row holds it: a word parameter as `{name}` or `{name?}`. */
function stepRow(step: SimpleStep): unknown {
  if (step.kind === 'literal') return step.text;
  if (step.check === undefined) return `{${step.name}${step.optional ? '?' : ''}}`;
  return {
    param: step.name,
    ...(step.optional ? { optional: true } : {}),
    ...(step.run !== undefined ? { run: step.run } : { regex: step.check, flags: step.flags }),
  };
}
