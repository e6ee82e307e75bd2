import regexpTree from 'regexp-tree';
import { delimited } from './regex.js';

// More values than this are typed `string`: a type listing them would say less than the regex.
const MOST_VALUES = 32;

/** What the build reads of a parameter regex: see `regexValues`. */
export interface RegexValues {
  /** The values it writes out (`en|fr`); none when it does not. */
  values?: string[];
  /** It matches decimal digits alone, one at least: its handler's parameter may be a numeral. */
  digits?: true;
}

/**
 * What a parameter regex (`ParamSpec.regex`, as embedded) lets the build type, from one parse:
 *
 * - `values`, when it writes them out: `en|fr`, `(?:draft|published)`, `v[12]`, `items?`. Its
 *   handler's parameter may then be typed with their literals, and `url()` takes only them. None
 *   for any other regex (a range, a class such as `\d`, a repetition), one that matches
 *   case-insensitively (`caseless`), more than 32 values, and a value holding `%` (the router
 *   reads the path's escapes before the regex).
 * - `digits`, when it matches decimal digits alone, one at least: `[0-9]+`, `\d{4}`,
 *   `[1-9][0-9]*`, `(?:0|[1-9]\d*)`. Its handler's parameter may then be typed
 *   `` `${number}` ``. Not for anything the walk does not read as such (an assertion, a
 *   backreference, a class with other characters).
 */
export function regexValues(regex: string, caseless = false): RegexValues {
  let ast: ReturnType<typeof regexpTree.parse>;
  try {
    ast = regexpTree.parse(`/${delimited(regex)}/u`);
  } catch {
    return {};
  }
  const body = ast.body as RegexNode | null;
  const facts: RegexValues = {};
  const values = caseless ? undefined : valuesOf(body);
  if (values !== undefined && !values.some((value) => value.includes('%')))
    facts.values = [...new Set(values)];
  // Digits match in any case: a caseless regex of digits is one still.
  if ((digitsLength(body) ?? 0) > 0) facts.digits = true;
  return facts;
}

// --- internal ---

/** The fewest characters `node` matches when it matches digits alone; `undefined` otherwise. */
function digitsLength(node: RegexNode | null | undefined): number | undefined {
  if (node === null || node === undefined) return 0;
  switch (node.type) {
    case 'Disjunction': {
      const left = digitsLength(node.left);
      const right = left === undefined ? undefined : digitsLength(node.right);
      return right === undefined ? undefined : Math.min(left!, right);
    }
    case 'Alternative': {
      let total = 0;
      for (const part of node.expressions ?? []) {
        const length = digitsLength(part);
        if (length === undefined) return undefined;
        total += length;
      }
      return total;
    }
    case 'Group':
      return digitsLength(node.expression);
    case 'Repetition': {
      const once = digitsLength(node.expression);
      const kind = node.quantifier?.kind;
      if (once === undefined) return undefined;
      if (kind === '+') return once;
      if (kind === 'Range') return once * (node.quantifier?.from ?? 0);
      return 0;
    }
    case 'CharacterClass':
      return !node.negative && (node.expressions ?? []).every(isDigits) ? 1 : undefined;
    case 'Char':
      return isDigits(node) ? 1 : undefined;
    default:
      return undefined;
  }
}

/** A `Char` of a digit or `\d`, or a range of digits (`0-9`, `1-9`). */
function isDigits(node: RegexNode): boolean {
  if (node.type === 'ClassRange') return isDigits(node.from!) && isDigits(node.to!);
  if (node.type !== 'Char') return false;
  if (node.kind === 'meta') return node.value === '\\d';
  const symbol = node.symbol ?? node.value;
  return symbol !== undefined && symbol >= '0' && symbol <= '9' && symbol.length === 1;
}

/** The parts of regexp-tree's nodes read here. */
interface RegexNode {
  type: string;
  kind?: string;
  value?: string;
  symbol?: string;
  escaped?: boolean;
  negative?: boolean;
  left?: RegexNode | null;
  right?: RegexNode | null;
  expression?: RegexNode | null;
  expressions?: RegexNode[];
  quantifier?: { kind: string; greedy: boolean; from?: number };
  from?: RegexNode;
  to?: RegexNode;
}

/** What `node` matches, when it is a few strings written out. */
function valuesOf(node: RegexNode | null | undefined): string[] | undefined {
  if (node === null || node === undefined) return [''];
  switch (node.type) {
    case 'Disjunction': {
      const left = valuesOf(node.left);
      const right = left && valuesOf(node.right);
      return right && bounded([...left!, ...right]);
    }
    case 'Alternative': {
      let values: string[] | undefined = [''];
      for (const part of node.expressions ?? []) {
        const next = valuesOf(part);
        if (next === undefined) return undefined;
        values = bounded(values!.flatMap((before) => next.map((value) => before + value)));
        if (values === undefined) return undefined;
      }
      return values;
    }
    case 'Group':
      return valuesOf(node.expression);
    case 'Repetition': {
      if (node.quantifier?.kind !== '?') return undefined;
      const once = valuesOf(node.expression);
      return once && bounded(['', ...once]);
    }
    case 'CharacterClass':
      return node.negative ? undefined : bounded(classValues(node.expressions ?? []));
    case 'Char':
      return charValue(node);
    default:
      return undefined;
  }
}

/** The characters of a class that lists them (`[12]`): none for one with a range or `\d`. */
function classValues(members: readonly RegexNode[]): string[] | undefined {
  const values: string[] = [];
  for (const member of members) {
    const value = member.type === 'Char' ? charValue(member) : undefined;
    if (value === undefined) return undefined;
    values.push(...value);
  }
  return values;
}

/** The one character a `Char` node matches: none for a class escape (`\d`) or `.`. */
function charValue(node: RegexNode): string[] | undefined {
  if (node.kind === 'meta') return undefined;
  const symbol = node.symbol ?? node.value;
  return symbol === undefined ? undefined : [symbol];
}

function bounded(values: string[] | undefined): string[] | undefined {
  return values !== undefined && values.length <= MOST_VALUES ? values : undefined;
}
