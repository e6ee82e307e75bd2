import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import { rawExchange, serveInChild, type ChildServer } from '../_child.js';
import { buildApp, importTable, removeApp, send, writeApp, type Served } from '../_utils.js';

// What a JSON body costs the event loop: about what `JSON.parse` of its bytes costs, not a
// multiple of it, through both adapters (node:http in a child process over raw sockets, Fetch in
// this process). Its containers still have no prototype.
const FILES = {
  'routes.ts': `
import { Course, input } from 'course-router';

Course.get('/', () => 'home');
Course.post('/sink', () => 'ok');
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

const MiB = 1024 * 1024;
/** 1 MiB of `[{},{},…]`: the most objects `bodyLimit` lets in. */
const EMPTY_OBJECTS = '[' + '{},'.repeat((MiB - 200) / 3 - 10) + '{}]';
/** 1 MiB that costs `JSON.parse` next to nothing. */
const ONE_STRING = `["${'x'.repeat(MiB - 200)}"]`;

let dir: string;
let child: ChildServer;
let app: CourseApp;
let both: Served;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  child = await serveInChild(dir, '{ onError: () => {} }');
  app = Course.start(await importTable(dir), { onError: () => {} });
  both = { app, base: `http://127.0.0.1:${child.port}`, close: async () => {} };
});

afterAll(async () => {
  await child?.stop();
  if (dir) removeApp(dir);
});

/** The shortest of `runs` timings of `work`, in ms. */
async function fastest(runs: number, work: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const post = (body: string) =>
  `POST /sink HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

describe('a JSON body costs about its JSON.parse', () => {
  it('Fetch: 1 MiB of [{},…] costs within twice what JSON.parse takes of it', async () => {
    const parse = await fastest(5, () => JSON.parse(EMPTY_OBJECTS));
    const exchange = async (body: string) => {
      const response = await app.fetch(
        new Request('http://localhost/sink', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      );
      expect(await response.text()).toBe('ok');
    };
    // The same number of bytes streamed and answered, but nearly nothing to parse.
    const carried = await fastest(5, () => exchange(ONE_STRING));
    const served = await fastest(5, () => exchange(EMPTY_OBJECTS));
    expect(served - carried, `JSON.parse: ${parse.toFixed(1)} ms`).toBeLessThan(2 * parse);
  });

  it('node:http: 1 MiB of [{},…] costs within twice what JSON.parse takes of it', async () => {
    const parse = await fastest(5, () => JSON.parse(EMPTY_OBJECTS));
    const exchange = async (body: string) => {
      const answer = await rawExchange(child.port, [post(body)]);
      expect(answer.status).toBe(200);
    };
    // The same number of bytes read and answered, but nearly nothing to parse.
    const carried = await fastest(5, () => exchange(ONE_STRING));
    const served = await fastest(5, () => exchange(EMPTY_OBJECTS));
    expect(served - carried, `JSON.parse: ${parse.toFixed(1)} ms`).toBeLessThan(2 * parse);
  });

  it('every object of the body has no prototype, nested in arrays too', async () => {
    const body = JSON.stringify([{ __proto__: { polluted: 1 }, a: 1 }, { a: [{ b: {} }] }]).replace(
      '"a":1',
      '"__proto__":{"polluted":1},"a":1',
    );
    const answer = await send(both, 'POST', '/shape', {
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
