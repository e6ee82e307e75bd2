import { describe, expect, it } from 'vitest';
import { childApp } from '../_child.js';
import { send } from '../_utils.js';

// A JSON body's containers lose their prototypes in place (what that costs a request, against
// `JSON.parse` of the same bytes: `npx tsx bench/json-body.ts`), through both adapters.
const FILES = {
  'routes.ts': `
import { Course, input, request } from 'course-router';

Course.get('/', () => 'home');
// A short body is walked only when one of its objects leaves: by name, whole, or through
// \`loadInput()\`; a value by name that is no object leaves it as parsed.
Course.post('/by-name', () => {
  const name = input('name');
  const inner = Object.getPrototypeOf(input('inner')) === null;
  const other = (input().post as Record<string, any>)['other'];
  return {
    name,
    inner,
    other: Object.getPrototypeOf(other) === null,
    deep: Object.getPrototypeOf(other.deep) === null,
    own: input('__proto__') !== null && Object.getPrototypeOf(input('__proto__')) === null,
    polluted: ({} as Record<string, unknown>).polluted ?? null,
  };
});
Course.post('/loaded', async () => {
  const parsed = await request().loadInput();
  return {
    post: Object.getPrototypeOf(parsed.post) === null,
    nested: Object.getPrototypeOf((parsed.post as Record<string, any>)['a']) === null,
    written: JSON.parse(JSON.stringify(parsed)),
  };
});
Course.post('/shape', () => {
  const items = input().post as unknown as any[];
  return {
    item: Object.getPrototypeOf(items[0]) === null,
    inner: Object.getPrototypeOf(items[0].__proto__) === null,
    deep: Object.getPrototypeOf(items[1].a[0].b) === null,
    own: Object.keys(items[0]),
    array: Array.isArray(items[1].a),
    polluted: ({} as Record<string, unknown>).polluted ?? null,
  };
});
`,
};

const served = childApp(FILES);

describe('a JSON body', () => {
  it('every object of the body has no prototype, nested in arrays too', async () => {
    const body = JSON.stringify([{ __proto__: { polluted: 1 }, a: 1 }, { a: [{ b: {} }] }]).replace(
      '"a":1',
      '"__proto__":{"polluted":1},"a":1',
    );
    const answer = await send(served.both, 'POST', '/shape', {
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(JSON.parse(answer.body)).toEqual({
      item: true,
      inner: true,
      deep: true,
      own: ['__proto__', 'a'],
      array: true,
      polluted: null,
    });
  });

  it('a short body loses its prototypes before any of its objects leaves, whichever way', async () => {
    const json = { 'content-type': 'application/json' };
    const body = '{"name":"ann","inner":{"x":1},"other":{"deep":{}},"__proto__":{"polluted":1}}';
    const byName = await send(served.both, 'POST', '/by-name', { headers: json, body });
    expect(JSON.parse(byName.body)).toEqual({
      name: 'ann',
      inner: true,
      other: true,
      deep: true,
      own: true,
      polluted: null,
    });
    const loaded = await send(served.both, 'POST', '/loaded', {
      headers: json,
      body: '{"a":{"b":[1]}}',
    });
    expect(JSON.parse(loaded.body)).toEqual({
      post: true,
      nested: true,
      written: { post: { a: { b: [1] } }, files: {} },
    });
  });
});
