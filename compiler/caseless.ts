import regexpTree from 'regexp-tree';
import { delimited } from './regex.js';

/**
 * A parameter regex written with `i` (and run with `iu`) rewritten to match the same strings
 * under `u` alone, for a route regex that holds it among case-sensitive literals and other
 * parameters (a RegExp carries one set of flags, and Node 20 has no `(?i:…)`). Each character,
 * class and property escape becomes the class of every code point it matches under `iu`, found
 * by asking the engine itself (so `[a-z]` takes U+017F and U+212A, as the standalone regex
 * does); `\b` and `\B` become look-arounds on that word class. With `unicode` false (a RegExp
 * written with `i` and no `u`), the case folding is the one `i` does without `u` (`canonical`):
 * `[a-z]` takes neither U+017F nor U+212A. Results are cached.
 */
export function withoutCase(source: string, unicode = true): string {
  const key = `${unicode ? 'iu' : 'i'}/${source}`;
  let out = cache.get(key);
  if (out === undefined) {
    // regexp-tree reads a character outside the BMP as two surrogates, even with `u`: written as
    // an escape, it is one character.
    const escaped = source.replace(/[\u{10000}-\u{10FFFF}]/gu, (c) => code(c.codePointAt(0)!));
    const ast = regexpTree.parse(`/${delimited(escaped)}/u`);
    const fold = unicode ? 'iu' : 'i';
    ast.body = rewrite(ast.body as unknown as Node | null, fold) as unknown as typeof ast.body;
    cache.set(key, (out = regexpTree.generate(ast.body)));
  }
  return out;
}

// --- internal ---

type Node = { type: string; [key: string]: unknown };

/** How case is folded: as with `iu`, or as with `i` alone. */
type Fold = 'iu' | 'i';

const cache = new Map<string, string>();
const ATOMS = new Set(['Char', 'CharacterClass', 'UnicodeProperty']);
const LAST_CODE_POINT = 0x10ffff;

function rewrite(node: Node | null, fold: Fold): Node | null {
  if (node === null) return null;
  if (ATOMS.has(node.type)) return folded(node, fold);
  if (node.type === 'Assertion' && (node.kind === '\\b' || node.kind === '\\B')) {
    const w = classOf('\\w', fold) ?? '\\w';
    const edge = `(?<=${w})(?!${w})|(?<!${w})(?=${w})`;
    const inside = `(?<=${w})(?=${w})|(?<!${w})(?!${w})`;
    return parse(`(?:${node.kind === '\\b' ? edge : inside})`);
  }
  for (const key of ['expression', 'assertion', 'left', 'right']) {
    if (key in node) node[key] = rewrite(node[key] as Node | null, fold);
  }
  if (Array.isArray(node.expressions)) {
    node.expressions = (node.expressions as Node[]).map((child) => rewrite(child, fold)!);
  }
  return node;
}

/** The atom as the class of what it matches folded, or as it is when case changes nothing. */
function folded(node: Node, fold: Fold): Node {
  const atom = regexpTree.generate(node as never);
  // Without `u`, `[^…]` is the complement of its folded members, not the folding of its complement.
  const negated = fold === 'i' && node.type === 'CharacterClass' && node.negative === true;
  const text = negated
    ? classOf(regexpTree.generate({ ...node, negative: false } as never), fold, true)
    : classOf(atom, fold);
  return parse(text === undefined ? atom : text);
}

const classes = new Map<string, string | undefined>();

/**
 * The class of the code points the atom matches with its case folded (`negated`: the ones it
 * does not match), or `undefined` when that is what it matches under `u` alone (an atom without
 * cased characters stays as written).
 */
function classOf(atom: string, fold: Fold, negated = false): string | undefined {
  const key = `${fold}${negated ? '^' : ''}/${atom}`;
  if (classes.has(key)) return classes.get(key);
  const without = new RegExp(`^(?:${atom})$`, 'u');
  const withCase = fold === 'iu' ? new RegExp(`^(?:${atom})$`, 'iu') : foldedAsI(without);
  let ranges = '';
  let start = -1;
  let same = true;
  for (let c = 0; c <= LAST_CODE_POINT + 1; c++) {
    const text = c <= LAST_CODE_POINT ? String.fromCodePoint(c) : '';
    const hit = c <= LAST_CODE_POINT && withCase.test(text) !== negated;
    if (hit !== (c <= LAST_CODE_POINT && without.test(text) !== negated)) same = false;
    if (hit && start === -1) start = c;
    if (!hit && start !== -1) {
      ranges += start === c - 1 ? code(start) : `${code(start)}-${code(c - 1)}`;
      start = -1;
    }
  }
  const text = same ? undefined : ranges === '' ? '[^\\s\\S]' : `[${ranges}]`;
  classes.set(key, text);
  return text;
}

/**
 * What `members` (one code point, anchored) matches with case folded as `i` without `u` folds
 * it: a code point whose canonical form is one of a member's. Outside the BMP, a code point is
 * its own canonical form (its surrogates have no case).
 */
function foldedAsI(members: RegExp): { test(text: string): boolean } {
  const table = canonical();
  const keys = new Set<number>();
  for (let c = 0; c <= 0xffff; c++) if (members.test(String.fromCharCode(c))) keys.add(table[c]!);
  return {
    test: (text) => (text.length === 1 ? keys.has(table[text.charCodeAt(0)]!) : members.test(text)),
  };
}

let canonicalTable: Uint16Array | undefined;

/**
 * Each BMP code unit's canonical form under `i` without `u` (ECMA-262 Canonicalize): its upper
 * case when that is one code unit and does not take a non-ASCII unit to ASCII (U+017F and
 * U+0131 stay themselves), else itself.
 */
function canonical(): Uint16Array {
  if (canonicalTable) return canonicalTable;
  canonicalTable = new Uint16Array(0x10000);
  for (let c = 0; c <= 0xffff; c++) {
    const upper = String.fromCharCode(c).toUpperCase();
    const unit = upper.length === 1 ? upper.charCodeAt(0) : c;
    canonicalTable[c] = c >= 128 && unit < 128 ? c : unit;
  }
  return canonicalTable;
}

function code(c: number): string {
  return /[0-9A-Za-z]/.test(String.fromCodePoint(c))
    ? String.fromCodePoint(c)
    : `\\u{${c.toString(16).toUpperCase()}}`;
}

function parse(text: string): Node {
  return regexpTree.parse(`/${text}/u`).body as unknown as Node;
}
