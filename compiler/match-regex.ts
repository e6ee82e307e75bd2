import regexpTree from 'regexp-tree';
import type { RegexLike } from 'course-router';

/** A `setMatch()` regex translated to JavaScript. */
export type MatchRegex =
  | { ok: true; source: string; flags: string; captures: number; optional: number[] }
  | { ok: false; reason: string; hint: string };

// PHP (PCRE) modifiers with a JavaScript meaning; `D` is what JavaScript does already.
const FLAG_MAP: Record<string, string> = { i: 'i', m: 'm', s: 's', u: 'u', x: 'x', D: '' };
const DELIMITER_PAIRS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/**
 * Translates a whole-route regex: a `RegExp`, a PHP-style delimited string
 * (`'/\/ajax\/([\w]+)\/?([0-9]+)?\/?/is'`), or a plain source. PHP modifiers without a
 * JavaScript equivalent (`U`, `A`, `e`, `S`, `X`, `J`…) are refused with the reason.
 */
export function translateMatch(regex: RegexLike): MatchRegex {
  let source: string;
  let flags = '';
  if (typeof regex !== 'string') {
    source = regex.source;
    flags = regex.flags.replace(/[gyd]/g, '');
  } else {
    const php = splitDelimited(regex);
    if (php && 'error' in php) return php.error;
    if (php) {
      source = php.source;
      for (const flag of php.flags) {
        const mapped = FLAG_MAP[flag];
        if (mapped === undefined) {
          return {
            ok: false,
            reason: `the PHP regex modifier "${flag}" has no JavaScript equivalent`,
            hint: 'supported modifiers: i, m, s, u, x, D',
          };
        }
        if (!flags.includes(mapped)) flags += mapped;
      }
    } else {
      source = regex;
    }
  }
  return compile(source, flags);
}

// --- internal ---

type Split = { source: string; flags: string } | { error: MatchRegex & { ok: false } } | undefined;

function splitDelimited(text: string): Split {
  const open = text[0];
  if (open === undefined || /[A-Za-z0-9\\\s]/.test(open)) return undefined;
  const close = DELIMITER_PAIRS[open] ?? open;
  const end = text.lastIndexOf(close);
  if (end <= 0) return undefined;
  const flags = text.slice(end + 1);
  if (!/^[A-Za-z]*$/.test(flags)) return undefined;
  return { source: text.slice(1, end), flags };
}

function compile(source: string, flags: string): MatchRegex {
  let ast: ReturnType<typeof regexpTree.parse>;
  try {
    ast = regexpTree.parse(`/${source.replace(/(^|[^\\])\//g, '$1\\/')}/${flags}`);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { ok: false, reason: `invalid regex ${JSON.stringify(source)}: ${message}`, hint: '' };
  }
  let captures = 0;
  const optional: number[] = [];
  regexpTree.traverse(ast, {
    Group(path) {
      if (!(path.node as { capturing: boolean }).capturing) return;
      captures++;
      if (mayNotTakePart(path)) optional.push(captures);
    },
  });
  // The `x` flag (free spacing) is PCRE's; regexp-tree reads it and writes the regex without it.
  const generated = regexpTree.generate(ast.body);
  const jsFlags = flags.replace('x', '');
  try {
    new RegExp(generated, jsFlags);
  } catch (error) {
    return {
      ok: false,
      reason: `invalid regex ${JSON.stringify(source)}: ${String(error)}`,
      hint: '',
    };
  }
  return { ok: true, source: generated, flags: jsFlags, captures, optional };
}

/** A step of regexp-tree's traversal, as far as `mayNotTakePart` reads it. */
interface TreePath {
  node: { type: string; quantifier?: { kind: string; from?: number }; negative?: boolean };
  parentPath: TreePath | null;
}

/**
 * Whether a group may match without taking part, its capture then `undefined`: it, or a part
 * around it, is repeated possibly no time (`?`, `*`, `{0,n}`), one side of an alternation (`a|b`),
 * or inside a negative lookaround.
 */
function mayNotTakePart(group: TreePath): boolean {
  for (let path = group.parentPath; path !== null; path = path.parentPath) {
    const { type, quantifier, negative } = path.node;
    if (type === 'Disjunction') return true;
    if (type === 'Assertion' && negative === true) return true;
    if (type === 'Repetition' && quantifier !== undefined) {
      const least = quantifier.kind === '+' ? 1 : quantifier.kind === 'Range' ? quantifier.from : 0;
      if (least === 0) return true;
    }
  }
  return false;
}
