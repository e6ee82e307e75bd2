import regexpTree from 'regexp-tree';
import { delimited } from './regex.js';

/**
 * A parameter regex written with `i` (and run with `iu`) rewritten to match the same strings
 * under `u` alone, for a route regex that holds it among case-sensitive literals and other
 * parameters (a RegExp carries one set of flags, and Node 20 has no `(?i:…)`). Each character,
 * class and property escape becomes the class of every code point it matches under `iu`, found
 * by asking the engine itself (so `[a-z]` takes U+017F and U+212A, as the standalone regex
 * does); `\b` and `\B` become look-arounds on that word class. Results are cached.
 */
export function withoutCase(source: string): string {
  let out = cache.get(source);
  if (out === undefined) {
    // regexp-tree reads a character outside the BMP as two surrogates, even with `u`: written as
    // an escape, it is one character.
    const escaped = source.replace(/[\u{10000}-\u{10FFFF}]/gu, (c) => code(c.codePointAt(0)!));
    const ast = regexpTree.parse(`/${delimited(escaped)}/u`);
    ast.body = rewrite(ast.body as unknown as Node | null) as unknown as typeof ast.body;
    cache.set(source, (out = regexpTree.generate(ast.body)));
  }
  return out;
}

// --- internal ---

type Node = { type: string; [key: string]: unknown };

const cache = new Map<string, string>();
const ATOMS = new Set(['Char', 'CharacterClass', 'UnicodeProperty']);
const LAST_CODE_POINT = 0x10ffff;

function rewrite(node: Node | null): Node | null {
  if (node === null) return null;
  if (ATOMS.has(node.type)) return folded(regexpTree.generate(node as never));
  if (node.type === 'Assertion' && (node.kind === '\\b' || node.kind === '\\B')) {
    const w = classOf('\\w') ?? '\\w';
    const edge = `(?<=${w})(?!${w})|(?<!${w})(?=${w})`;
    const inside = `(?<=${w})(?=${w})|(?<!${w})(?!${w})`;
    return parse(`(?:${node.kind === '\\b' ? edge : inside})`);
  }
  for (const key of ['expression', 'assertion', 'left', 'right']) {
    if (key in node) node[key] = rewrite(node[key] as Node | null);
  }
  if (Array.isArray(node.expressions)) {
    node.expressions = (node.expressions as Node[]).map((child) => rewrite(child)!);
  }
  return node;
}

/** The atom as the class of what it matches under `iu`, or as it is when case changes nothing. */
function folded(atom: string): Node {
  const text = classOf(atom);
  return parse(text === undefined ? atom : text);
}

const classes = new Map<string, string | undefined>();

/**
 * The class of the code points the atom matches under `iu`, or `undefined` when that is what
 * it matches under `u` (an atom without cased characters stays as written).
 */
function classOf(atom: string): string | undefined {
  if (classes.has(atom)) return classes.get(atom);
  const withCase = new RegExp(`^(?:${atom})$`, 'iu');
  const without = new RegExp(`^(?:${atom})$`, 'u');
  let ranges = '';
  let start = -1;
  let same = true;
  for (let c = 0; c <= LAST_CODE_POINT + 1; c++) {
    const text = c <= LAST_CODE_POINT ? String.fromCodePoint(c) : '';
    const hit = c <= LAST_CODE_POINT && withCase.test(text);
    if (hit !== (c <= LAST_CODE_POINT && without.test(text))) same = false;
    if (hit && start === -1) start = c;
    if (!hit && start !== -1) {
      ranges += start === c - 1 ? code(start) : `${code(start)}-${code(c - 1)}`;
      start = -1;
    }
  }
  const text = same ? undefined : ranges === '' ? '[^\\s\\S]' : `[${ranges}]`;
  classes.set(atom, text);
  return text;
}

function code(c: number): string {
  return /[0-9A-Za-z]/.test(String.fromCodePoint(c))
    ? String.fromCodePoint(c)
    : `\\u{${c.toString(16).toUpperCase()}}`;
}

function parse(text: string): Node {
  return regexpTree.parse(`/${text}/u`).body as unknown as Node;
}
