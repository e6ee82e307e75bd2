import { describe, expect, it } from 'vitest';
import { withoutCase } from '../../compiler/caseless.js';

// Characters around which i and u disagree with plain ASCII folding: U+017F (long s), U+212A
// (Kelvin), U+212B (Angstrom), U+1E9E (capital sharp s), final sigma, dotted and dotless i.
const CHARACTERS = [
  ...Array.from({ length: 0x250 }, (_, c) => String.fromCodePoint(c)),
  ...'\u017f\u212a\u212b\u1e9e\u03c2\u03a3\u03c3\u0130\u0131\u{10400}\u{10428}',
];

describe('withoutCase: an i parameter for a route regex that has no i', () => {
  it('matches under u exactly what the regex matches under iu', () => {
    for (const source of [
      '[a-z]+',
      'jpe?g|png',
      '\\w+',
      '\\W',
      '[^a-z]',
      '\\p{Lu}',
      '[\\w\\p{L}\\s-]+',
      'k|\u212a',
      '\\bab\\b',
      '(?:x(?=y))',
      '\u{10400}',
    ]) {
      const original = new RegExp(`^(?:${source})$`, 'iu');
      const rewritten = new RegExp(`^(?:${withoutCase(source)})$`, 'u');
      const samples = [...CHARACTERS, 'ab', 'AB', 'JPG', 'PnG', 'xY', 'xy', 'ſK', 'A-b c'];
      const differ = samples.filter((s) => original.test(s) !== rewritten.test(s));
      expect(differ, source).toEqual([]);
    }
  });

  it('without u, matches under u exactly what the regex matches under i, every BMP code point', () => {
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));
    for (const source of [
      '[a-z]',
      '[^a-z]',
      '[^k]',
      '\\w',
      '[^\\W]',
      'k|s',
      '\u212a|\u017f',
      '[à-ÿ]',
      'ß|\u1e9e',
      'σ|ı|İ',
      'ǅ',
      '\\bab\\b',
    ]) {
      const original = new RegExp(`^(?:${source})$`, 'i');
      const rewritten = new RegExp(`^(?:${withoutCase(source, false)})$`, 'u');
      const samples = [...units, 'ab', 'AB', 'ſK', 'A-b c'];
      const differ = samples.filter((s) => original.test(s) !== rewritten.test(s));
      expect(differ, source).toEqual([]);
    }
    // Outside the BMP a code point is one character, as under u, and has no case without u.
    const deseret = new RegExp(`^(?:${withoutCase('\u{10400}', false)})$`, 'u');
    expect([deseret.test('\u{10400}'), deseret.test('\u{10428}')]).toEqual([true, false]);
    expect(withoutCase('[a-z]{3}', false)).toBe('[A-Za-z]{3}');
  });

  it('leaves what case does not change as written', () => {
    expect(withoutCase('[0-9]+')).toBe('[0-9]+');
    expect(withoutCase('\\d{4}-\\d{2}')).toBe('\\d{4}-\\d{2}');
    expect(withoutCase('[a-c]')).toBe('[A-Ca-c]');
  });
});
