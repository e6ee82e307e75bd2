import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { resolveTarget } from '../../runtime/http/target.js';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, writeApp } from '../_utils.js';

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
Course.get('/escaped/100%25', () => 'i').name('escaped');
Course.get('/', () => 'g').name('root');
Course.get('/list/{page?}', () => 'h').name('optional');
Course.get('/post/{slug}', () => 'j').where('slug', '[a-z0-9-]+').name('slug');
Course.get('/safe/{v}', () => 'k').where('v', '[^/?%\\\\\\\\.]+').name('safe');
Course.get('/ext/{v}', () => 'l').where('v', '[a-z.]+').name('withDot');
Course.get('/range/{v}', () => 'm').where('v', '[+-0]+').name('range');
`,
  });
  const result = await cli(['build', '--root', dir]);
  expect(result.code, result.stderr).toBe(0);
  table = await importTable(dir);
});

afterAll(() => removeApp(dir));

const route = (name: string) => table.routes.find((r) => r.name === name)!;

describe('routes that match only normal paths', () => {
  it('are those of word parameters and normal literals', () => {
    // `/.well-known` is a segment starting with a dot, not a dot segment: normal.
    // A class none of whose characters normalising reads (`/ ? % \\ .`) is as good as `\\w+`.
    // A literal holds only the escapes a normal path keeps (`%25`, `%2F`): normal too.
    for (const name of ['word', 'digits', 'root', 'optional', 'dot', 'slug', 'safe', 'escaped'])
      expect(route(name).normalOnly, name).toBe(true);
    // A value that may hold `/`, `%`, `.`…, or a route tested by its
    // regex (which lets a trailing `/` through) may match a path that is not normal.
    // `[+-0]` is a range over `,-./0`.
    for (const name of ['rest', 'class', 'dotted', 'withDot', 'range'])
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
    // `[^/]+` is tested segment by segment; its values may hold what normalising reads.
    for (const [raw, params] of [
      ['/any/a.b', ['a.b']],
      ['/any/a%20b/', ['a b']],
      ['/any/a%25b', ['a%b']],
      // Decoded, `a%2Fb` is `a/b`, which `[^/]+` refuses.
      ['/any/a%2Fb', undefined],
      ['/any/x/..', undefined],
      ['/any/a/b', undefined],
    ] as const)
      expect(resolveTarget(table, 'GET', raw, '')?.hit?.params, raw).toEqual(params);
    expect(resolveTarget(table, 'GET', '/nothing', '')?.hit).toBeUndefined();
    expect(resolveTarget(table, 'GET', '/a/%zz', '')).toBeUndefined();
  });

  it('resolve a target with a query by matching the path before it, normalising only what needs it', () => {
    const paths: string[] = [];
    const counting: RouteTable = {
      ...table,
      match: (method, path, host, target) => (
        paths.push(path),
        table.match(method, path, host, target)
      ),
    };
    const resolve = (raw: string) => ((paths.length = 0), resolveTarget(counting, 'GET', raw, ''));
    // Normal before the query: matched as it is, then without the query, and resolved there.
    const word = resolve('/user/7?tab=1&x=%zz');
    expect([word?.path, word?.hit?.route, word?.hit?.params]).toEqual([
      '/user/7',
      route('word'),
      ['7'],
    ]);
    expect(paths).toEqual(['/user/7?tab=1&x=%zz', '/user/7']);
    const root = resolve('/?a=1');
    expect([root?.path, root?.hit?.route]).toEqual(['/', route('root')]);
    const rest = resolve('/docs/guide/intro.md?v=2');
    expect([rest?.path, rest?.hit?.params, rest?.hit?.normal]).toEqual([
      '/docs/guide/intro.md',
      ['guide/intro.md'],
      true,
    ]);
    expect(paths).toHaveLength(2);
    // As a raw target, a path with a query is looked for among the static paths only: the rest
    // route, which takes it as a normalised path would never be, is not tried on it.
    expect(table.match('GET', '/docs/guide/intro.md?v=2', '')?.params).toEqual([
      'guide/intro.md?v=2',
    ]);
    expect(table.match('GET', '/docs/guide/intro.md?v=2', '', true)).toBeUndefined();
    expect(table.match('GET', '/dot/.well-known', '', true)?.route).toBe(route('dot'));
    // A miss without the query is not matched a third time when normalising changes nothing.
    expect(resolve('/nothing?x=1')?.hit).toBeUndefined();
    expect(paths).toEqual(['/nothing?x=1', '/nothing']);
    // What normalising changes before the query is still normalised, then matched.
    for (const [raw, path, params] of [
      ['/user/7/?tab=1', '/user/7', ['7']],
      ['/docs/a%20b?x=1', '/docs/a b', ['a b']],
      ['/any/a/../b?x', '/any/b', ['b']],
      ['/list/?p=1', '/list', [undefined]],
    ] as const) {
      const resolved = resolve(raw);
      expect([resolved?.path, resolved?.hit?.params], raw).toEqual([path, params]);
    }
    expect(resolve('/a/%zz?x=1')).toBeUndefined();
  });

  it('a module with no dynamic route leaves the query check out, and still resolves a query', async () => {
    const staticApp = writeApp({
      'routes.ts': `import { Course } from 'course-router';\nCourse.get('/about', () => 'a').name('about');\n`,
    });
    try {
      const result = await cli(['build', '--root', staticApp]);
      expect(result.code, result.stderr).toBe(0);
      const source = readFileSync(path.join(staticApp, 'generated/routes.gen.ts'), 'utf8');
      expect(source).not.toContain("path.indexOf('?')");
      expect(readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8')).toContain(
        "path.indexOf('?')",
      );
      const only = await importTable(staticApp);
      expect(resolveTarget(only, 'GET', '/about?x=1', '')?.hit?.route.name).toBe('about');
      expect(resolveTarget(only, 'GET', '/other?x=1', '')?.hit).toBeUndefined();
    } finally {
      removeApp(staticApp);
    }
  });

  it('resolve a normal rest of the path without normalising, and any other rest as normalising would', () => {
    const normal = table.match('GET', '/docs/guide/intro.md', '');
    expect(normal?.normal).toBe(true);
    expect(normal?.params).toEqual(['guide/intro.md']);
    const cases: [raw: string, path: string | undefined, params: string[] | undefined][] = [
      ['/docs/guide/intro.md', '/docs/guide/intro.md', ['guide/intro.md']],
      ['/docs/a//b', '/docs/a/b', ['a/b']],
      ['/docs/a/../b', '/docs/b', ['b']],
      ['/docs/a/./b/', '/docs/a/b', ['a/b']],
      ['/docs/a\\b', '/docs/a/b', ['a/b']],
      ['/docs/.well-known/x', '/docs/.well-known/x', ['.well-known/x']],
      ['/docs/a%2Fb%20c', '/docs/a%2Fb c', ['a/b c']],
      ['/docs/a%0Ab', '/docs/a\nb', undefined],
      ['/docs/x?y=1', '/docs/x', ['x']],
    ];
    for (const [raw, path, params] of cases) {
      const resolved = resolveTarget(table, 'GET', raw, '');
      expect(resolved?.path, raw).toBe(path);
      expect(resolved?.hit?.params, raw).toEqual(params);
    }
    // Not normal, so not said to be: normalising decides.
    for (const raw of ['/docs/a//b', '/docs/.x', '/docs/a/', '/docs/a%20b', '/docs/a?b'])
      expect(table.match('GET', raw, '')?.normal, raw).toBeUndefined();
    expect(table.match('GET', '/docs/a\u2028b', '')).toBeUndefined();
  });
});
