import { MAX_TARGET_LENGTH } from 'course-router/internal';
import { withoutCase } from './caseless.js';
import { escapeRegex } from './regex.js';
import type { PatternToken } from './types.js';

/** Characters that may stand before a placeholder and belong to it when it is optional. */
const SEPARATORS = '/-.';
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A parsed URL pattern, or the problem with it. */
export type ParsedPattern =
  | { ok: true; tokens: PatternToken[] }
  | { ok: false; code: 'E_PATTERN' | 'E_PARAM_NAME'; message: string; hint: string };

/** Joins URL pieces into one pattern: a leading `/`, single slashes between, none trailing. */
export function joinUrl(...pieces: string[]): string {
  const parts = pieces.map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  return `/${parts.join('/')}`;
}

/**
 * Splits a pattern into literals and `{name}`/`{name?}` placeholders. Parameter regexes are
 * filled in later by `regexFor`; here each placeholder gets an empty one. A `path` (a route's
 * URL or a group's prefix, joined) must also be one a normalised request path can be.
 */
export function parsePattern(url: string, kind: 'path' | 'host' = 'path'): ParsedPattern {
  if (kind === 'path') {
    const problem = unnormalPath(url);
    if (problem) return problem;
  }
  const tokens: PatternToken[] = [];
  let literal = '';
  for (let i = 0; i < url.length; i++) {
    const ch = url[i]!;
    if (ch === '}') return broken(url, 'a "}" without its "{"');
    // A `?` or `#`: the path a route matches never holds one (the query is cut before matching, a
    // fragment never reaches the server).
    if (ch === '?' || ch === '#') {
      return broken(
        url,
        `a "${ch}" outside a placeholder, which no request path holds`,
        ch === '?'
          ? 'the query is not part of the route: read it with input(); an optional placeholder is {name?}'
          : 'a fragment (#…) never reaches the server: leave it out of the route',
      );
    }
    if (ch !== '{') {
      literal += ch;
      continue;
    }
    const close = url.indexOf('}', i);
    if (close === -1) return broken(url, 'a "{" without its "}"');
    const inner = url.slice(i + 1, close);
    const optional = inner.endsWith('?');
    const name = optional ? inner.slice(0, -1) : inner;
    if (!PARAM_NAME.test(name)) {
      return {
        ok: false,
        code: 'E_PARAM_NAME',
        message: `invalid parameter name "{${inner}}" in ${JSON.stringify(url)}`,
        hint: `a name is a letter or _ followed by letters, digits and _, e.g. {${validName(name)}${optional ? '?' : ''}}`,
      };
    }
    let separator = '';
    if (literal !== '' && SEPARATORS.includes(literal[literal.length - 1]!)) {
      separator = literal[literal.length - 1]!;
      literal = literal.slice(0, -1);
    }
    if (literal !== '') tokens.push({ kind: 'literal', text: literal });
    literal = '';
    tokens.push({ kind: 'param', name, optional, separator, regex: '' });
    i = close;
  }
  if (literal !== '') tokens.push({ kind: 'literal', text: literal });
  const names = tokens.flatMap((t) => (t.kind === 'param' ? [t.name] : []));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) return broken(url, `the parameter "{${twice}}" twice`);
  return { ok: true, tokens };
}

/** The flags of a route regex (`patternRegex`): parameter regexes have Unicode semantics. */
export const ROUTE_FLAGS = 'u';

/**
 * The anchored regex of a pattern over the normalised request path, run with `ROUTE_FLAGS`: a
 * parameter given with `i` is rewritten case-insensitive in itself (`withoutCase`), so that the
 * literals and the other parameters stay case-sensitive.
 */
export function patternRegex(tokens: readonly PatternToken[]): string {
  let body = '';
  for (const token of tokens) {
    if (token.kind === 'literal') {
      body += escapeRegex(token.text);
    } else {
      const part = `${escapeRegex(token.separator)}(${token.caseless ? withoutCase(token.regex) : token.regex})`;
      body += token.optional ? `(?:${part})?` : part;
    }
  }
  // The normalised path has no trailing slash but for the root, which `/?` lets through
  // when every part of the pattern is optional (`/{lang?}` answers `/`).
  return `^${body}\\/?$`;
}

// --- internal ---

/**
 * The problem with a joined path that no request path is once normalised (dot segments
 * resolved, empty segments collapsed, escapes decoded once), beside the `?` and `#` of
 * `parsePattern`. A leading or trailing `/` is not one: `joinUrl` trims those, as the original
 * router does (`//a/` is `/a`).
 */
function unnormalPath(url: string): ParsedPattern | undefined {
  if (url.length > MAX_TARGET_LENGTH) {
    return {
      ok: false,
      code: 'E_PATTERN',
      message: `the URL ${JSON.stringify(url.slice(0, 40))}… is ${url.length} characters long`,
      hint: `a request target over ${MAX_TARGET_LENGTH} characters is a 414: no request can reach it`,
    };
  }
  for (const segment of url === '/' ? [] : url.slice(1).split('/')) {
    if (segment === '') {
      return broken(
        url,
        'an empty segment ("//"), which no request path holds',
        'request paths are normalised before matching ("/a//b" is "/a/b"): write one "/"',
      );
    }
    if (segment === '.' || segment === '..') {
      return broken(
        url,
        `a "${segment}" segment, which no request path holds`,
        'request paths are normalised before matching ("/a/./b" is "/a/b", "/a/../b" is "/b"): write the path it resolves to',
      );
    }
  }
  // A normalised path keeps `%2F` (a slash inside a segment) and `%25` (a percent), upper-case,
  // and decodes every other escape: any other `%` is one no request path holds.
  const percent = /%(?!2F|25)(?:[0-9A-Fa-f]{2})?/.exec(url);
  if (percent) {
    const escape = percent[0].length === 3;
    return broken(
      url,
      escape ? `the percent-escape "${percent[0]}"` : 'a "%" that starts no escape',
      escape && /^%2f$/i.test(percent[0])
        ? 'request paths keep a slash inside a segment as "%2F", upper-case: write "%2F"'
        : escape
          ? 'write the character itself: request paths are decoded before matching (a "%" is "%25", a "/" inside a segment "%2F")'
          : 'request paths keep a percent sign as "%25": write "%25"',
    );
  }
  return undefined;
}

function broken(
  url: string,
  what: string,
  hint = 'placeholders are written {name} or {name?}',
): ParsedPattern {
  return {
    ok: false,
    code: 'E_PATTERN',
    message: `the URL ${JSON.stringify(url)} has ${what}`,
    hint,
  };
}

/** `name` made a valid parameter name, as a hint suggests it. */
function validName(name: string): string {
  const word = name.replace(/[^A-Za-z0-9_]/g, '_');
  return word === '' ? 'id' : /^[0-9]/.test(word) ? `_${word}` : word;
}
