import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, writeApp } from '../_utils.js';

let dir: string;
let table: RouteTable;

beforeAll(async () => {
  dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';
Course.get('/event/{id}', (id: string) => ['show', id]);
Course.get('/event/{id}/comments', (id: string) => ['comments', id]);
Course.post('/event/{id}/comment', (id: string) => ['comment', id]);
Course.get('/event/{id}/{tab?}', (id: string, tab?: string) => ['tab', id, tab]);
Course.get('/n/{id}/a', (id: string) => ['a', id]).where('id', '[0-9]+');
Course.get('/n/{id}/b', (id: string) => ['b', id]).where('id', '[0-9]+');
Course.get('/n/{id}/{rest}', (id: string, rest: string) => ['word', id, rest]);
Course.get('/m/{a}/x/{b}', (a: string, b: string) => ['mx', a, b]);
Course.get('/m/{a}/x/{b}/y', (a: string, b: string) => ['mxy', a, b]);
Course.put('/m/{a}/x/{b}', (a: string, b: string) => ['put', a, b]);
Course.get('/m/{a}/z/{b}', (a: string, b: string) => ['mz', a, b]);
Course.get('/a-segment-of-many-letters/{id}', (id: string) => ['long', id]);
Course.get('/v/{a}/lookup/username/detail', (a: string) => ['detail', a]);
`,
  });
  const built = await cli(['build', '--root', dir]);
  expect(built.code, built.stderr).toBe(0);
  table = await importTable(dir);
});

afterAll(() => removeApp(dir));

/** The route's callback result for a request, as `[label, ...params]`, or `undefined`. */
const find = (method: string, url: string): unknown => {
  const hit = table.match(method, url, '');
  return hit && hit.route.call(hit.params);
};

describe('the code of a node whose routes begin alike', () => {
  it('reads a parameter the routes share once', () => {
    const generated = readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
    const node =
      /function \$n\d+\([^)]*\)[^{]*\{\n(?:(?!^\}).*\n)*?.*valueEnd\(path, 6\)[^]*?\n\}/m.exec(
        generated,
      )?.[0];
    expect(node).toBeDefined();
    expect(node!.match(/valueEnd\(path, 6\)/g)).toHaveLength(1);
    expect(node).not.toContain("'/event/'");
  });

  it('tries the routes in registration order, each for its own verbs', () => {
    expect(find('GET', '/event/5')).toEqual(['show', '5']);
    expect(find('GET', '/event/5/comments')).toEqual(['comments', '5']);
    expect(find('POST', '/event/5/comment')).toEqual(['comment', '5']);
    // The POST route does not take a GET; the optional route after it does.
    expect(find('GET', '/event/5/comment')).toEqual(['tab', '5', 'comment']);
    expect(find('POST', '/event/5/comments')).toBeUndefined();
    expect(find('GET', '/event/5/other')).toEqual(['tab', '5', 'other']);
    expect(find('GET', '/event/5/comments/x')).toBeUndefined();
    expect(find('GET', '/event/')).toBeUndefined();
    expect(find('GET', '/event')).toBeUndefined();
    expect(find('GET', '/event/a-b')).toBeUndefined();
    expect([...table.allowed('/event/5/comment', '')].sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('checks a shared constrained parameter once, and a later route still gets its turn', () => {
    expect(find('GET', '/n/12/a')).toEqual(['a', '12']);
    expect(find('GET', '/n/12/b')).toEqual(['b', '12']);
    expect(find('GET', '/n/12/c')).toEqual(['word', '12', 'c']);
    expect(find('GET', '/n/x1/a')).toEqual(['word', 'x1', 'a']);
    expect(find('GET', '/n/%31/a')).toBeUndefined();
  });

  it('shares in turn what routes sharing a parameter go on with', () => {
    expect(find('GET', '/m/1/x/2')).toEqual(['mx', '1', '2']);
    expect(find('GET', '/m/1/x/2/y')).toEqual(['mxy', '1', '2']);
    expect(find('PUT', '/m/1/x/2')).toEqual(['put', '1', '2']);
    expect(find('PUT', '/m/1/x/2/y')).toBeUndefined();
    expect(find('GET', '/m/1/z/2')).toEqual(['mz', '1', '2']);
    expect(find('GET', '/m/1/y/2')).toBeUndefined();
    expect(find('GET', '/m/1/x')).toBeUndefined();
  });

  it('compares a literal longer than 12 characters piece by piece, to its last character', () => {
    expect(find('GET', '/a-segment-of-many-letters/5')).toEqual(['long', '5']);
    expect(find('GET', '/a-segment-oX-many-letters/5')).toBeUndefined();
    expect(find('GET', '/a-segment-of-many-letterX/5')).toBeUndefined();
    expect(find('GET', '/v/1/lookup/username/detail')).toEqual(['detail', '1']);
    expect(find('GET', '/v/1/lookup/usernamX/detail')).toBeUndefined();
    expect(find('GET', '/v/1/lookup/username/detaiX')).toBeUndefined();
    expect(find('GET', '/v/1/lookup/username/detai')).toBeUndefined();
  });
});
