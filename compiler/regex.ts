import regexpTree from 'regexp-tree';
import type { AstRegExp } from 'regexp-tree/ast';
import type { RegexLike } from 'course-router';
import { withoutCase } from './caseless.js';

/**
 * A user regex made safe to embed in a route regex, or why it cannot be. `caseless`: it was
 * given with the flags `iu`; it runs with `iu`, and `u` otherwise (CONTRACT 5.1). One given with
 * `i` and no `u` is rewritten to match under `u` alone what it matches with its `i` (`withoutCase`):
 * `u` would fold more (`/[a-z]/i` does not match U+017F or U+212A, `/[a-z]/iu` does).
 */
export type EmbeddedRegex =
  { ok: true; source: string; caseless: boolean } | { ok: false; reason: string; hint: string };

/** The flags a parameter regex runs with: Unicode semantics always, `i` when it was given. */
export function paramFlags(param: { caseless?: boolean }): string {
  return param.caseless ? 'iu' : 'u';
}

/**
 * Prepares a parameter regex (`where`, `defaultParameterRegex`) for embedding in a route
 * regex: checked valid under the `u` flag it runs with, parsed with regexp-tree, capture groups
 * made non-capturing (parameters are delivered by position, so a user group must not shift
 * them), edge anchors removed. A RegExp may carry `u` and `i`, no other flag.
 */
export function embedRegex(regex: RegexLike): EmbeddedRegex {
  const source = typeof regex === 'string' ? regex : regex.source;
  const other = typeof regex === 'string' ? '' : regex.flags.replace(/[iu]/g, '');
  if (other !== '') {
    return {
      ok: false,
      reason: `the regex ${String(regex)} has the flag${other.length > 1 ? 's' : ''} "${other}", which a parameter regex cannot carry`,
      hint: 'a parameter regex may carry u and i only; it always matches the whole value',
    };
  }
  try {
    new RegExp(source, 'u');
  } catch (error) {
    return {
      ok: false,
      reason: `the regex ${JSON.stringify(source)} is not valid with the u flag: ${firstLine(error)}`,
      hint: 'parameter regexes have Unicode semantics: escape only syntax characters (\\- only inside [...], never \\_), e.g. [0-9]+',
    };
  }
  let ast: AstRegExp;
  try {
    ast = regexpTree.parse(`/${delimited(source)}/u`);
  } catch (error) {
    return {
      ok: false,
      reason: `invalid regex ${JSON.stringify(source)}: ${firstLine(error)}`,
      hint: 'write the regex without delimiters, e.g. [0-9]+',
    };
  }
  let backreference = false;
  regexpTree.traverse(ast, {
    Group(path) {
      const node = path.node as {
        capturing: boolean;
        name?: string;
        nameRaw?: string;
        number?: number;
      };
      node.capturing = false;
      delete node.name;
      delete node.nameRaw;
      delete node.number;
    },
    Backreference() {
      backreference = true;
    },
  });
  if (backreference) {
    return {
      ok: false,
      reason: `the regex ${JSON.stringify(source)} uses a backreference`,
      hint: 'parameter regexes are embedded in the route regex; backreferences cannot be kept',
    };
  }
  stripEdgeAnchors(ast);
  const generated = regexpTree.generate(ast.body);
  try {
    new RegExp(generated, 'u');
  } catch (error) {
    return {
      ok: false,
      reason: `invalid regex ${JSON.stringify(source)}: ${firstLine(error)}`,
      hint: '',
    };
  }
  const flags = typeof regex === 'string' ? '' : regex.flags;
  if (flags === 'i') return { ok: true, source: withoutCase(generated, false), caseless: false };
  return { ok: true, source: generated, caseless: flags.includes('i') };
}

/** Escapes `text` for a literal match inside a regex. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `source` with each `/` not already escaped written `\\/`, to stand between delimiters. */
export function delimited(source: string): string {
  return source.replace(/\\[^]|\//g, (m) => (m === '/' ? '\\/' : m));
}

// --- internal ---

function stripEdgeAnchors(ast: AstRegExp): void {
  const body = ast.body as { type: string; expressions?: { type: string; kind?: string }[] } | null;
  if (!body || body.type !== 'Alternative' || !body.expressions) return;
  const list = body.expressions;
  if (list[0]?.type === 'Assertion' && list[0].kind === '^') list.shift();
  const last = list[list.length - 1];
  if (last?.type === 'Assertion' && last.kind === '$') list.pop();
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
