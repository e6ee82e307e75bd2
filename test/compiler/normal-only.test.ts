import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { resolveTarget } from '../../runtime/target.js';
import { importTable, removeApp, runCli, writeApp } from '../_utils.js';

let dir: string;
let table: RouteTable;

beforeAll(async () => {
  dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';
Course.get('/user/{id}', () => 'a').name('word');
Course.get('/n/{id}', () => 'b').where('id', '[0-9]+').name('digits');
Course.get('/file/{name}.{ext?}', () => 'c').name('dotted');
Course.get('/docs/{path}', () => 'd').where('path', '.*').name('rest');
Course.get('/any/{v}', () => 'e').where('v', '[^/]+').name('class');
Course.get('/dot/.well-known', () => 'f').name('dot');
Course.get('/escaped/a%41', () => 'i').name('escaped');
Course.get('/', () => 'g').name('root');
Course.get('/list/{page?}', () => 'h').name('optional');
`,
  });
  const result = await runCli(['build', '--root', dir]);
  expect(result.code, result.stderr).toBe(0);
  table = await importTable(dir);
});

afterAll(() => removeApp(dir));

const route = (name: string) => table.routes.find((r) => r.name === name)!;

describe('routes that match only normal paths', () => {
  it('are those of word parameters and normal literals', () => {
    // `/.well-known` is a segment starting with a dot, not a dot segment: normal.
    for (const name of ['word', 'digits', 'root', 'optional', 'dot'])
      expect(route(name).normalOnly, name).toBe(true);
    // A value that may hold `/`, `%`, `.`…, a literal with an escape, or a route tested by its
    // regex (which lets a trailing `/` through) may match a path that is not normal.
    for (const name of ['rest', 'class', 'escaped', 'dotted'])
      expect(route(name).normalOnly, name).toBe(false);
  });

  it('resolve a raw target without normalising it, and others as normalising would', () => {
    const word = resolveTarget(table, 'GET', '/user/7', '');
    expect(word?.path).toBe('/user/7');
    expect(word?.hit?.route).toBe(route('word'));
    // Matched raw by a route that takes anything: normalised, and matched again.
    const rest = resolveTarget(table, 'GET', '/docs/a%20b/?x=1', '');
    expect(rest?.path).toBe('/docs/a b');
    expect(rest?.hit?.params).toEqual(['a b']);
    const query = resolveTarget(table, 'GET', '/user/7/?tab=1', '');
    expect(query?.path).toBe('/user/7');
    expect(query?.hit?.route).toBe(route('word'));
    const dot = resolveTarget(table, 'GET', '/dot/.well-known', '');
    expect(dot?.path).toBe('/dot/.well-known');
    expect(dot?.hit?.route).toBe(route('dot'));
    const dotted = resolveTarget(table, 'GET', '/file/a.txt/', '');
    expect(dotted?.path).toBe('/file/a.txt');
    expect(dotted?.hit?.params).toEqual(['a', 'txt']);
    expect(resolveTarget(table, 'GET', '/nothing', '')?.hit).toBeUndefined();
    expect(resolveTarget(table, 'GET', '/a/%zz', '')).toBeUndefined();
  });
});
