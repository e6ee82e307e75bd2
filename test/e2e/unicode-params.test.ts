import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { send, servedShapes } from '../_utils.js';

const ROUTES = `import { Course } from 'course-router';
Course.get('/test/{slug}', (slug: string) => slug).where('slug', '[\\\\w\\\\p{L}\\\\s-]+');
Course.get('/testr/{slug}', (slug: string) => slug).where('slug', /[\\w\\p{L}\\s-]+/u);
Course.get('/code/{c}', (c: string) => c).where('c', /[a-f0-9]+/i);
Course.get('/latin/{v}', (v: string) => v).where('v', '[a-z]+');
Course.get('/fold/{v}', (v: string) => v).where('v', /[a-z]+/iu);
Course.get('/word/{v}', (v: string) => v).where('v', /\\w+/iu);
Course.get('/foldi/{v}', (v: string) => v).where('v', /[a-z]+/i);
Course.get('/wordi/{v}', (v: string) => v).where('v', /\\w+/i);
Course.get('/file/{name}.{ext}', (name: string, ext: string) => name + '|' + ext)
  .where({ name: '[a-z]+', ext: /jpe?g|png/i });
`;

// The same routes tested by generated code (a small app) and by the shared walker (a large one).
const apps = servedShapes(ROUTES);

describe('parameter regexes have Unicode semantics (both adapters, code and walker)', () => {
  it('\\p{L} takes a letter, and the decoded value reaches the callback', async () => {
    for (const { label, served } of apps) {
      for (const base of ['/test', '/testr']) {
        const hit = await send(served, 'GET', `${base}/Dermatolog%C3%ADa`);
        expect(hit, label).toMatchObject({ status: 200, body: 'Dermatología' });
        expect((await send(served, 'GET', `${base}/a%20b-c`)).body, label).toBe('a b-c');
        // Without `u`, \p{L} was the characters p, {, L and }.
        expect((await send(served, 'GET', `${base}/%7BL%7D`)).status, label).toBe(404);
        expect((await send(served, 'GET', `${base}/pL`)).status, label).toBe(200);
      }
    }
  });

  it('a regex given with i matches that parameter case-insensitively, and only it', async () => {
    for (const { label, served } of apps) {
      expect((await send(served, 'GET', '/code/ABCdef09')).body, label).toBe('ABCdef09');
      expect((await send(served, 'GET', '/code/xyz')).status, label).toBe(404);
      // The literals stay case-sensitive.
      expect((await send(served, 'GET', '/CODE/abc')).status, label).toBe(404);
      expect((await send(served, 'GET', '/file/a.JPG')).body, label).toBe('a|JPG');
      expect((await send(served, 'GET', '/file/a.PnG')).body, label).toBe('a|PnG');
      // `name` was given without i; the literal `/file` is case-sensitive.
      expect((await send(served, 'GET', '/file/A.jpg')).status, label).toBe(404);
      expect((await send(served, 'GET', '/FILE/a.jpg')).status, label).toBe(404);
      expect((await send(served, 'GET', '/file/a.gif')).status, label).toBe(404);
    }
  });

  it('with i and u, [a-z] and \\w take U+017F and U+212A, which fold to s and k; with i alone not', async () => {
    for (const { label, served } of apps) {
      expect((await send(served, 'GET', '/fold/%C5%BF')).body, label).toBe('\u017f');
      expect((await send(served, 'GET', '/fold/%E2%84%AA')).body, label).toBe('\u212a');
      expect((await send(served, 'GET', '/fold/ABC')).body, label).toBe('ABC');
      expect((await send(served, 'GET', '/word/x%C5%BF%E2%84%AA')).body, label).toBe(
        'x\u017f\u212a',
      );
      // With i and no u, they fold as JavaScript folds them: /^[a-z]+$/i.test('ſ') is false.
      for (const value of ['%C5%BF', '%E2%84%AA', 'x%C5%BF']) {
        expect((await send(served, 'GET', `/foldi/${value}`)).status, label).toBe(404);
        expect((await send(served, 'GET', `/wordi/${value}`)).status, label).toBe(404);
      }
      expect((await send(served, 'GET', '/foldi/aBc')).body, label).toBe('aBc');
      expect((await send(served, 'GET', '/wordi/aB_9')).body, label).toBe('aB_9');
      // Without i, the class is ASCII.
      expect((await send(served, 'GET', '/latin/%C5%BF')).status, label).toBe(404);
      expect((await send(served, 'GET', '/latin/ABC')).status, label).toBe(404);
    }
  });

  it('keeps the character-run fast path for an ASCII class, and only for one', () => {
    const code = readFileSync(path.join(apps[0]!.dir, 'generated/routes.gen.ts'), 'utf8');
    // [a-f0-9] with i stays ASCII: read by a table of its characters, both cases.
    expect(code).toContain("charRun('0123456789ABCDEFabcdef')");
    expect(code).not.toContain('[a-f0-9]');
    // [a-z] and \w with iu are not ASCII runs: their regex runs, with its flags.
    expect(code).toContain('/^(?:[a-z]+)$/iu');
    expect(code).toContain('/^(?:\\w+)$/iu');
    // With i alone, [a-z] is [A-Za-z]: an ASCII run.
    expect(code).toContain("charRun('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')");
    // In the route regex, only the i parameter is case-insensitive.
    expect(code).toMatch(/\(\[a-z\]\+\)\\\.\(\[Jj\]\[Pp\]\[Ee\]\?\[Gg\]\|\[Pp\]\[Nn\]\[Gg\]\)/);
  });
});
