import { describe, expect, it } from 'vitest';
import { childApp } from '../_child.js';
import { send } from '../_utils.js';

// What becomes of a field named `__proto__` or `constructor`, source by source, through both
// adapters (SECURITY.md, "No prototype is reachable"): the query, urlencoded forms and multipart
// fields drop `__proto__` with what is nested under it (qs's rule); a JSON body and multipart
// files keep it as a plain key. No prototype is reached either way.
const served = childApp({
  'routes.ts': `
import { Course, input } from 'course-router';

const shape = (bag: Record<string, unknown>) => ({
  keys: Object.keys(bag),
  prototype: Object.getPrototypeOf(bag) === null,
  constructor: typeof bag.constructor === 'function' ? 'function' : bag.constructor ?? null,
});
Course.get('/', () => 'home');
Course.get('/query', () => shape(input().get));
Course.get('/bodiless', () => ({ post: shape(input().post), file: shape(input().file) }));
Course.post('/post', () => ({
  ...shape(input().post),
  files: Object.keys(input().file),
  polluted: ({} as Record<string, unknown>).polluted ?? null,
}));
`,
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const MULTIPART = { 'content-type': 'multipart/form-data; boundary=B' };
const part = (name: string, file = false) =>
  `--B\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="f.txt"' : ''}\r\n\r\nv\r\n`;

async function body(method: string, target: string, init = {}): Promise<unknown> {
  const answer = await send(served.both, method, target, init);
  expect(answer.status, target).toBe(200);
  return JSON.parse(answer.body);
}

describe('a field named __proto__', () => {
  it('is dropped from the query, flat or nested; constructor is a plain key', async () => {
    for (const query of [
      '__proto__=v&constructor=c&k=1',
      '__proto__[polluted]=v&constructor=c&k=1',
      '__proto__=v&__proto__=w&constructor=c&k=1',
    ]) {
      expect(await body('GET', `/query?${query}`), query).toEqual({
        keys: ['constructor', 'k'],
        prototype: true,
        constructor: 'c',
      });
    }
  });

  it('finds no prototype in the empty body containers of a request without a body', async () => {
    const empty = { keys: [], prototype: true, constructor: null };
    expect(await body('GET', '/bodiless')).toEqual({ post: empty, file: empty });
  });

  it('is dropped from a urlencoded form and from multipart fields', async () => {
    const form = { headers: FORM, body: '__proto__[polluted]=v&__proto__=w&constructor=c&k=1' };
    const multipart = {
      headers: MULTIPART,
      body:
        part('__proto__') +
        part('__proto__[polluted]') +
        part('constructor') +
        part('k') +
        '--B--\r\n',
    };
    for (const init of [form, multipart]) {
      expect(await body('POST', '/post', init)).toEqual({
        keys: ['constructor', 'k'],
        prototype: true,
        constructor: init === form ? 'c' : 'v',
        files: [],
        polluted: null,
      });
    }
  });

  it('is a plain key of a JSON body and of multipart files', async () => {
    const json = {
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"polluted":"v"},"constructor":"c","k":1}',
    };
    expect(await body('POST', '/post', json)).toEqual({
      keys: ['__proto__', 'constructor', 'k'],
      prototype: true,
      constructor: 'c',
      files: [],
      polluted: null,
    });
    const files = { headers: MULTIPART, body: part('__proto__', true) + part('k') + '--B--\r\n' };
    expect(await body('POST', '/post', files)).toEqual({
      keys: ['k'],
      prototype: true,
      constructor: null,
      files: ['__proto__'],
      polluted: null,
    });
  });
});
