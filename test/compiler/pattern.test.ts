import { describe, expect, it } from 'vitest';
import { joinUrl, parsePattern, patternRegex } from '../../compiler/pattern.js';
import { embedRegex } from '../../compiler/regex.js';
import type { PatternToken } from '../../compiler/types.js';

function regexFor(url: string, paramRegex = '\\w+'): RegExp {
  const parsed = parsePattern(url);
  if (!parsed.ok) throw new Error(parsed.message);
  const tokens = parsed.tokens.map((t): PatternToken =>
    t.kind === 'param' ? { ...t, regex: paramRegex } : t,
  );
  return new RegExp(patternRegex(tokens));
}

describe('joinUrl', () => {
  it('joins prefixes with single slashes and no trailing slash', () => {
    expect(joinUrl('', '/admin/', 'users', '/{id}/')).toBe('/admin/users/{id}');
    expect(joinUrl('', '/')).toBe('/');
  });
});

describe('parsePattern', () => {
  it('moves the separator before a placeholder into it', () => {
    const parsed = parsePattern('/file/{name}.{ext?}');
    expect(parsed.ok && parsed.tokens).toEqual([
      { kind: 'literal', text: '/file' },
      { kind: 'param', name: 'name', optional: false, separator: '/', regex: '' },
      { kind: 'param', name: 'ext', optional: true, separator: '.', regex: '' },
    ]);
  });

  it('refuses bad names, unbalanced braces and repeated names', () => {
    expect(parsePattern('/{user-id}')).toMatchObject({ ok: false, code: 'E_PARAM_NAME' });
    expect(parsePattern('/{1a}')).toMatchObject({
      ok: false,
      code: 'E_PARAM_NAME',
      hint: 'a name is a letter or _ followed by letters, digits and _, e.g. {_1a}',
    });
    expect(parsePattern('/{user-id?}')).toMatchObject({
      hint: expect.stringContaining('{user_id?}'),
    });
    expect(parsePattern('/{id')).toMatchObject({ ok: false, code: 'E_PATTERN' });
    expect(parsePattern('/id}')).toMatchObject({ ok: false, code: 'E_PATTERN' });
    expect(parsePattern('/{id}/{id}')).toMatchObject({ ok: false, code: 'E_PATTERN' });
  });
});

describe('patternRegex', () => {
  it('an optional placeholder takes its separator with it', () => {
    const re = regexFor('/user/{id?}');
    expect(['/user', '/user/7'].map((p) => re.test(p))).toEqual([true, true]);
    expect(re.test('/user7')).toBe(false);
  });

  it('a pattern of optional parts answers the root', () => {
    expect(regexFor('/{lang?}').test('/')).toBe(true);
  });

  it('literals are escaped', () => {
    expect(regexFor('/a.b').test('/aXb')).toBe(false);
  });
});

describe('embedRegex', () => {
  it('makes groups non-capturing and drops edge anchors', () => {
    expect(embedRegex('^(a|b)+$')).toEqual({ ok: true, source: '(?:a|b)+', caseless: false });
    expect(embedRegex(/(?<n>x)/)).toEqual({ ok: true, source: '(?:x)', caseless: false });
  });

  it('takes u and i on a RegExp; refuses other flags, saying which', () => {
    expect(embedRegex(/a/iu)).toEqual({ ok: true, source: 'a', caseless: true });
    expect(embedRegex(/\p{L}+/u)).toEqual({ ok: true, source: '\\p{L}+', caseless: false });
    expect(embedRegex(/a/gs)).toMatchObject({ ok: false, reason: expect.stringContaining('"gs"') });
    expect(embedRegex(/a/y)).toMatchObject({ ok: false, reason: expect.stringContaining('"y"') });
  });

  it('refuses invalid regexes, strings invalid under u (naming them) and backreferences', () => {
    expect(embedRegex('[0-9')).toMatchObject({ ok: false });
    for (const source of ['[a-z', '\\-', '\\_', 'a{'])
      expect(embedRegex(source)).toMatchObject({
        ok: false,
        reason: expect.stringContaining(`${JSON.stringify(source)} is not valid with the u flag`),
      });
    expect(embedRegex('(a)\\1')).toMatchObject({ ok: false });
  });
});
