import { regexLiteral, str } from './_print.js';
import type { SegmentStep } from './segments.js';

/** A position in the path while a program is printed: `variable + offset`, or a constant. */
export interface Position {
  variable: string | undefined;
  offset: number;
}

/** Where printed code stands and what it does: the statement for a miss, names, regexes. */
export interface CodeContext {
  /** The statement leaving the test on a miss (`return undefined;`, `break b1;`). */
  fail: string;
  /** A new variable name, unique in the function (`e` + a number). */
  name: (kind: string) => string;
  /** The module constant holding a regex (given as a literal, `regexLiteral`). */
  regex: RegexConstant;
}

/**
 * The module constant holding the regex literal `text` (`regexLiteral`); with `run`, the one
 * holding the table of the characters `text` (runtime `charRun`), for a parameter that is a run
 * of one ASCII class.
 */
export type RegexConstant = (text: string, run?: boolean) => string;

/**
 * The statements testing the path from `start` on against `steps` (a route's path, or what is left
 * of it), as straight-line code: literals compared where they must be, a word parameter read to
 * its end in one pass (`wordEnd`), any other found with one `indexOf` and its value checked
 * once the path's literals and length matched, and values sliced only once the whole path
 * matched; nothing is allocated on a miss. On a miss, `context.fail`; on a match, `succeed`
 * with the values (`values` first: expressions of values read before), and `normal` when the
 * code checked that the path is normal.
 */
export function pathLines(
  steps: readonly SegmentStep[],
  start: Position,
  values: readonly string[],
  context: CodeContext,
  succeed: (values: string[], normal?: boolean) => string,
): string[] {
  const { fail, name, regex } = context;
  const lines: string[] = [];
  // Checks of required values wait until the path's shape (literals, lengths) has matched:
  // a sibling route's path is then turned down without reading its values.
  const checks: string[] = [];
  const found = [...values];
  let at = start;
  let pending = '';
  for (const step of steps) {
    if (step.kind === 'literal') {
      pending += step.text;
      continue;
    }
    if (step.kind === 'rest') {
      // Last: a `/`, then anything but a line break (what `.` matches), to the end.
      const value = name('v');
      const from = print(plus(at, pending.length + 1));
      // Any rest but an empty one (when `.+`) and one with a line break; its escapes decoded
      // after the test, which reads the same either way: a decoded `/` or `%` is no line break.
      const taken = [
        `if (${step.empty ? '' : `${value} === '' || `}${regex(regexLiteral(LINE_BREAK))}.test(${value})) ${fail}`,
        succeed([...found, `decodeParam(${value})`]),
      ];
      lines.push(
        slashAfter(pending, at, fail),
        ...checks.splice(0),
        `const ${value} = path.slice(${from});`,
      );
      if (!step.normal) return [...lines, ...taken];
      // A normal rest (which has no line break, no escape to decode) makes a normal path: the
      // hit says so, and the target is not read again to be normalised.
      const first = name('c');
      return [
        ...lines,
        `const ${first} = path.charCodeAt(${from});`,
        `if (${value} === '' || ${first} === 46 || ${first} === 47 || ${regex(regexLiteral(NOT_NORMAL))}.test(${value})) {`,
        ...taken.map((line) => `  ${line}`),
        '}',
        succeed([...found, value], true),
      ];
    }
    if (step.optional) {
      if (pending !== '') lines.push(`if (${lacks(pending, at)}) ${fail}`);
      lines.push(...checks.splice(0));
      at = plus(at, pending.length);
      pending = '';
      const [end, value] = [name('e'), name('v')];
      const slash = print(at);
      lines.push(
        `let ${value}: string | undefined;`,
        `let ${end} = path.length;`,
        `if (!absentAt(path, ${slash})) {`,
        `  ${end} = ${valueEnd(step, slash, regex)};`,
        `  if (${end} === -1) ${fail}`,
        ...(isRead(step)
          ? [`  ${value} = path.slice(${print(plus(at, 1))}, ${end});`]
          : [
              `  ${value} = decodeParam(path.slice(${print(plus(at, 1))}, ${end}));`,
              `  if (!${regex(regexLiteral(step.check!, step.flags))}.test(${value})) ${fail}`,
            ]),
        `}`,
      );
      found.push(value);
      at = { variable: end, offset: 0 };
      continue;
    }
    const param = paramLines(step, pending, at, context);
    lines.push(...param.lines);
    checks.push(...param.checks);
    found.push(param.value);
    at = param.end;
    pending = '';
  }
  const end = plus(at, pending.length);
  lines.push(
    pending === ''
      ? `if (path.length !== ${print(end)}) ${fail}`
      : `if (path.length !== ${print(end)} || ${lacks(pending, at)}) ${fail}`,
    ...checks,
    succeed(found),
  );
  return lines;
}

/**
 * A required parameter after the literal `pending` at `at`: the literal compared, then the
 * value's end found (runtime `valueEnd`, `segmentEnd`). A word or a run is read as its end is
 * looked for (it never holds `%`, so never an escape); any other value is decoded, then its
 * regex tests the decoded value, in checks returned apart (`checks`) for the caller to run
 * when it wants.
 */
export function paramLines(
  step: { check: string | undefined; flags: string; run: string | undefined },
  pending: string,
  at: Position,
  context: CodeContext,
): { lines: string[]; checks: string[]; value: string; end: Position } {
  const { fail, name, regex } = context;
  const slash = print(plus(at, pending.length));
  const start = print(plus(at, pending.length + 1));
  const end = name('e');
  const lines = [
    ...(pending === '' ? [] : [`if (${lacks(pending, at)}) ${fail}`]),
    `const ${end} = ${valueEnd(step, slash, regex)};`,
    `if (${end} === -1) ${fail}`,
  ];
  if (isRead(step)) {
    return {
      lines,
      checks: [],
      value: `path.slice(${start}, ${end})`,
      end: { variable: end, offset: 0 },
    };
  }
  const value = name('v');
  return {
    lines,
    checks: [
      `const ${value} = decodeParam(path.slice(${start}, ${end}));`,
      `if (!${regex(regexLiteral(step.check!, step.flags))}.test(${value})) ${fail}`,
    ],
    value,
    end: { variable: end, offset: 0 },
  };
}

/** Whether a parameter's value is read to its end (a word, a run) rather than tested by its regex. */
function isRead(step: { check: string | undefined; run: string | undefined }): boolean {
  return step.check === undefined || step.run !== undefined;
}

/**
 * Where the value whose `/` is at `slash` ends (runtime `valueEnd` for a word or a run,
 * `segmentEnd` for a value its regex tests), `-1` when there is none.
 */
function valueEnd(
  step: { check: string | undefined; run: string | undefined },
  slash: string,
  constant: RegexConstant,
): string {
  if (!isRead(step)) return `segmentEnd(path, ${slash})`;
  return step.run === undefined
    ? `valueEnd(path, ${slash})`
    : `valueEnd(path, ${slash}, ${constant(step.run, true)})`;
}

/** `at` as an expression. */
export function print(at: Position): string {
  if (at.variable === undefined) return String(at.offset);
  return at.offset === 0 ? at.variable : `${at.variable} + ${at.offset}`;
}

/**
 * Whether the path has `text` at `at`, written as slices compared with `===`: V8's `startsWith`
 * costs several times more than copying a few characters and comparing them. A slice of 13
 * characters or more is made a view into the path (a sliced string), which compares slower
 * than a copy: a longer text is compared 12 characters at a time.
 */
export function hasAt(text: string, at: Position): string {
  return chunks(text, at, '===').join(' && ');
}

// --- internal ---

/** What `.` does not match: a value with one of these is not the rest of the path. */
const LINE_BREAK = String.raw`[\n\r\u2028\u2029]`;

/**
 * What a rest that does not start with `.` or `/` has when normalising the path would change it
 * or it holds a line break: `?`, `%`, `\`, a line break, an empty or dot segment (`/.` also
 * catches `/.well-known`: such a rest is only read again), or a trailing `/`.
 */
const NOT_NORMAL = String.raw`[?%\\\n\r\u2028\u2029]|\/[/.]|\/$`;

function plus(at: Position, offset: number): Position {
  return { variable: at.variable, offset: at.offset + offset };
}

/** The statement checking that `pending` then a `/` are at `at`. */
function slashAfter(pending: string, at: Position, fail: string): string {
  return pending === ''
    ? `if (path.charCodeAt(${print(at)}) !== 47) ${fail}`
    : `if (${lacks(`${pending}/`, at)}) ${fail}`;
}

/** Whether the path lacks `text` at `at` (see `hasAt`). */
function lacks(text: string, at: Position): string {
  return chunks(text, at, '!==').join(' || ');
}

// The longest slice V8 copies rather than makes a view into the path.
const COPIED_MAX = 12;

function chunks(text: string, at: Position, operator: string): string[] {
  const out: string[] = [];
  for (let k = 0; k < text.length; k += COPIED_MAX) {
    const part = text.slice(k, k + COPIED_MAX);
    out.push(
      `path.slice(${print(plus(at, k))}, ${print(plus(at, k + part.length))}) ${operator} ${str(part)}`,
    );
  }
  return out;
}
