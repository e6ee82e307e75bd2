import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';

// A route's value is its answer (CONTRACT §5.2). One JSON would send as `{}` (a Map, a Set, an
// Error, an iterator, a stream) loses what it holds: a 500 naming it, rather than a 200 `{}`. The
// build refuses such a return type (handler-errors.test.ts); these are typed `any`, as a value
// from an untyped library is.

const ROUTES = `import { Course } from 'course-router';
const loose = (value: unknown): any => value;
Course.get('/map', () => loose(new Map([['a', 1]])));
Course.get('/set', () => loose(new Set([1])));
Course.get('/error', () => loose(new RangeError('out of range')));
Course.get('/iterator', () => loose([1, 2].values()));
Course.get('/generator', () => loose((function* () { yield 1; })()));
Course.get('/stream', () => loose(new ReadableStream()));
Course.get('/blob', () => loose(new Blob(['x'])));
class Money { constructor(readonly cents: number) {} toJSON() { return { eur: this.cents / 100 }; } }
class Point { constructor(readonly x: number, readonly y: number) {} }
class Tags extends Set<string> { toJSON() { return [...this]; } }
Course.get('/money', () => loose(new Money(250)));
Course.get('/point', () => loose(new Point(1, 2)));
Course.get('/tags', () => loose(new Tags(['a', 'b'])));
Course.get('/bare', () => loose(Object.assign(Object.create(null), { a: 1 })));
Course.get('/next', () => loose({ next: 'page 2' }));
`;

let dir: string;
let app: CourseApp;
const errors: unknown[] = [];

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  app = Course.start(await importTable(dir), { onError: (error) => errors.push(error) });
});
afterAll(() => removeApp(dir));

describe('a value with no response form', () => {
  it.each([
    ['/map', 'a Map'],
    ['/set', 'a Set'],
    ['/error', 'an Error (throw it)'],
    ['/iterator', 'an iterator'],
    ['/generator', 'an iterator'],
    ['/stream', 'a stream or Blob (return new Response(it))'],
    ['/blob', 'a stream or Blob (return new Response(it))'],
  ])('%s is a 500 naming %s, not a 200 {}', async (path, what) => {
    errors.length = 0;
    const answer = await app.request(path);
    expect([answer.status, await answer.text()]).toEqual([500, 'Internal Server Error']);
    expect(String(errors[0])).toBe(
      `TypeError: course: a route returned ${what}, which has no response form`,
    );
  });

  it.each([
    ['/money', '{"eur":2.5}'],
    ['/point', '{"x":1,"y":2}'],
    ['/tags', '["a","b"]'],
    ['/bare', '{"a":1}'],
    ['/next', '{"next":"page 2"}'],
  ])('%s: an object of its own, or one with toJSON, is JSON', async (path, json) => {
    const answer = await app.request(path);
    expect([answer.status, await answer.text()]).toEqual([200, json]);
  });
});
