import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { asciiRun } from '../../compiler/emit/segments.js';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, WALKED_ROUTES, writeApp } from '../_utils.js';

const ROUTES = `Course.get('/n/{id}', (id: string) => ['n', id]).where('id', '[0-9]+');
Course.get('/n/{id}/edit', (id: string) => ['edit', id]).where('id', '\\\\d+');
Course.get('/slug/{s}', (s: string) => ['slug', s]).where('s', '[a-z0-9-]+');
Course.get('/list/{page?}', (page?: string) => ['list', page ?? null]).where('page', '[0-9]+');
Course.get('/any/{v}', (v: string) => ['any', v]).where('v', '[^/]+');
`;

const apps: { dir: string; table: RouteTable }[] = [];

beforeAll(async () => {
  for (const extra of ['', WALKED_ROUTES]) {
    const dir = writeApp({
      'routes.ts': `import { Course } from 'course-router';\n${ROUTES}${extra}\n`,
    });
    const built = await cli(['build', '--root', dir]);
    expect(built.code, built.stderr).toBe(0);
    apps.push({ dir, table: await importTable(dir) });
  }
});

afterAll(() => apps.forEach(({ dir }) => removeApp(dir)));

describe('a parameter that is a run of one ASCII class', () => {
  it('is one class, repeated, of ASCII characters other than / and %', () => {
    for (const source of ['[0-9]+', '\\d+', '[a-z0-9-]+', '[A-Za-z_]*', '[a-z\\-.]+'])
      expect(asciiRun(source, 'u'), source).toBeDefined();
    expect(asciiRun('\\d+', 'u')).toBe('0123456789');
    expect(asciiRun('[a-c-]+', 'u')).toBe('-abc');
    for (const source of [
      '[^/]+',
      '[0-9]{2}',
      '[0-9]',
      '[a-z%]+',
      '[!-~]+',
      '[\\u00e0-\\u00ff]+',
      '[é]+',
      '\\D+',
      '[\\s]+',
      '[0-9]+|x',
      '(?:[0-9])+',
    ])
      expect(asciiRun(source, 'u'), source).toBeUndefined();
  });

  it('with i and u, takes both cases, unless the class then folds in U+017F or U+212A', () => {
    expect(asciiRun('[a-f0-9]+', 'iu')).toBe('0123456789ABCDEFabcdef');
    expect(asciiRun('[0-9]+', 'iu')).toBe('0123456789');
    for (const source of ['\\w+', '[a-z]+', '[k]+', '[s-]+'])
      expect(asciiRun(source, 'iu'), source).toBeUndefined();
    expect(asciiRun('[a-z]+', 'u')).toBe('abcdefghijklmnopqrstuvwxyz');
  });

  it('is read to its end in generated code, by a table built once, and never decoded', () => {
    const code = readFileSync(path.join(apps[0]!.dir, 'generated/routes.gen.ts'), 'utf8');
    expect(code).toContain("const $u0 = charRun('0123456789');");
    // The regex of a run is not needed at run time.
    expect(code).not.toContain('[0-9]+');
    expect(code).toMatch(/valueEnd\(path, 2, \$u\d\)/);
    expect(code).not.toContain('walkTree($tree');
    // Only `[^/]+`, which takes `%`, is still decoded.
    expect(code.match(/decodeParam\(/g)).toHaveLength(1);
    const large = readFileSync(path.join(apps[1]!.dir, 'generated/routes.gen.ts'), 'utf8');
    expect(large).toContain('walkTree($tree');
  });

  it('matches as its regex does, in generated code and in the shared walker', () => {
    for (const { table } of apps) {
      const find = (url: string): unknown => {
        const hit = table.match('GET', url, '');
        return hit && hit.route.call(hit.params);
      };
      expect(find('/n/42')).toEqual(['n', '42']);
      expect(find('/n/42/edit')).toEqual(['edit', '42']);
      expect(find('/n/4a')).toBeUndefined();
      // The regex sees an escape as it is written: `%34` is not a digit.
      expect(find('/n/%34')).toBeUndefined();
      expect(find('/n/')).toBeUndefined();
      expect(find('/n/٣')).toBeUndefined();
      expect(find('/slug/ab-1')).toEqual(['slug', 'ab-1']);
      expect(find('/slug/Ab')).toBeUndefined();
      expect(find('/list')).toEqual(['list', null]);
      expect(find('/list/3')).toEqual(['list', '3']);
      expect(find('/list/x')).toBeUndefined();
      // `[^/]+` tests the decoded value: `a/b` has a slash, `a%b` none.
      expect(find('/any/a%2Fb')).toBeUndefined();
      expect(find('/any/a%25b')).toEqual(['any', 'a%b']);
    }
  });
});
