import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Course, type RouteTable } from 'course-router';
import type { RequestLogEntry } from 'course-router';
import { rawExchange } from '../_child.js';
import { buildApp, importTable, removeApp, serve, writeApp, type Served } from '../_utils.js';

const ROUTES = `
import { Course, response } from 'course-router';
Course.get('/users/{id}', (id: string) => 'user ' + id).name('users.show');
Course.get('/stream', () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('abc')); c.close(); } })));
Course.get('/fail', () => { throw new Error('boom'); });
Course.get('/empty', () => response().httpCode(204));
Course.get('/broken', () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('part')); setTimeout(() => c.error(new RangeError('disk gone\\nforged')), 20); } }), { headers: { 'content-type': 'text/plain' } }));
Course.get('/endless', () => new Response(new ReadableStream({ pull(c) { return new Promise((r) => setTimeout(() => { try { c.enqueue(new TextEncoder().encode('tick\\n')); } catch { /* cancelled: the client left */ } r(); }, 10)); } })));
`;

let dir: string;
let table: RouteTable;
let served: Served;
const entries: { level: string; entry: RequestLogEntry; message?: string }[] = [];
const logger = {
  info: (entry: RequestLogEntry, message?: string) =>
    entries.push({ level: 'info', entry, message }),
  error: (entry: RequestLogEntry, message?: string) =>
    entries.push({ level: 'error', entry, message }),
};

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  table = await importTable(dir);
  served = await serve(table, { requestLog: logger });
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

const port = () => Number(new URL(served.base).port);
const raw = (target: string, headers = '') =>
  rawExchange(port(), [
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`,
  ]);

/** The entry logged for a request, once its response has ended. */
async function lastEntry(count: number) {
  await vi.waitFor(() => expect(entries.length).toBeGreaterThanOrEqual(count));
  return entries[entries.length - 1]!;
}

describe('requestLog with a logger (pino, or any { info, error })', () => {
  it('logs method, path, route, status, duration, bytes and the client’s request id (node:http)', async () => {
    entries.length = 0;
    await raw('/users/7?secret=1', 'X-Request-Id: req-42\r\n');
    const { level, entry, message } = await lastEntry(1);
    expect(level).toBe('info');
    expect(message).toBe('request');
    expect(entry).toMatchObject({
      id: 'req-42',
      method: 'GET',
      path: '/users/7',
      route: 'users.show',
      status: 200,
      bytes: 6,
    });
    expect(entry.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(entry.time)).not.toBeNaN();
  });

  it('the same through Fetch; a 5xx is an error; no route is null; a stream has no byte count', async () => {
    entries.length = 0;
    await served.app.request('/fail');
    expect((await lastEntry(1)).level).toBe('error');
    expect(entries[0]!.entry).toMatchObject({ route: '/fail', status: 500 });
    await served.app.request('/nowhere');
    expect((await lastEntry(2)).entry).toMatchObject({ route: null, status: 404 });
    await (await served.app.request('/stream')).text();
    expect((await lastEntry(3)).entry).toMatchObject({ status: 200, bytes: null });
    // The runtime's server writes `Content-Length`; the log says the body's length all the same.
    await served.app.request('/users/7');
    expect((await lastEntry(4)).entry).toMatchObject({ route: 'users.show', bytes: 6 });
    // A 204 has no body: 0 bytes, on both adapters.
    await served.app.request('/empty');
    expect((await lastEntry(5)).entry).toMatchObject({ status: 204, bytes: 0 });
    await raw('/empty');
    expect((await lastEntry(6)).entry).toMatchObject({ status: 204, bytes: 0 });
  });

  it('an id that is not plain (C1 controls, spaces, long) is replaced', async () => {
    entries.length = 0;
    await raw('/users/1', `X-Request-Id: a\x85b <script>\r\n`);
    const { entry } = await lastEntry(1);
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    await raw('/users/1', `X-Request-Id: ${'x'.repeat(500)}\r\n`);
    expect((await lastEntry(2)).entry.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('control characters in what the log writes are escaped', async () => {
    entries.length = 0;
    // Fetch runtimes may hand any method token; a path keeps its encoding.
    await served.app.request('/users/%0a%1b?x');
    const { entry } = await lastEntry(1);
    expect(entry.path).toBe('/users/%0a%1b');
    // eslint-disable-next-line no-control-regex
    expect(JSON.stringify(entry)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('a response that ends early (node:http)', () => {
  /** Sends a GET, waits for the first body bytes, then leaves if `leave`; resolves on close. */
  const exchange = (target: string, leave: boolean) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port(), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (leave && text.includes('\r\n\r\n')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });

  it('a body stream that fails mid-response goes to `error`, with the error', async () => {
    entries.length = 0;
    const text = await exchange('/broken', false);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    // The connection is cut: the chunked body never gets its last chunk.
    expect(text).not.toMatch(/\r\n0\r\n\r\n$/);
    const { level, entry, message } = await lastEntry(1);
    expect([level, message]).toEqual(['error', 'request']);
    expect(entry).toMatchObject({
      route: '/broken',
      status: 200,
      error: 'RangeError: disk gone\\nforged',
    });
    expect(entry.aborted).toBeUndefined();
  });

  it('a client that leaves is `aborted` through `info`, with no error', async () => {
    entries.length = 0;
    await exchange('/endless', true);
    const { level, entry } = await lastEntry(1);
    expect(level).toBe('info');
    expect(entry).toMatchObject({ route: '/endless', status: 200, aborted: true });
    expect(entry.error).toBeUndefined();
  });
});

describe('requestLog: true writes JSON lines to stdout', () => {
  it('one line per request, parseable, nothing when off', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await Course.start(table, { requestLog: true }).request('/users/3');
      await Course.start(table).request('/users/4');
      await Course.start(table, { requestLog: false }).request('/users/5');
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('}\n')).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: '/users/3', route: 'users.show' });
    expect(() => Course.start(table, { requestLog: { info() {} } as never })).toThrow(
      /"requestLog" must be true, false or a logger/,
    );
  });
});
