import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import { expectAlive, rawExchange, serveInChild, type ChildServer } from '../_child.js';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';

// `bodyMemoryLimit` bounds the bodies being received by all requests together: uploads that
// stall, each within its own limit, cannot take the process's memory. Over raw sockets to
// node:http (a child process), and Fetch requests with stalled streams in this process.

const ROUTES = `import { Course, input } from 'course-router';
Course.get('/', () => 'home');
Course.post('/echo', () => ({ a: input('a') ?? null }));
`;
const LIMIT = 100_000;

let dir: string;
let child: ChildServer;
let app: CourseApp;
beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  child = await serveInChild(dir, `{ bodyMemoryLimit: ${LIMIT}, onError: () => {} }`);
  app = Course.start(await importTable(dir), { bodyMemoryLimit: LIMIT, onError: () => {} });
});
afterAll(async () => {
  await child?.stop();
  removeApp(dir);
});

const head = (length: number | 'chunked') =>
  `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  (length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`) +
  '\r\nConnection: close\r\n\r\n';
const small = `{"a":"ok"}`;

/**
 * `send()`'s answer once it is `status`, asked again for up to 10 s: the child server reads a
 * stalled body's first bytes, or a closed connection's end, when its machine lets it.
 */
async function answered<T extends { status: number }>(
  status: number,
  send: () => Promise<T>,
): Promise<T> {
  for (const start = Date.now(); ;) {
    const answer = await send();
    if (answer.status === status || Date.now() - start > 10_000) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A connection that sent `head` and `bytes` of its body, and waits. */
async function stalled(text: string): Promise<Socket> {
  const socket = connect(child.port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(text);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return socket;
}

describe('node:http: bodies being received, all together', () => {
  it('a declared body past what the stalled ones hold is a 503; a small one is served', async () => {
    const first = await stalled(head(80_000) + 'x'.repeat(60_000));
    try {
      const refused = await answered(503, () =>
        rawExchange(child.port, [head(50_000) + 'x'.repeat(50_000)]),
      );
      expect(refused.status).toBe(503);
      expect(refused.text).toMatch(/\r\nretry-after: 5\r\n/i);
      expect(refused.text).toMatch(/\r\nconnection: close\r\n/i);
      const served = await rawExchange(child.port, [head(small.length) + small]);
      expect(served.status).toBe(200);
    } finally {
      first.destroy();
    }
    // The stalled body's share is given back when its client goes.
    const body = JSON.stringify({ a: 'y'.repeat(49_000) });
    const after = await answered(200, () => rawExchange(child.port, [head(body.length) + body]));
    expect(after.status).toBe(200);
    await expectAlive(child);
  });

  it('connections that declare large bodies and send a few bytes hold only those', async () => {
    // 270,000 bytes declared of a budget of 100,000; 300 sent.
    const idle = await Promise.all([1, 2, 3].map(() => stalled(head(90_000) + 'x'.repeat(100))));
    try {
      const body = JSON.stringify({ a: 'y'.repeat(49_000) });
      const served = await rawExchange(child.port, [head(body.length) + body]);
      expect(served.status).toBe(200);
    } finally {
      for (const socket of idle) socket.destroy();
    }
  });

  it('a chunked body is counted as it arrives', async () => {
    const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
    const first = await stalled(head('chunked') + chunk('x'.repeat(70_000)));
    try {
      const refused = await answered(503, () =>
        rawExchange(child.port, [head('chunked') + chunk('x'.repeat(40_000)) + '0\r\n\r\n']),
      );
      expect(refused.status).toBe(503);
    } finally {
      first.destroy();
    }
    const served = await answered(200, () =>
      rawExchange(child.port, [head('chunked') + chunk(small) + '0\r\n\r\n']),
    );
    expect(served.status).toBe(200);
  });
});

describe('Fetch: bodies being received, all together', () => {
  /** A POST whose body stream gives `bytes` bytes, then ends when `end` is called, or never. */
  function streamed(bytes: number): { request: Request; end: () => void } {
    let close = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('x'.repeat(bytes)));
        close = () => controller.close();
      },
    });
    const request = new Request('http://localhost/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    return { request, end: () => close() };
  }

  it('a large body declared is held as it comes: streams that declare much and stall hold little', async () => {
    const stalling = [1, 2, 3].map(() => {
      const { request } = streamed(100);
      const headers = new Headers(request.headers);
      headers.set('content-length', '90000');
      return app.fetch(new Request(request, { headers }));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const body = JSON.stringify({ a: 'y'.repeat(49_000) });
    const served = await app.fetch(
      new Request('http://localhost/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(served.status).toBe(200);
    expect(stalling).toHaveLength(3);
  });

  it('a body past what a stalled one holds is a 503; once it is read, room comes back', async () => {
    const first = streamed(70_000);
    const pending = app.fetch(first.request);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = streamed(40_000);
    second.end();
    const refused = await app.fetch(second.request);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    first.end();
    // Not JSON: a 400, and its 70,000 bytes are given back.
    expect((await pending).status).toBe(400);
    const third = streamed(40_000);
    third.end();
    expect((await app.fetch(third.request)).status).toBe(400);
  });
});
