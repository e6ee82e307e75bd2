import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import { buildApp, removeApp, writeApp } from '../_utils.js';

/**
 * Patterns that, before the gate checked them as the matcher runs them, built without a word
 * and then held the event loop for seconds on one GET of about 30 characters.
 */
const UNSAFE = [
  '(a+)+',
  '([a-z]+)*',
  '(a|aa)+',
  '(\\w+\\s?)*',
  '[a-z]+[a-z]+[a-z]+',
  // The checker times out on this one: not a pass.
  '(?:(?:a{1,30}){1,30}){1,30}',
];

const SAFE = ['[0-9]+', '[a-z0-9-]+', '\\w+', '[^/]+', '.*', '(?:en|de|fr)', '[\\w\\p{L}\\s-]+'];

const q = (pattern: string): string => JSON.stringify(pattern);

/** Each form writes a pattern into a route file line; `at` is the name the error points at. */
const FORMS: { form: string; line: (p: string, i: number) => string; at: string; what: string }[] =
  [
    {
      form: 'where()',
      line: (p, i) => `Course.get('/r${i}/{p}', () => 'r').where('p', ${q(p)});`,
      at: 'where',
      what: 'parameter "p"',
    },
    {
      form: "a group's defaultParameterRegex",
      line: (p, i) =>
        `Course.group({ defaultParameterRegex: ${q(p)} }, () => Course.get('/g${i}/{p}', () => 'g'));`,
      at: 'group',
      what: 'parameter "p"',
    },
    {
      form: "a group's where",
      line: (p, i) =>
        `Course.group({ prefix: '/w${i}', where: { p: ${q(p)} } }, () => Course.get('/{p}', () => 'w'));`,
      at: 'group',
      what: 'parameter "p"',
    },
    {
      form: "a domain parameter's where",
      line: (p, i) =>
        `Course.group({ domain: '{p}.d${i}.test', where: { p: ${q(p)} } }, () => Course.get('/d${i}', () => 'd'));`,
      at: 'group',
      what: `the domain "{p}.d`,
    },
    {
      form: 'setMatch()',
      line: (p, i) => `Course.all('/m${i}', () => 'm').setMatch(${q(`/^\\/m(?:${p})$/`)});`,
      at: 'setMatch',
      what: 'setMatch()',
    },
  ];

// The refusals are the build's messages, printed by the run's CLI servers (`cli`), which build
// the safe app too (`buildApp`).
const apps: string[] = [];
afterAll(() => apps.forEach(removeApp));

function app(lines: string[]): string {
  const dir = writeApp({
    'routes.ts': ["import { Course } from 'course-router';", ...lines, ''].join('\n'),
  });
  apps.push(dir);
  return dir;
}

/** The `file:line:col` of the call named `at` on line `k` (0-based) of the route lines. */
function where(lines: string[], k: number, at: string): string {
  return `routes.ts:${k + 2}:${lines[k]!.indexOf(`${at}(`) + 1}`;
}

describe('the ReDoS gate checks each regex as the matcher runs it (course build)', () => {
  for (const { form, line, at, what } of FORMS) {
    it(`refuses every unsafe pattern given as ${form}, at its file:line:col`, async () => {
      const lines = UNSAFE.map(line);
      const result = await cli(['build', '--root', app(lines)]);
      expect(result.code).toBe(1);
      for (const [k, pattern] of UNSAFE.entries()) {
        const error = `${where(lines, k, at)}: error E_REGEX_UNSAFE: ${what}`;
        expect(result.stderr, `${pattern} as ${form}`).toContain(error);
      }
      expect(result.stderr).toContain('call .allowUnsafeRegex() on the route');
      expect(result.stderr).toContain('the checker gave up after 2 s');
    }, 60_000);
  }

  it('refuses a route regex whose parameters, each safe, backtrack together', async () => {
    const lines = [
      `Course.get('/c0/{a}{b}', () => 'c').where({ a: '[a-z]+', b: '[a-z]+' });`,
      `Course.get('/c1/{a}-{b}', () => 'c').where({ a: '[a-z-]+', b: '[a-z-]+' });`,
      `Course.get('/c2/{a}/x/{b}', () => 'c').where({ a: '.*', b: '.*' });`,
    ];
    const result = await cli(['build', '--root', app(lines)]);
    expect(result.code).toBe(1);
    for (const [k, url] of ['/c0/{a}{b}', '/c1/{a}-{b}', '/c2/{a}/x/{b}'].entries()) {
      expect(result.stderr).toContain(
        `${where(lines, k, 'get')}: error E_REGEX_UNSAFE: the URL "${url}": the regex /^`,
      );
    }
    expect(result.stderr).toContain('can take polynomial (degree 2) time');
  });

  it('refuses a repetition inside a lookbehind, which reads back into the parameter before it', async () => {
    // Alone, `(?<!!(?:a|a)*[.])b` reads back over nothing; in the route regex, over every `a` of
    // {y}: a GET of 28 of them held the event loop for 10 s. The checker took it for safe.
    const lines = [
      `Course.get('/lb/{y}.{x}', () => 'lb').where('y', 'a+').where('x', '(?<!!(?:a|a)*[.])b');`,
    ];
    const result = await cli(['build', '--root', app(lines)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `routes.ts:2:56: error E_REGEX_UNSAFE: parameter "x": the regex /^(?:(?<!!(?:a|a)*[.])b)$/u, as the matcher runs it, repeats inside a lookbehind`,
    );
  });

  it('checks a regex with the i and u flags it runs with', async () => {
    // With u, U+017F folds to s: two ways to read each letter. (With i alone it does not.)
    const lines = [`Course.get('/i/{p}', () => 'i').where('p', /(?:s|\u017f)+/iu);`];
    const result = await cli(['build', '--root', app(lines)]);
    expect(result.stderr).toContain(
      `${where(lines, 0, 'where')}: error E_REGEX_UNSAFE: parameter "p": the regex /^(?:(?:s|\u017f)+)$/iu, as the matcher runs it, can take exponential time`,
    );
  });

  it('builds the common safe patterns in every form, and shapes that are linear', async () => {
    const lines = [
      ...FORMS.flatMap(({ line }, f) => SAFE.map((p, i) => line(p, f * 100 + i))),
      `Course.get('/file/{name}.{ext}', () => 'f');`,
      `Course.get('/two/{a}/{b}', () => 't').where({ a: '[^/]+', b: '[a-z-]+' });`,
      `Course.get('/rest/{a}/{path}', () => 'r').where({ a: '[0-9]+', path: '.*' });`,
      `Course.get('/range/{from}-{to}', () => 'r').where({ from: '[0-9]+', to: '[0-9]+' });`,
      `Course.get('/ci/{p}', () => 'i').where('p', /[a-z]+/iu);`,
      // Safe as a string, run with u; with i (as a host regex runs), s and U+017F are one letter.
      `Course.get('/su/{p}', () => 's').where('p', '(?:s|\u017f)+');`,
      // A lookbehind of fixed length reads back one character.
      `Course.get('/lb/{p}', () => 'l').where('p', '[a-z-]+(?<!-)');`,
    ];
    await buildApp(app(lines));
  }, 60_000);
});
