import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type RouteTable } from 'course-router';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';

// Requests that never finish arriving get their 408 within the time the app set: `listen()`'s
// server checks its connections each second (Node's default is every 30 s), and the Fetch
// adapter gives up on a body stream that stalls, cancelling it.
const FILES = {
  'routes.ts': `
import { Course, input } from 'course-router';
Course.get('/', () => 'home');
Course.post('/sink', () => ({ fields: Object.keys(input().post).length }));
`,
};

let dir: string;
let table: RouteTable;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  table = await importTable(dir);
});

afterAll(() => {
  if (dir) removeApp(dir);
});

/** The status node:http answers bytes that stop coming, and the ms it took; 0 for none in 10 s. */
function stalled(port: number, bytes: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const start = performance.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const done = (status: number) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ status, ms: performance.now() - start });
    };
    const timer = setTimeout(() => done(0), 10_000);
    socket.once('data', (chunk: Buffer) =>
      done(Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? -1)),
    );
    socket.on('error', () => done(0));
  });
}

describe('listen(): the request timeouts hold within about a second', () => {
  it('defaults: 15 s for a head, 60 s for a request', async () => {
    const server: Server = await Course.start(table).listen(0);
    try {
      expect([server.headersTimeout, server.requestTimeout]).toEqual([15_000, 60_000]);
    } finally {
      server.close();
    }
  });

  it('a head or a body that stops coming is a 408 at requestTimeout (2 s), not 30 s later', async () => {
    const server: Server = await Course.start(table, { requestTimeout: 2000 }).listen(0);
    const { port } = server.address() as AddressInfo;
    try {
      const [head, body] = await Promise.all([
        stalled(port, 'GET / HTTP/1.1\r\nHost: localhost\r\n'),
        stalled(
          port,
          'POST /sink HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100\r\n\r\n{"a":',
        ),
      ]);
      for (const answer of [head, body]) {
        expect(answer.status).toBe(408);
        expect(answer.ms).toBeGreaterThan(1900);
        expect(answer.ms).toBeLessThan(3600);
      }
    } finally {
      server.close();
    }
  });
});

describe('Fetch: a body that stalls', () => {
  /** A request whose body sends `{"a":` then nothing; `cancelled` once the adapter gives up. */
  function stalledRequest(type: string, signal?: AbortSignal) {
    let cancelled = false;
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return new Promise(() => {});
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"a":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://localhost/sink', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
      duplex: 'half',
      signal,
    } as RequestInit);
    return { request, cancelled: () => cancelled };
  }

  it('is a 408 at requestTimeout, its stream cancelled: JSON, multipart, urlencoded', async () => {
    const app = Course.start(table, { requestTimeout: 500, onError: () => {} });
    for (const type of [
      'application/json',
      'multipart/form-data; boundary=B',
      'application/x-www-form-urlencoded',
    ]) {
      const { request, cancelled } = stalledRequest(type);
      const start = performance.now();
      const response = await app.fetch(request);
      const ms = performance.now() - start;
      expect([response.status, response.headers.get('connection')], type).toEqual([408, 'close']);
      expect(ms, type).toBeGreaterThan(450);
      expect(ms, type).toBeLessThan(4000);
      expect(cancelled(), type).toBe(true);
    }
  });

  it('is a 408 at requestTimeout for a body with a declared length too', async () => {
    const app = Course.start(table, { requestTimeout: 500, onError: () => {} });
    const { request } = stalledRequest('application/json');
    const declared = new Request(request, {
      headers: { 'content-type': 'application/json', 'content-length': '20' },
    });
    const start = performance.now();
    const response = await app.fetch(declared);
    const ms = performance.now() - start;
    expect([response.status, response.headers.get('connection')]).toEqual([408, 'close']);
    expect(ms).toBeGreaterThan(450);
    expect(ms).toBeLessThan(4000);
  });

  it('ends when the request is aborted (the client went), its stream cancelled', async () => {
    const app = Course.start(table, { onError: () => {} });
    const controller = new AbortController();
    const { request, cancelled } = stalledRequest('application/json', controller.signal);
    const answer = app.fetch(request);
    setTimeout(() => controller.abort(), 100);
    const start = performance.now();
    expect((await answer).status).toBe(400);
    // Not the 60 s requestTimeout: the abort ended it (a loaded machine may take a while more).
    expect(performance.now() - start).toBeLessThan(4000);
    expect(cancelled()).toBe(true);
  });

  it('without requestTimeout, waits its 60 s default: still unanswered after 1 s', async () => {
    const app = Course.start(table, { onError: () => {} });
    const controller = new AbortController();
    const { request } = stalledRequest('application/json', controller.signal);
    const answer = app.fetch(request);
    const first = await Promise.race([
      answer,
      new Promise((r) => setTimeout(() => r('waiting'), 1000)),
    ]);
    expect(first).toBe('waiting');
    controller.abort();
    await answer;
  });
});
