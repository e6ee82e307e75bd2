import regexpTree from 'regexp-tree';
import type { AstRegExp } from 'regexp-tree/ast';
import type { RegexLike } from 'course-router';

/** A user regex made safe to embed in a route regex, or why it cannot be. */
export type EmbeddedRegex =
  { ok: true; source: string } | { ok: false; reason: string; hint: string };

/**
 * Prepares a parameter regex (`where`, `defaultParameterRegex`) for embedding in a route
 * regex: parsed with regexp-tree, capture groups made non-capturing (parameters are delivered
 * by position, so a user group must not shift them), edge anchors removed.
 */
export function embedRegex(regex: RegexLike): EmbeddedRegex {
  const source = typeof regex === 'string' ? regex : regex.source;
  if (typeof regex !== 'string' && regex.flags.replace(/[gy]/g, '') !== '') {
    return {
      ok: false,
      reason: `the regex ${String(regex)} has flags, which a parameter regex cannot carry`,
      hint: 'write the case variants into the regex itself, e.g. [a-zA-Z]+',
    };
  }
  let ast: AstRegExp;
  try {
    ast = regexpTree.parse(`/${source.replace(/\//g, '\\/')}/`);
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
    new RegExp(generated);
  } catch (error) {
    return {
      ok: false,
      reason: `invalid regex ${JSON.stringify(source)}: ${firstLine(error)}`,
      hint: '',
    };
  }
  return { ok: true, source: generated };
}

/** Escapes `text` for a literal match inside a regex. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
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
