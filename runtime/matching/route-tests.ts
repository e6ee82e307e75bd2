import { Rows } from './rows.js';
import { charRun, leadingSegments, type SegmentProgram } from './segments.js';

/**
 * A route as `testPath` reads it (a route the generated code does not test in place): its
 * number, verbs (`0`: every verb), host (`0`: any), path test (a segment program, or an anchored
 * regex whose groups are the URL parameters, or a `setMatch` regex), for `setMatch` routes the
 * URL regex, the counts of both kinds, and when a regex reads the whole host or path, what
 * bounds the string it may run on (`within`): its literal characters and parameters.
 */
export interface RouteTest {
  readonly route: number;
  readonly verbs: readonly string[] | 0;
  readonly host: RegExp | string | 0;
  readonly hostBound: readonly [fixed: number, params: number] | 0;
  readonly path: SegmentProgram | RegExp;
  /** For a path regex: its bound and the literal every path it matches starts with. */
  readonly pathBound: readonly [fixed: number, params: number, head: string] | 0;
  readonly url: RegExp | 0;
  readonly urlParams: number;
  readonly captures: number;
  /**
   * For a path regex (a `setMatch` route's: its URL regex), the parameters whose value may hold
   * an escape, by group, each with its own anchored regex, which the decoded value must pass
   * (`decodedPasses`).
   */
  readonly checks: readonly (readonly [group: number, check: RegExp])[];
  /** How many literal segments the program starts with (`leadingSegments`). */
  readonly pieces: number;
}

/**
 * The routes a large app's walker and `allowed` test, as the generated module lists them: one
 * JSON array per line, in registration order, `[route, verbs, path, host?]`: the route's number,
 * the verbs it answers (`GET|HEAD`; `*`: every verb), its path, segment by segment (literals;
 * parameters as `"{id}"`, a word, `"{id?}"`, or `{ param, optional?, run? | regex, flags }`), or
 * as a regex (`{ regex, flags, fixed, params, head, checks? }`: what bounds the path it runs on,
 * the literal every path it matches starts with, and `[group, regex, flags]` for each parameter
 * whose value may hold an escape), or a `setMatch` route's (`{ match, flags, fixed, params, url?,
 * urlFlags?, urlParams, captures, checks? }`), and its host (a name, or `{ regex, flags, fixed,
 * params }`). Each is read when first tried.
 */
export class RouteTests {
  readonly #rows: Rows<RouteTest>;
  #positions: Map<number, number> | undefined;

  constructor(rows: string) {
    this.#rows = new Rows(rows, readTest);
  }

  get length(): number {
    return this.#rows.length;
  }

  /** The test at `position` (its line). */
  at(position: number): RouteTest {
    return this.#rows.at(position);
  }

  /** The line of route `route`'s test. */
  positionOf(route: number): number {
    if (this.#positions === undefined) {
      this.#positions = new Map();
      for (let k = 0; k < this.length; k++) this.#positions.set(this.at(k).route, k);
    }
    const position = this.#positions.get(route);
    if (position === undefined) throw new Error(`course: no test for route ${route}`);
    return position;
  }

  /** The test of route `route`. */
  of(route: number): RouteTest {
    return this.at(this.positionOf(route));
  }
}

// --- internal ---

interface Bounded {
  fixed: number;
  params: number;
}

/** The parameters of a path regex whose decoded value is tested again: `[group, regex, flags]`. */
interface Checked {
  checks?: [group: number, regex: string, flags: string][];
}

type Step =
  string | { param: string; optional?: true; run?: string; regex?: string; flags?: string };

type Regex = Bounded & Checked & { regex: string; flags: string; head: string };

type PathTest =
  | Step[]
  | Regex
  | (Bounded &
      Checked & {
        match: string;
        flags: string;
        url?: string;
        urlFlags?: string;
        urlParams: number;
        captures: number;
      });

type StoredTest = [
  route: number,
  verbs: string,
  path: PathTest,
  host?: string | (Bounded & { regex: string; flags: string }),
];

/**
 * One object literal for every kind of test: the walker reads these fields on every route it
 * tries, and objects of one shape keep those reads fast (spreading a shared part measured 3.5×
 * slower at 10,000 routes).
 */
function readTest([route, verbs, path, host]: StoredTest): RouteTest {
  const program = Array.isArray(path) ? path.map(readStep) : undefined;
  const regex = Array.isArray(path) ? undefined : path;
  const match = regex !== undefined && 'match' in regex ? regex : undefined;
  return {
    route,
    verbs: verbs === '*' ? 0 : verbs.split('|'),
    host:
      host === undefined ? 0 : typeof host === 'string' ? host : regexOf(host.regex, host.flags),
    hostBound: typeof host === 'object' ? [host.fixed, host.params] : 0,
    path:
      program ??
      (match ? regexOf(match.match, match.flags) : regexOf((regex as Regex).regex, regex!.flags)),
    pathBound:
      regex === undefined ? 0 : [regex.fixed, regex.params, 'head' in regex ? regex.head : ''],
    url: match?.url === undefined ? 0 : regexOf(match.url, match.urlFlags),
    urlParams: match?.urlParams ?? 0,
    captures: match?.captures ?? 0,
    checks: regex?.checks?.map(([group, source, flags]) => [group, regexOf(source, flags)]) ?? NONE,
    pieces: program === undefined ? 0 : leadingSegments(program),
  };
}

function regexOf(source: string, flags: string | undefined): RegExp {
  return new RegExp(source, flags);
}

function readStep(step: Step): SegmentProgram[number] {
  // A literal starts with `/`; a word parameter is written `{name}` or `{name?}`.
  if (typeof step === 'string')
    return step[0] === '{' ? WORD_STEPS[step.endsWith('?}') ? 1 : 0] : step;
  const optional = step.optional ? 1 : 0;
  if (step.run !== undefined) return [optional, 0, runOf(step.run)];
  if (step.regex !== undefined) return [optional, new RegExp(step.regex, step.flags)];
  return WORD_STEPS[optional];
}

const NONE: readonly [number, RegExp][] = [];

// One table per class, shared by the programs that read it.
const runs = new Map<string, Uint8Array>();

function runOf(members: string): Uint8Array {
  let set = runs.get(members);
  if (set === undefined) runs.set(members, (set = charRun(members)));
  return set;
}

// The steps of a `\w+` parameter, required and optional, shared by every program.
const WORD_STEPS = [
  [0, 0],
  [1, 0],
] as const;
