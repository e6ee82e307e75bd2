import { describe, expect, it } from 'vitest';
import { regexValues } from '../../compiler/literal-values.js';
import { embedRegex } from '../../compiler/regex.js';

/** The values of a `where()` regex, read from it as the build embeds it. */
function valuesOf(regex: string | RegExp): string[] | undefined {
  const embedded = embedRegex(regex);
  if (!embedded.ok) throw new Error(embedded.reason);
  return regexValues(embedded.source, embedded.caseless).values;
}

/** Every string of up to two characters from `alphabet`, and each of `values` changed a little. */
function near(values: readonly string[], alphabet: string): string[] {
  const letters = [...alphabet];
  const short = ['', ...letters, ...letters.flatMap((a) => letters.map((b) => a + b))];
  const changed = values.flatMap((v) => [
    v.slice(1),
    v.slice(0, -1),
    `${v}${v.at(-1) ?? 'x'}`,
    v.toUpperCase(),
  ]);
  return [...short, ...changed];
}

describe('regexValues: the values a parameter regex writes out', () => {
  it.each([
    ['en|fr', ['en', 'fr']],
    ['(?:draft|published)', ['draft', 'published']],
    ['(en|fr)-(us|gb)', ['en-us', 'en-gb', 'fr-us', 'fr-gb']],
    ['v[12]', ['v1', 'v2']],
    ['items?', ['item', 'items']],
    ['^en$', ['en']],
    ['a\\.b', ['a.b']],
    ['\\u0041b', ['Ab']],
    ['é|ü', ['é', 'ü']],
    ['a|', ['a', '']],
    ['x|x', ['x']],
    // With `i` alone the build writes each letter's cases out: those are its values.
    [/en/i, ['en', 'eN', 'En', 'EN']],
  ])('%s: %j', (regex, values) => {
    expect(valuesOf(regex)?.sort()).toEqual([...values].sort());
    // The regex as the matcher runs it takes each value, and none of the strings near them.
    const embedded = embedRegex(regex) as { source: string };
    const running = new RegExp(`^(?:${embedded.source})$`, 'u');
    for (const value of values) expect(running.test(value), value).toBe(true);
    const others = near(values, 'abefnrsuvxEN12.-').filter((s) => !values.includes(s));
    expect(others.filter((s) => running.test(s))).toEqual([]);
  });

  it.each([
    '[0-9]+',
    '\\d',
    'a.b',
    '[a-c]',
    '[^a]',
    'x{2}',
    'x*',
    '\\w+',
    '\\p{L}',
    '(?=a)a',
    // More than 32 values.
    '[ab][ab][ab][ab][ab][ab]',
    // A `%` is read decoded from the path before the regex.
    'a%2Fb',
  ])('%s: no values, a string', (regex) => {
    expect(valuesOf(regex)).toBeUndefined();
  });

  it('a regex with iu folds more than ASCII letters: a string', () => {
    expect(valuesOf(/en|fr/iu)).toBeUndefined();
  });
});

describe('regexValues: the digits a `${number}` parameter may take', () => {
  it.each([
    '[0-9]+',
    '\\d+',
    '\\d{4}',
    '\\d{2,}',
    '[1-9][0-9]*',
    '(?:0|[1-9]\\d*)',
    '^\\d+$',
    /\d+/i,
  ])('%s: digits alone, one at least', (regex) => {
    const embedded = embedRegex(regex);
    if (!embedded.ok) throw new Error(embedded.reason);
    expect(regexValues(embedded.source, embedded.caseless).digits).toBe(true);
    // The regex as the matcher runs it takes no empty value and no character but a digit.
    const running = new RegExp(`^(?:${embedded.source})$`, embedded.caseless ? 'iu' : 'u');
    expect(running.test('2024')).toBe(true);
    const others = ['', 'a', '1a', 'a1', ' 1', '1 ', '-1', '+1', '1.5', '1e3', '0x1', '١', '٣٣'];
    expect(others.filter((s) => running.test(s))).toEqual([]);
  });

  it.each([
    '[0-9]*',
    '\\d?',
    '\\d{0,3}',
    '[0-9a-f]+',
    '\\w+',
    '[^0-9]+',
    '\\d+|x',
    '.+',
    '[0-9]+\\.[0-9]+',
    '[0-9]+(?=a)',
    '-?\\d+',
  ])('%s: not digits alone', (regex) => {
    const embedded = embedRegex(regex);
    if (!embedded.ok) throw new Error(embedded.reason);
    expect(regexValues(embedded.source, embedded.caseless).digits).toBeUndefined();
  });
});
