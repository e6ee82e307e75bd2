import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { send, servedShapes, type Served } from '../_utils.js';

const LIMIT = 20;

// An unsafe regex accepted on purpose, a parameter that may match `/` (its regex reads the whole
// path), a domain parameter (the host regex) and a setMatch regex (on its own host: it is tried
// on every path, and a path over its bound reaching it is a 414).
const ROUTES = `import { Course } from 'course-router';
Course.get('/u/{p}', (p: string) => 'u:' + p).where('p', '(a+)+').allowUnsafeRegex();
Course.get('/s/{p}', (p: string) => 's:' + p).where('p', '[a-z/]+');
Course.get('/t/{p}', (p: string) => 't:' + p).where('p', '[\\\\w%/]+');
Course.group({ domain: '{sub}.example.test', where: { sub: '[a-z]+' } }, () => {
  Course.get('/h', (sub: string) => 'h:' + sub);
});
Course.group({ domain: 'm.example.test' }, () => {
  Course.all('/m', () => 'm').setMatch('/^\\\\/m\\\\/([a-z]+)$/');
});
`;

/** The parameter regexes of the table, told apart from the router's own by their text. */
const PARAM_REGEXES = ['(?:a+)+', '[a-z/]+', '[\\w%/]+', '([a-z]+)\\.example', '\\/m\\/([a-z]+)'];

/** Every string a parameter regex ran on, as the matcher ran it (RegExp.prototype is wrapped). */
const seen: { source: string; input: string }[] = [];
const { exec, test } = RegExp.prototype;

function record(regex: RegExp, input: unknown): void {
  // A regex literal of the generated code writes `/` as `\/`.
  const source = regex.source.replaceAll('\\/', '/');
  if (PARAM_REGEXES.some((text) => source.includes(text)))
    seen.push({ source: regex.source, input: String(input) });
}

// allowUnsafeRegex() keeps its route building: no error, no warning.
const apps = servedShapes(ROUTES, { maxParamLength: LIMIT });

beforeAll(() => {
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    record(this, input);
    return exec.call(this, input);
  };
  RegExp.prototype.test = function (this: RegExp, input: string) {
    record(this, input);
    return test.call(this, input);
  };
});

afterEach(() => {
  seen.length = 0;
});

afterAll(() => {
  RegExp.prototype.exec = exec;
  RegExp.prototype.test = test;
});

/** Sends through both adapters; returns the status and how long the slower one took. */
async function timed(served: Served, target: string, host?: string) {
  const start = performance.now();
  const answer = await send(served, 'GET', target, host ? { headers: { host } } : {});
  return { status: answer.status, body: answer.body, ms: performance.now() - start };
}

describe('maxParamLength applies before any parameter regex runs (both adapters)', () => {
  it('a long segment is a 414 that no regex read, however unsafe its regex', async () => {
    for (const { label, served } of apps) {
      for (const target of [
        `/u/${'a'.repeat(4000)}`,
        `/u/${'a'.repeat(30)}!`,
        `/s/${'a'.repeat(4000)}`,
        `/x/${'a'.repeat(4000)}`,
        `/u/${'%61'.repeat(30)}`,
      ]) {
        const answer = await timed(served, target);
        expect(answer.status, `${label} ${target.slice(0, 12)}`).toBe(414);
        expect(answer.ms, label).toBeLessThan(1_000);
      }
      // The unsafe regex ran on no value at all: the segments were refused first.
      expect(
        seen.filter((s) => s.source.includes('(?:a+)+')),
        label,
      ).toEqual([]);
      expect(
        seen.every((s) => s.input.length <= LIMIT + 3),
        label,
      ).toBe(true);
    }
  });

  it('a value within the limit reaches its regex, escapes decoded first', async () => {
    for (const { label, served } of apps) {
      expect((await timed(served, `/u/${'a'.repeat(LIMIT)}`)).body, label).toBe(
        `u:${'a'.repeat(LIMIT)}`,
      );
      // 60 characters as written, 20 once decoded: within the limit.
      expect((await timed(served, `/u/${'%61'.repeat(LIMIT)}`)).status, label).toBe(200);
      const attack = await timed(served, `/u/${'a'.repeat(LIMIT - 1)}!`);
      expect(attack.status, label).toBe(404);
      const inputs = seen.filter((s) => s.source.includes('(?:a+)+')).map((s) => s.input);
      expect(inputs.length, label).toBeGreaterThan(0);
      expect(Math.max(...inputs.map((i) => i.length)), label).toBe(LIMIT);
    }
  });

  it('a regex that reads several segments, or the host, runs only within the limit per parameter', async () => {
    for (const { label, served } of apps) {
      // `[a-z/]+` may match `/`: its route regex reads the whole path `/s/…`, short segments.
      const value = 'abcd/abcd/abcd/abcde';
      expect((await timed(served, `/s/${value}`)).body, label).toBe(`s:${value}`);
      expect((await timed(served, `/s/${value}f`)).status, label).toBe(414);
      expect((await timed(served, `/s/${'ab/'.repeat(1000)}x`)).status, label).toBe(414);
      // A value with an escape is tested again decoded, within the limit too: `%2F` is 3
      // characters of the path its route regex reads, 1 of the value.
      expect((await timed(served, '/t/ab%2Fcd%25')).body, label).toBe('t:ab/cd%');
      const rechecked = seen.filter((s) => s.source.replaceAll('\\/', '/') === '^(?:[\\w%/]+)$');
      expect(
        rechecked.map((s) => s.input),
        label,
      ).toContain('ab/cd%');
      expect((await timed(served, `/t/${'%2F'.repeat(6)}`)).body, label).toBe('t://////');
      expect((await timed(served, `/t/${'%2F'.repeat(7)}`)).status, label).toBe(414);
      expect((await timed(served, '/h', 'abc.example.test')).body, label).toBe('h:abc');
      expect((await timed(served, '/h', `${'a'.repeat(LIMIT + 1)}.example.test`)).status).toBe(414);
      expect((await timed(served, '/m/abc', 'm.example.test')).body, label).toBe('m');
      // A setMatch regex has no literal head the matcher knows: any path over its bound is a 414.
      const long = `/x/${'ab/'.repeat(30)}`;
      expect((await timed(served, long, 'm.example.test')).status, label).toBe(414);
      expect((await timed(served, long)).status, label).toBe(404);
      for (const { source, input } of seen) {
        // What a regex read beyond its literal text (`/s/`, `.example.test`, `/m/`).
        const literal = source.includes('example') ? 13 : 3;
        expect(input.length - literal, `${label}: /${source}/ on ${input}`).toBeLessThanOrEqual(
          LIMIT,
        );
      }
    }
  });
});
