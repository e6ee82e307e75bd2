import { str } from './_print.js';
import type { SegmentStep } from './segments.js';

/** A position in the path while a program is printed: `variable + offset`, or a constant. */
interface Position {
  variable: string | undefined;
  offset: number;
}

/**
 * A route's path test as straight-line code: literals compared where they must be, a word
 * parameter read to its end in one pass (`wordEnd`), any other found with one `indexOf` and
 * its value checked once the path's literals and length matched, and values sliced only once
 * the whole path matched. Returns the parameter values, or `undefined`; nothing is allocated on
 * a miss. `regex` names the module constant holding a regex.
 */
export function emitPathFunction(
  name: string,
  steps: readonly SegmentStep[],
  regex: (source: string) => string,
): string {
  const lines: string[] = [];
  // Checks of required values wait until the path's shape (literals, lengths) has matched:
  // a sibling route's path is then turned down without reading its values.
  const checks: string[] = [];
  const values: string[] = [];
  let at: Position = { variable: undefined, offset: 0 };
  let pending = '';
  let ended = false;
  steps.forEach((step, i) => {
    if (step.kind === 'literal') {
      pending += step.text;
      return;
    }
    if (step.kind === 'rest') {
      // Last: a `/`, then anything but a line break (what `.` matches), to the end.
      lines.push(
        pending === ''
          ? `if (path.charCodeAt(${print(at)}) !== 47) return undefined;`
          : `if (${lacks(`${pending}/`, at)}) return undefined;`,
        ...checks.splice(0),
        `const v${i} = path.slice(${print(plus(at, pending.length + 1))});`,
        `if (${step.empty ? '' : `v${i} === '' || `}${regex(LINE_BREAK)}.test(v${i})) return undefined;`,
        `return [${[...values, `decodeParam(v${i})`].join(', ')}];`,
      );
      pending = '';
      ended = true;
      return;
    }
    if (step.optional) {
      if (pending !== '') lines.push(`if (${lacks(pending, at)}) return undefined;`);
      lines.push(...checks.splice(0));
      at = plus(at, pending.length);
      pending = '';
      const [start, end, value] = [`s${i}`, `e${i}`, `v${i}`];
      lines.push(
        `let ${value}: string | undefined;`,
        `let ${end} = ${print(at)};`,
        `if (${end} < path.length) {`,
        `  if (path.charCodeAt(${end}) !== 47) return undefined;`,
        `  const ${start} = ${end} + 1;`,
        ...(step.check === undefined
          ? [
              // The word ends at the first other character; what follows checks that it is a
              // slash or the end of the path.
              `  ${end} = wordEnd(path, ${start});`,
              `  if (${end} === ${start}) return undefined;`,
              `  ${value} = path.slice(${start}, ${end});`,
            ]
          : [
              `  ${end} = path.indexOf('/', ${start});`,
              `  if (${end} === -1) ${end} = path.length;`,
              `  ${value} = path.slice(${start}, ${end});`,
              `  if (${value} === '' || !${regex(step.check)}.test(${value})) return undefined;`,
            ]),
        `}`,
      );
      values.push(step.check === undefined ? value : `decodeParam(${value})`);
      at = { variable: end, offset: 0 };
      return;
    }
    // A required parameter: the pending literal and the `/` before it in one comparison.
    lines.push(
      pending === ''
        ? `if (path.charCodeAt(${print(at)}) !== 47) return undefined;`
        : `if (${lacks(`${pending}/`, at)}) return undefined;`,
    );
    const start = print(plus(at, pending.length + 1));
    pending = '';
    const end = `e${i}`;
    if (step.check === undefined) {
      // A word is read as its end is looked for; what follows checks that a `/` or the end of
      // the path is there.
      lines.push(
        `const ${end} = wordEnd(path, ${start});`,
        `if (${end} === ${start}) return undefined;`,
      );
      values.push(`path.slice(${start}, ${end})`);
    } else {
      lines.push(
        `let ${end} = path.indexOf('/', ${start});`,
        `if (${end} === -1) ${end} = path.length;`,
      );
      const value = `v${i}`;
      checks.push(
        `const ${value} = path.slice(${start}, ${end});`,
        `if (${value} === '' || !${regex(step.check)}.test(${value})) return undefined;`,
      );
      values.push(`decodeParam(${value})`);
    }
    at = { variable: end, offset: 0 };
  });
  if (ended) return wrap(name, lines);
  const end = plus(at, pending.length);
  lines.push(
    pending === ''
      ? `if (path.length !== ${print(end)}) return undefined;`
      : `if (path.length !== ${print(end)} || ${lacks(pending, at)}) return undefined;`,
    ...checks,
  );
  lines.push(`return [${values.join(', ')}];`);
  return wrap(name, lines);
}

function wrap(name: string, lines: readonly string[]): string {
  return [
    `function ${name}(path: string): Params | undefined {`,
    ...lines.map((line) => `  ${line}`),
    '}',
  ].join('\n');
}

// --- internal ---

/** What `.` does not match: a value with one of these is not the rest of the path. */
const LINE_BREAK = String.raw`[\n\r\u2028\u2029]`;

function plus(at: Position, offset: number): Position {
  return { variable: at.variable, offset: at.offset + offset };
}

function print(at: Position): string {
  if (at.variable === undefined) return String(at.offset);
  return at.offset === 0 ? at.variable : `${at.variable} + ${at.offset}`;
}

/**
 * Whether the path lacks `text` at `at`, written as a slice compared with `!==`: V8's
 * `startsWith` costs several times more than copying a few characters and comparing them.
 */
function lacks(text: string, at: Position): string {
  return `path.slice(${print(at)}, ${print(plus(at, text.length))}) !== ${str(text)}`;
}
