import { describe, expect, it } from 'vitest';
import { decodeParam, decodePath, parseTarget } from '../../runtime/path.js';

describe('parseTarget', () => {
  it('splits off the query and drops trailing slashes, keeping the root', () => {
    expect(parseTarget('/a/b/?x=1')).toEqual({ path: '/a/b', query: 'x=1' });
    expect(parseTarget('/a//')).toEqual({ path: '/a', query: '' });
    expect(parseTarget('/')).toEqual({ path: '/', query: '' });
    expect(parseTarget('/?q')).toEqual({ path: '/', query: 'q' });
  });

  it('takes the path of an absolute-form target', () => {
    expect(parseTarget('http://example.com/a?b')).toEqual({ path: '/a', query: 'b' });
    expect(parseTarget('http://example.com')).toBeUndefined();
    expect(parseTarget('a/b')).toBeUndefined();
  });

  it('refuses malformed escapes and NUL', () => {
    expect(parseTarget('/%')).toBeUndefined();
    expect(parseTarget('/%4')).toBeUndefined();
    expect(parseTarget('/%zz')).toBeUndefined();
    expect(parseTarget('/%00')).toBeUndefined();
    expect(parseTarget('/%C3')).toBeUndefined();
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
