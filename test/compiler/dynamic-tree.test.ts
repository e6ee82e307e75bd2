import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { segmentHash } from '../../runtime/matching/tree.js';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, writeApp } from '../_utils.js';

// Enough dynamic routes for the shared tree walker rather than code per route.
const FILLER = Array.from(
  { length: 80 },
  (_, i) => `Course.get('/f${i}/{a}/x/{b}', (a: string, b: string) => [${i}, a, b]);`,
);
const DEEP = Array.from({ length: 20 }, (_, i) => `d${i}`).join('/');
// The longest segment a route may have: a URL up to a request target's 8 KiB.
const LONG = 'l'.repeat(8_000);

let dir: string;
let table: RouteTable;
// A small app: code per route, the same tree.
let smallDir: string;
let small: RouteTable;

beforeAll(async () => {
  smallDir = writeApp({
    'routes.ts': `import { Course } from 'course-router';
${FILLER.slice(0, 8).join('\n')}
Course.get('/__proto__/{id}', (id: string) => ['proto', id]);
Course.get('/constructor/{id}', (id: string) => ['constructor', id]);
`,
  });
  const built = await cli(['build', '--root', smallDir]);
  expect(built.code, built.stderr).toBe(0);
  small = await importTable(smallDir);
  dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';
${FILLER.join('\n')}
Course.get('/Aa/{id}', (id: string) => ['Aa', id]);
Course.get('/BB/{id}', (id: string) => ['BB', id]);
Course.post('/BB/{id}', (id: string) => ['BB post', id]);
Course.get('/Ab/{id}', (id: string) => ['Ab', id]);
Course.get('/{word}/{id}/hashed', (word: string, id: string) => [word, id]);
Course.get('/__proto__/{id}', (id: string) => ['proto', id]);
Course.get('/constructor/{id}', (id: string) => ['constructor', id]);
Course.get('/${DEEP}/{id}', (id: string) => ['deep', id]);
Course.get('/a/{x}/b/{y}/c/{z?}', (x: string, y: string, z?: string) => [x, y, z]);
Course.get('/n/{id}', (id: string) => ['n', id]).where('id', '[0-9]+');
Course.get('/${LONG}/{id}', (id: string) => ['long', id]);
Course.get('/${LONG.slice(0, 7_000)}/{id}', (id: string) => ['short', id]);
`,
  });
  const result = await cli(['build', '--root', dir]);
  expect(result.code, result.stderr).toBe(0);
  table = await importTable(dir);
});

afterAll(() => {
  removeApp(dir);
  removeApp(smallDir);
});

const find = (method: string, url: string) => {
  const hit = table.match(method, url, '');
  return hit && { route: table.routes.indexOf(hit.route), params: [...hit.params] };
};

describe('the dynamic-route tree of a large app', () => {
  it('is walked by the shared walker (a small app has code per route)', () => {
    const generated = readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
    expect(generated).toContain('walkTree($tree');
    const smallGenerated = readFileSync(path.join(smallDir, 'generated/routes.gen.ts'), 'utf8');
    expect(smallGenerated).not.toContain('walkTree($tree');
  });

  it('tells apart segments of one length and one hash', () => {
    expect(segmentHash('Aa', 0, 2)).toBe(segmentHash('BB', 0, 2));
    expect(find('GET', '/Aa/1')?.params).toEqual(['1']);
    expect(find('GET', '/BB/2')?.params).toEqual(['2']);
    expect(find('GET', '/Aa/1')?.route).not.toBe(find('GET', '/BB/2')?.route);
    expect(find('GET', '/AB/3')).toBeUndefined();
    expect(table.allowed('/BB/2', '')).toEqual(['GET', 'HEAD', 'POST']);
    expect(table.allowed('/Aa/2', '')).toEqual(['GET', 'HEAD']);
  });

  it('takes no route of a segment whose hash alone matches', () => {
    // `BC` is no segment of the tree, but hashes as `Ab` does: the walk must not stop there.
    expect(segmentHash('BC', 0, 2)).toBe(segmentHash('Ab', 0, 2));
    expect(find('GET', '/Ab/7')?.params).toEqual(['7']);
    expect(find('GET', '/BC/7')).toBeUndefined();
    const any = find('GET', '/Ab/7/hashed');
    expect(any?.params).toEqual(['Ab', '7']);
    expect(find('GET', '/BC/7/hashed')).toEqual({ route: any?.route, params: ['BC', '7'] });
    expect(table.allowed('/BC/7', '')).toEqual([]);
    expect(table.allowed('/BC/7/hashed', '')).toEqual(['GET', 'HEAD']);
  });

  it('takes segments named like object properties as plain words', () => {
    for (const app of [small, table]) {
      expect(app.match('GET', '/__proto__/1', '')?.params).toEqual(['1']);
      expect(app.match('GET', '/constructor/2', '')?.params).toEqual(['2']);
      expect(app.match('GET', '/toString/3', '')).toBeUndefined();
    }
    expect(find('GET', '/__proto__/1')?.params).toEqual(['1']);
    expect(find('GET', '/constructor/2')?.params).toEqual(['2']);
    expect(find('GET', '/toString/3')).toBeUndefined();
    expect(find('GET', '/hasOwnProperty/x')).toBeUndefined();
  });

  it('resumes a route after the segments it walked, however deep', () => {
    expect(find('GET', '/f7/one/x/two')?.params).toEqual(['one', 'two']);
    expect(find('GET', '/f7/one/y/two')).toBeUndefined();
    expect(find('GET', '/f7/one/x/')).toBeUndefined();
    expect(find('GET', `/${DEEP}/9`)?.params).toEqual(['9']);
    expect(find('GET', `/${DEEP.replace('d19', 'd18')}/9`)).toBeUndefined();
    expect(find('GET', '/a/1/b/2/c')?.params).toEqual(['1', '2', undefined]);
    expect(find('GET', '/a/1/b/2/c/3')?.params).toEqual(['1', '2', '3']);
    expect(find('GET', '/a/1/b/2/c/3/4')).toBeUndefined();
    expect(find('GET', `/${LONG}/1`)?.params).toEqual(['1']);
    expect(find('GET', `/${LONG.slice(0, 7_000)}/2`)?.params).toEqual(['2']);
    expect(find('GET', `/${LONG}l/1`)).toBeUndefined();
    expect(find('GET', '/n/42')?.params).toEqual(['42']);
    expect(find('GET', '/n/4x')).toBeUndefined();
  });

  it('finds nothing for a path that does not start with a slash or ends early', () => {
    expect(find('GET', 'f7/one/x/two')).toBeUndefined();
    expect(find('GET', '/f7')).toBeUndefined();
    expect(find('GET', '/f7/')).toBeUndefined();
    expect(find('GET', '')).toBeUndefined();
  });
});
