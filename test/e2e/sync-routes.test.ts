import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CourseApp } from 'course-router';
import { buildApp, importTable, removeApp, send, servedApp, writeApp } from '../_utils.js';

// A route whose middleware and callback the build proves synchronous is served without
// `AsyncLocalStorage` (`RouteEntry.sync`): its helpers find the request all the same, and
// whatever goes on after an `await` (an exception handler, a rewrite, a nested request, a promise
// the build did not foresee) still finds its own.

const TICK = 'await new Promise((r) => setTimeout(r, 1));';

interface Shared {
  app?: CourseApp;
  later: string[];
  lie?: () => string;
  waiters: ((message: string) => void)[];
}
const shared = globalThis as unknown as { syncTest: Shared };
shared.syncTest = { later: [], waiters: [] };

const served = servedApp({
  'routes.ts': `import { AsyncResource } from 'node:async_hooks';
import { Course, input, request, response, url } from 'course-router';
const shared = (globalThis as unknown as { syncTest: { app: { request(path: string): Promise<Response> }; later: string[]; lie: () => string; waiters: ((message: string) => void)[] } }).syncTest;
const attempt = (read: () => string): string => { try { return read(); } catch (error) { return (error as Error).message; } };
Course.group({ prefix: '/api', middleware: 'Middleware\\\\Key', exceptionHandler: 'Handlers\\\\Slow' }, () => {
  Course.post('/users/{id}', (id: string) => ({ id, name: input('name'), path: request().path, self: url('user', { id }) })).name('user');
  Course.get('/boom', (): string => { throw new Error('boom'); });
  Course.get('/moved', (): undefined => { request().setRewriteUrl('/api/after'); return undefined; });
  Course.get('/after', async () => { ${TICK} return 'after ' + request().path; });
});
Course.get('/outer', (): string => {
  void shared.app.request('/inner/sync').then((r) => r.text()).then((t) => shared.later.push(t));
  void shared.app.request('/inner/async').then((r) => r.text()).then((t) => shared.later.push(t));
  return 'outer ' + request().path;
});
Course.get('/inner/sync', () => 'inner ' + request().path);
Course.get('/inner/async', async () => { const first = request().path; ${TICK} return 'inner ' + first + ' ' + request().path; });
Course.get('/nested', async () => {
  const inner = await (await shared.app.request('/inner/sync')).text();
  return inner + ', then ' + request().path;
});
Course.get('/scheduled', (): string => {
  queueMicrotask(() => shared.later.push(attempt(() => request().path)));
  setTimeout(() => shared.later.push(attempt(() => request().path)), 5);
  return request().path;
});
Course.get('/lie', (): string => shared.lie());
Course.get('/scheduled-within', async () => {
  shared.later = [];
  await (await shared.app.request('/scheduled-later')).text();
  await new Promise((r) => setTimeout(r, 20));
  return shared.later.join(', ');
});
Course.get('/scheduled-later', (): string => {
  queueMicrotask(() => shared.later.push(attempt(() => request().path)));
  setTimeout(() => shared.later.push(attempt(() => { response().header('x-test', 'late'); return request().path; })), 5);
  return 'scheduled';
});
Course.get('/wait', async () => new Promise<string>((resolve) => {
  shared.waiters.push(AsyncResource.bind((message: string) => resolve(message + ' for ' + request().getHeader('x-user'))));
}));
Course.get('/publish', (): string => {
  for (const waiter of shared.waiters.splice(0)) waiter('news');
  return 'published by ' + request().getHeader('x-user');
});
`,
  'app/Middleware/Key.ts': `import { response, type CourseRequest, type CourseResponse } from 'course-router';
export class Key {
  handle(request: CourseRequest): CourseResponse | undefined {
    if (request.getHeader('x-key') === 'k' || request.method === 'GET') return undefined;
    return response().httpCode(401).write('no key for ' + request.getUri().getPath());
  }
}
`,
  'app/Handlers/Slow.ts': `import { request, type CourseRequest, type HandledError } from 'course-router';
export class Slow {
  async handleError(_request: CourseRequest, error: HandledError): Promise<string> {
    ${TICK}
    return 'handled ' + error.message + ' at ' + request().path;
  }
}
`,
});

beforeAll(() => {
  shared.syncTest.app = served.served.app;
});

const json = { 'content-type': 'application/json', 'x-key': 'k' };

describe('a route the build proves synchronous', () => {
  it('reads its body, middleware and helpers as any route', async () => {
    const created = await send(served.served, 'POST', '/api/users/7', {
      headers: json,
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body)).toEqual({
      id: '7',
      name: 'Ada',
      path: '/api/users/7',
      self: '/api/users/7',
    });
    const refused = await send(served.served, 'POST', '/api/users/7', {
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([refused.status, refused.body]).toEqual([401, 'no key for /api/users/7']);
  });

  it('gives its error to an exception handler that awaits, which still finds the request', async () => {
    expect(await send(served.served, 'GET', '/api/boom')).toMatchObject({
      status: 200,
      body: 'handled boom at /api/boom',
    });
  });

  it('rewrites to a route that awaits, which finds the request', async () => {
    expect((await send(served.served, 'GET', '/api/moved')).body).toBe('after /api/after');
  });

  it('lets the request go once answered: work it scheduled finds none', async () => {
    shared.syncTest.later = [];
    expect((await send(served.served, 'GET', '/scheduled')).body).toBe('/scheduled');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Two requests (`send` asks both adapters), a microtask and a timer each.
    expect(shared.syncTest.later).toEqual(
      Array(4).fill('course: request() is only available while a request is served'),
    );
  });

  it('keeps its own request around requests it starts, served inline or in the store', async () => {
    shared.syncTest.later = [];
    expect((await send(served.served, 'GET', '/outer')).body).toBe('outer /outer');
    await vi.waitFor(() => expect(shared.syncTest.later).toHaveLength(4));
    expect(shared.syncTest.later.sort()).toEqual([
      'inner /inner/async /inner/async',
      'inner /inner/async /inner/async',
      'inner /inner/sync',
      'inner /inner/sync',
    ]);
    expect((await send(served.served, 'GET', '/nested')).body).toBe(
      'inner /inner/sync, then /nested',
    );
  });

  it("regression: served within another request's store, leaves its tasks none of that request", async () => {
    const answer = await send(served.served, 'GET', '/scheduled-within');
    expect(answer.headers['x-test']).toBeUndefined();
    expect(answer.body).toBe(
      ['request', 'response']
        .map((helper) => `course: ${helper}() is only available while a request is served`)
        .join(', '),
    );
    expect(shared.syncTest.later).toHaveLength(2);
  });

  it('regression: a callback bound to another request finds that request when it calls it', async () => {
    const { app } = served.served;
    const waiting = app.request('/wait', { headers: { 'x-user': 'alice' } });
    await vi.waitFor(() => expect(shared.syncTest.waiters).toHaveLength(1));
    const published = await app.request('/publish', { headers: { 'x-user': 'mallory' } });
    expect(await published.text()).toBe('published by mallory');
    expect(await (await waiting).text()).toBe('news for alice');
  });

  it('answers a promise the build did not foresee, and says once to build again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      shared.syncTest.lie = () =>
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          try {
            return `late ${(await import('course-router')).request().path}`;
          } catch (error) {
            return (error as Error).message;
          }
        })() as unknown as string;
      for (let i = 0; i < 2; i++)
        expect(await send(served.served, 'GET', '/lie')).toMatchObject({
          status: 200,
          body: 'course: request() is only available while a request is served',
        });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /^course: GET \/lie \(routes\.ts:\d+:\d+\) returned a promise, but the build found its code synchronous: .*Run `course build` again\.$/,
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe('which routes the build proves synchronous', () => {
  let dir = '';
  beforeAll(() => {
    dir = writeApp({
      'routes.ts': `import { Course, request } from 'course-router';
import { Plain } from './app/Plain.js';
const opaque = (): unknown => 1;
Course.get('/string', () => 'a');
Course.get('/object', () => ({ a: 1 }));
Course.get('/record', (): Record<string, unknown> => ({}));
Course.get('/response', () => request().getUri().getPath());
Course.get('/async', async () => 'a');
Course.get('/promise', () => Promise.resolve('a'));
Course.get('/maybe', (): string | Promise<string> => 'a');
Course.get('/unknown', () => opaque());
Course.get('/any', (): any => 'a');
Course.get('/empty', (): {} => 'a');
Course.get('/object-type', (): object => ({}));
Course.get('/thenable', () => ({ then: 1 }));
Course.get('/fetch-response', () => new Response('a'));
Course.get('/fetch-json', (): Response => Response.json({ a: 1 }));
Course.get('/method', [Plain, 'show']);
Course.get('/async-method', [Plain, 'later']);
Course.group({ middleware: 'Middleware\\\\Sync' }, () => Course.get('/sync-mw', () => 'a'));
Course.group({ middleware: 'Middleware\\\\Late' }, () => Course.get('/async-mw', () => 'a'));
Course.group({ middleware: 'Middleware\\\\Gate' }, () => Course.get('/fetch-mw', () => 'a'));
`,
      'app/Plain.ts': `export class Plain { show(): number { return 1; } async later(): Promise<number> { return 1; } }`,
      'app/Middleware/Sync.ts': `export class Sync { handle(): void {} }`,
      'app/Middleware/Late.ts': `export class Late { async handle(): Promise<void> {} }`,
      'app/Middleware/Gate.ts': `export class Gate { handle(): Response | undefined { return undefined; } }`,
    });
  });
  afterAll(() => removeApp(dir));

  it('those whose middleware and callback return no promise, by their types', async () => {
    await buildApp(dir);
    const table = await importTable(dir);
    expect(Object.fromEntries(table.routes.map((r) => [r.url, r.sync]))).toEqual({
      '/string': true,
      '/object': true,
      '/record': true,
      '/response': true,
      '/async': false,
      '/promise': false,
      '/maybe': false,
      '/unknown': false,
      '/any': false,
      '/empty': false,
      '/object-type': false,
      '/thenable': false,
      '/fetch-response': true,
      '/fetch-json': true,
      '/method': true,
      '/async-method': false,
      '/sync-mw': true,
      '/async-mw': false,
      '/fetch-mw': true,
    });
  });

  it('none in an app with a CSRF verifier, which may await before any route runs', async () => {
    const guarded = writeApp({
      'routes.ts': `import { Course } from 'course-router';
Course.csrfVerifier('Middleware\\\\Verifier');
Course.get('/string', () => 'a');
`,
      'app/Middleware/Verifier.ts': `import { BaseCsrfVerifier } from 'course-router';\nexport class Verifier extends BaseCsrfVerifier {}\n`,
    });
    try {
      await buildApp(guarded);
      expect((await importTable(guarded)).routes.map((r) => r.sync)).toEqual([false]);
    } finally {
      removeApp(guarded);
    }
  });
});
