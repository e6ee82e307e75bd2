import { describe, expect, it } from 'vitest';
import { childApp } from '../_child.js';
import { send } from '../_utils.js';

// A JSON body's containers lose their prototypes in place (what that costs a request, against
// `JSON.parse` of the same bytes: `npx tsx bench/json-body.ts`), through both adapters.
const FILES = {
  'routes.ts': `
import { Course, input } from 'course-router';

Course.get('/', () => 'home');
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
});
