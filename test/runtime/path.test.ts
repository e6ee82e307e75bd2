import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pathStart, targetAuthority } from '../../runtime/http/host.js';
import { decodeParam, decodePath, normalizePath, queryOf } from '../../runtime/http/path.js';

describe('normalizePath and queryOf', () => {
  it('split off the query and drop trailing slashes, keeping the root', () => {
    expect([normalizePath('/a/b/?x=1'), queryOf('/a/b/?x=1')]).toEqual(['/a/b', 'x=1']);
    expect([normalizePath('/a//'), queryOf('/a//')]).toEqual(['/a', '']);
    expect(normalizePath('/')).toBe('/');
    expect([normalizePath('/?q'), queryOf('/?q')]).toEqual(['/', 'q']);
  });

  it('take the path of an absolute-form target', () => {
    expect(normalizePath('http://example.com/a?b')).toBe('/a');
    // No path is the root, as the URL parser (so the Fetch adapter) has it.
    expect(normalizePath('http://example.com')).toBe('/');
    expect(normalizePath('http://example.com?a/b')).toBe('/');
    expect(normalizePath('a/b')).toBeUndefined();
  });

  it('resolve dot segments as the URL parser does, which the Fetch adapter is handed', () => {
    // A `..` after an empty segment removes that segment, not the one before it.
    for (const raw of ['/a//..', '/!/\\/%2e%2e', '/a/b/../c', '/../a', '/a/./b/.', '/a/%2E%2e/b'])
      expect(normalizePath(raw), raw).toBe(
        normalizePath(new URL(`http://localhost${raw}`).pathname),
      );
    expect(normalizePath('/a//..')).toBe('/a');
  });

  it('refuse malformed escapes and NUL', () => {
    for (const bad of ['/%', '/%4', '/%zz', '/%00', '/%C3'])
      expect(normalizePath(bad), bad).toBeUndefined();
  });
});

describe('decodePath and decodeParam', () => {
  it('decode every escape exactly once, keeping %2F and %25 until the parameter is taken', () => {
    expect(decodePath('/caf%C3%A9')).toBe('/café');
    expect(decodePath('/a%2fb')).toBe('/a%2Fb');
    expect(decodePath('/a%252F')).toBe('/a%252F');
    expect(decodeParam('a%2Fb')).toBe('a/b');
    expect(decodeParam('a%252F')).toBe('a%2F');
    expect(decodeParam(undefined)).toBeUndefined();
  });
});

describe('pathStart and targetAuthority', () => {
  // The rule as a regex: an http(s) scheme in any case, `//`, then an authority up to the first
  // `/`, `?` or `#`.
  const ABSOLUTE = /^https?:\/\/([^/?#]*)/i;
  const expected = (target: string) => ABSOLUTE.exec(target)?.[0].length ?? -1;

  it('finds where the path of an absolute-form target begins, as the URL rule says', () => {
    expect(pathStart('http://a:80/b')).toBe(11);
    expect(pathStart('http://a?q')).toBe(8);
    expect(pathStart('HTTPS://a#f')).toBe(9);
    expect(pathStart('https://a')).toBe(9);
    for (const other of ['/a', 'ftp://a/b', 'http:/a', 'http//a', 'httpx://a', 'https:a', ''])
      expect(pathStart(other), other).toBe(-1);
  });

  it('agrees with the regex on any text', () => {
    const piece = fc.constantFrom(
      'http',
      'HTTP',
      'hTtPs',
      's',
      ':',
      '/',
      '//',
      '?',
      '#',
      'a',
      '@',
      '%2F',
      '\\',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const target = pieces.join('');
        expect(pathStart(target)).toBe(expected(target));
        expect(targetAuthority(target)).toBe(
          target.startsWith('/') ? undefined : ABSOLUTE.exec(target)?.[1],
        );
      }),
      { numRuns: 2000 },
    );
  });
});
