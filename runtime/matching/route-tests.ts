import { charRun, type RouteTest } from './matcher.js';
import { Rows } from './rows.js';

/**
 * Route tests as stored: `{ count, verbs, regexes: [[source, flags], …] }` and one test per
 * line, its verbs and regexes written as their position + 1 (`0`: every verb, or none). Each
 * test is read when first tried.
 */
export function testList(json: string, rows: string): Rows<RouteTest> {
  const data = JSON.parse(json) as {
    count: number;
    verbs: string[][];
    regexes: [string, string][];
  };
  const regexes = data.regexes.map(([source, flags]) => new RegExp(source, flags));
  const regex = (n: number): RegExp => regexes[n - 1]!;
  return new Rows(
    rows,
    data.count,
    ([route, verbs, host, path, url, urlParams, captures, bound]: StoredTest): RouteTest => [
      route,
      verbs === 0 ? 0 : data.verbs[verbs - 1]!,
      typeof host === 'number' && host !== 0 ? regex(host) : host,
      typeof path === 'number'
        ? regex(path)
        : path.map((step) =>
            typeof step === 'string'
              ? step
              : step.length === 3
                ? ([step[0], 0, runOf(step[2])] as const)
                : step[1] === 0
                  ? WORD_STEPS[step[0]]
                  : ([step[0], regex(step[1])] as const),
          ),
      url === 0 ? 0 : regex(url),
      urlParams,
      captures,
      bound ?? 0,
    ],
  );
}

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

type StoredTest = [
  route: number,
  verbs: number,
  host: string | number,
  /** A parameter: optional and its regex, or optional, `0` and the characters of its run. */
  path: number | (string | [0 | 1, number] | [0 | 1, 0, string])[],
  url: number,
  urlParams: number,
  captures: number,
  /** What bounds the host and path a regex of the test reads (`RegexBound`); absent: `0`. */
  bound?: [number, number, number, number, string],
];
