import { str } from './_print.js';
import type { TriedRoute } from './dynamic-code.js';
import { walkedPieces, type TreeNode } from './dynamic-tree.js';
import {
  hasAt,
  paramLines,
  pathLines,
  print,
  type CodeContext,
  type Position,
  type RegexConstant,
} from './path-code.js';
import type { SegmentStep } from './segments.js';

/**
 * The dynamic-route tree as code, one function per node: the segment at the node's depth
 * picks the child (its literal prefix is known at build time, so positions are constants),
 * and a node no child takes tries its routes in registration order, each from where the
 * walk left the path (`routeLines`). Small functions, each optimised on its own, however many
 * routes the app has. A node of more than `compareMax` children finds the next by a `Map`
 * lookup on the segment. Returns the functions (root first) and the child tables they use.
 */
export function emitNodeFunctions(
  root: TreeNode,
  tried: readonly TriedRoute[],
  regex: RegexConstant,
  compareMax: number,
): { functions: string[]; tables: string[] } {
  const functions: string[] = [];
  const tables: string[] = [];
  const emit = (node: TreeNode, prefix: number, under: string): string => {
    const name = `$n${functions.length}`;
    functions.push('');
    const body: string[] = [];
    const children = Object.entries(node.c ?? {});
    if (children.length > 0) {
      const start = prefix + 1;
      body.push(`let end = path.indexOf('/', ${start});`, 'if (end === -1) end = path.length;');
      const named = children.map(([segment, child]) => {
        return [segment, emit(child, prefix + 1 + segment.length, `${under}/${segment}`)] as const;
      });
      if (named.length <= compareMax) {
        for (const [segment, fn] of named) {
          const test =
            segment === ''
              ? `end <= ${start}`
              : `end === ${start + segment.length} && ${hasAt(segment, { variable: undefined, offset: start })}`;
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
    body.push(...routeLines(node, tried, regex), 'return undefined;');
    functions[Number(name.slice(2))] = [
      `/** Paths ${under === '' ? 'that are no static path' : `under ${JSON.stringify(under.replace(/\*\//g, '*\\/'))}`}. */`,
      `function ${name}(method: string, path: string, host: string): MatchHit | undefined {`,
      ...body.map((line) => `  ${line}`),
      '}',
    ].join('\n');
    return name;
  };
  emit(root, 0, '');
  return { functions, tables };
}

// --- internal ---

/** A route a node tries, and where its path test goes on from. */
interface Attempt {
  route: TriedRoute;
  /** The steps still to test; `undefined`: the route's own function tests the whole path. */
  steps: readonly SegmentStep[] | undefined;
  at: Position;
}

/**
 * A node's routes in registration order. The literal segments the walk compared are not
 * compared again (a route starts after those of its leading ones the node's depth covers), and
 * consecutive routes that go on with the same literal and parameter read them once: the
 * requests of `/event/{id}`, `/event/{id}/comments` and `/event/{id}/comment` find the end of
 * `id` once, then compare what follows.
 */
function routeLines(node: TreeNode, tried: readonly TriedRoute[], regex: RegexConstant): string[] {
  const attempts = node.t.map((position): Attempt => {
    const route = tried[position]!;
    if (route.steps === undefined) return { route, steps: undefined, at: START };
    const skipped = route.steps.slice(0, walkedPieces(node, route.pieces));
    const offset = skipped.reduce(
      (sum, step) => sum + (step.kind === 'literal' ? step.text.length : 0),
      0,
    );
    return { route, steps: route.steps.slice(skipped.length), at: { variable: undefined, offset } };
  });
  let count = 0;
  const names = (kind: string): string => `${kind}${++count}`;
  const lines = attemptLines(attempts, [], names, regex);
  return attempts.some((a) => a.steps === undefined)
    ? ['let p: Params | undefined;', ...lines]
    : lines;
}

function attemptLines(
  attempts: readonly Attempt[],
  values: readonly string[],
  names: (kind: string) => string,
  regex: RegexConstant,
): string[] {
  const lines: string[] = [];
  for (let i = 0; i < attempts.length;) {
    const attempt = attempts[i]!;
    const shared = leadingParam(attempt);
    let j = i + 1;
    while (shared && j < attempts.length && sameParam(shared, leadingParam(attempts[j]!))) j++;
    if (shared && j - i > 1) {
      // The literal and parameter the routes begin with, read once; each route goes on after it.
      const label = names('b');
      const context: CodeContext = { fail: `break ${label};`, name: names, regex };
      const param = paramLines(shared, shared.pending, attempt.at, context);
      const rest = attempts.slice(i, j).map((a) => ({
        route: a.route,
        steps: a.steps!.slice(shared.length),
        at: param.end,
      }));
      lines.push(
        `${label}: {`,
        ...indent([
          ...param.lines,
          ...param.checks,
          ...attemptLines(rest, [...values, param.value], names, regex),
        ]),
        '}',
      );
      i = j;
      continue;
    }
    lines.push(...singleLines(attempt, values, names, regex));
    i++;
  }
  return lines;
}

function singleLines(
  { route, steps, at }: Attempt,
  values: readonly string[],
  names: (kind: string) => string,
  regex: RegexConstant,
): string[] {
  const hit = (params: string, normal = false): string =>
    `return { route: $routes.at(${route.route}), params: ${params}${normal ? ', normal: true' : ''} };`;
  const about = `// ${route.about}`;
  if (steps === undefined) {
    const attempt = [`p = ${route.test}(path, host);`, `if (p !== undefined) ${hit('p')}`];
    if (route.verbs === undefined) return [about, ...attempt];
    return [about, `if (${verbTest(route.verbs)}) {`, ...indent(attempt), '}'];
  }
  const label = names('b');
  const context: CodeContext = { fail: `break ${label};`, name: names, regex };
  const guard =
    route.verbs === undefined
      ? []
      : [`if (${route.verbs.map((v) => `method !== ${str(v)}`).join(' && ')}) ${context.fail}`];
  const test = pathLines(steps, at, values, context, (found, normal) =>
    hit(`[${found.join(', ')}]`, normal),
  );
  return [about, `${label}: {`, ...indent([...guard, ...test]), '}'];
}

/** The literal and required parameter a route's remaining steps begin with. */
function leadingParam(attempt: Attempt):
  | {
      pending: string;
      check: string | undefined;
      flags: string;
      run: string | undefined;
      length: number;
      at: string;
    }
  | undefined {
  const steps = attempt.steps;
  if (steps === undefined) return undefined;
  let pending = '';
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    if (step.kind === 'literal') pending += step.text;
    else if (step.kind === 'param' && !step.optional) {
      const { check, flags, run } = step;
      return { pending, check, flags, run, length: k + 1, at: print(attempt.at) };
    } else return undefined;
  }
  return undefined;
}

function sameParam(
  a: NonNullable<ReturnType<typeof leadingParam>>,
  b: ReturnType<typeof leadingParam>,
): boolean {
  return (
    b !== undefined &&
    a.pending === b.pending &&
    a.check === b.check &&
    a.flags === b.flags &&
    a.at === b.at
  );
}

function verbTest(verbs: readonly string[]): string {
  return verbs.map((verb) => `method === ${str(verb)}`).join(' || ');
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

const START: Position = { variable: undefined, offset: 0 };
