/**
 * How a route's path is read segment by segment, written once: the runtime's `matchSegments`
 * runs a route's steps as data (the shared walker of a large app), and the generated code of a
 * smaller app calls the same functions from its straight-line code. A value is one
 * `/`-separated segment after the route's literal; a word (the default `\w+`) or a run of one
 * ASCII class is read to its end in one pass; any other value is the whole segment, decoded,
 * then tested by its regex: a parameter regex tests the decoded value (`%2F` a slash, `%25` a
 * percent). A word or a run never holds `%`, so it has no escape left to decode.
 */
import { decodeParam } from '../http/path.js';

/**
 * A route's path program for `matchSegments`: literal strings, and parameters as
 * `[optional, check]` where `check` is `0` (`\w+`, read by `wordEnd`) or an anchored regex,
 * or `[optional, 0, run]` for a run of one ASCII class, read by `runEnd` with its `charRun`.
 */
export type SegmentProgram = readonly (
  | string
  | readonly [optional: 0 | 1, check: RegExp | 0]
  | readonly [optional: 0 | 1, check: 0, run: Uint8Array]
)[];

/**
 * Where the word (or, with `run`, the run) whose `/` is at `slash` ends: after at least one
 * character, at a `/` or the end of the path. `-1` when there is no such value.
 */
export function valueEnd(path: string, slash: number, run?: Uint8Array): number {
  if (path.charCodeAt(slash) !== 47 /* '/' */) return -1;
  const end = run === undefined ? wordEnd(path, slash + 1) : runEnd(path, slash + 1, run);
  return end === slash + 1 || (end < path.length && path.charCodeAt(end) !== 47) ? -1 : end;
}

/**
 * Where the segment whose `/` is at `slash` ends (a `/` or the end of the path), for a value
 * its regex tests; `-1` when there is no `/` there or the segment is empty.
 */
export function segmentEnd(path: string, slash: number): number {
  if (path.charCodeAt(slash) !== 47 /* '/' */) return -1;
  let end = path.indexOf('/', slash + 1);
  if (end === -1) end = path.length;
  return end === slash + 1 ? -1 : end;
}

/**
 * Whether an optional parameter at `pos` is absent: the path ends there, or it is the root
 * alone (`/` is the path of `/{lang?}` without its parameter).
 */
export function absentAt(path: string, pos: number): boolean {
  return pos >= path.length || (pos === 0 && path.length === 1 && path.charCodeAt(0) === 47);
}

/**
 * Runs a path program: literals compared in place, each parameter one segment (`valueEnd`,
 * `segmentEnd`, `absentAt`). `from` and `pos` resume it after steps already known to match
 * (the literal segments a tree walk compared): the program's step `from` is tried at `pos` of
 * the path. The first two values are kept in variables, so a miss allocates nothing and a hit
 * one array of the right size.
 */
export function matchSegments(
  path: string,
  program: SegmentProgram,
  from = 0,
  pos = 0,
): (string | undefined)[] | undefined {
  let count = 0;
  let first: string | undefined;
  let second: string | undefined;
  let more: (string | undefined)[] | undefined;
  const n = path.length;
  for (let k = from; k < program.length; k++) {
    const step = program[k]!;
    if (typeof step === 'string') {
      // A slice compared with `===` costs less than `startsWith` in V8.
      if (path.slice(pos, pos + step.length) !== step) return undefined;
      pos += step.length;
      continue;
    }
    let value: string | undefined;
    if (step[0] === 1 && absentAt(path, pos)) {
      pos = n;
    } else {
      const check = step[1];
      const end = check === 0 ? valueEnd(path, pos, step[2]) : segmentEnd(path, pos);
      if (end === -1) return undefined;
      value = path.slice(pos + 1, end);
      if (check !== 0) {
        value = decodeParam(value);
        if (!check.test(value)) return undefined;
      }
      pos = end;
    }
    if (count === 0) first = value;
    else if (count === 1) second = value;
    else (more ??= []).push(value);
    count++;
  }
  if (pos !== n) return undefined;
  if (count === 0) return [];
  if (count === 1) return [first];
  return more === undefined ? [first, second] : [first, second, ...more];
}

/**
 * Whether a value a whole-path regex captured (a route regex, for a parameter that may match `/`
 * or shares its segment) passes `check`, its parameter's own anchored regex, once decoded. That
 * regex read the path with `%2F` and `%25` encoded: only a value holding one of them (a `%`)
 * may read otherwise decoded, and only it is tested again; an absent optional value passes.
 */
export function decodedPasses(value: string | undefined, check: RegExp): boolean {
  return value === undefined || value.indexOf('%') === -1 || check.test(decodeParam(value));
}

/**
 * The position of the first character from `start` on that is not `\w` (`[A-Za-z0-9_]`, the
 * default parameter rule), or the end: a word parameter's value is read as its end is found.
 */
export function wordEnd(text: string, start: number): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0-9, A-Z, _, a-z
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122)))
      return i;
  }
  return i;
}

/**
 * The table `runEnd` reads for a parameter that is a run of one ASCII class (`[0-9]+`): `1` at
 * the code of each of `members`, the class's characters as the build listed them (ASCII,
 * neither `/` nor `%`).
 */
export function charRun(members: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let k = 0; k < members.length; k++) set[members.charCodeAt(k)] = 1;
  return set;
}

/**
 * The position of the first character from `start` on that `set` (`charRun`) does not hold,
 * or the end: such a parameter's value is read as its end is found, as a word's is.
 */
export function runEnd(text: string, start: number, set: Uint8Array): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127 || set[c] === 0) return i;
  }
  return i;
}

/**
 * How many of a program's steps are the literal segments it starts with (`/a`, `/b` of
 * `/a/b/{id}`), which a tree walk may have compared before the program runs.
 */
export function leadingSegments(program: SegmentProgram): number {
  let k = 0;
  while (k < program.length && isSegment(program[k]!)) k++;
  return k;
}

// --- internal ---

function isSegment(step: SegmentProgram[number]): boolean {
  return typeof step === 'string' && step.length > 1 && step.lastIndexOf('/') === 0;
}
