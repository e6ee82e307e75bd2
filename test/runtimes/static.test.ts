import { readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../_install.js';
import { freePort } from '../_redis.js';
import { removeApp } from '../_utils.js';
import { runtimeApp, runtimeBinary } from './_runtimes.js';

// `ServeStatic` on Bun's and Deno's servers (README's bun.ts and deno.ts): a file read whole, one
// streamed (a web byte stream reading the file's descriptor), a range of it, a 304; and clients
// that leave in the middle of the streamed file: the server serves on, its files closed.
const SMALL = 'hello from a file\n'.repeat(10);
// Past the size read whole (256 KiB).
const BIG = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) % 251);
let dir: string;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const files: Record<string, string> = {
    'routes.ts': `
import { Course } from 'course-router';
Course.get('/assets/{path?}', () => null).where('path', '.*').addMiddleware('Middleware\\\\Assets');
Course.get('/pid', () => String(process.pid));
`,
    'app/Middleware/Assets.ts': `
import { ServeStatic } from 'course-router';
export class Assets extends ServeStatic {
  protected override root = new URL('../../public/', import.meta.url);
}`,
    'public/small.txt': SMALL,
  };
  dir = await runtimeApp(files, ['bun.ts', 'deno.ts', 'course.config.ts']);
  writeFileSync(path.join(dir, 'public/big.bin'), BIG);
}, 60_000);
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  if (dir) removeApp(dir);
});

// Each runtime's command, as README serves the app with it.
const SERVERS: Record<'bun' | 'deno', () => [string, string[]]> = {
  bun: () => [runtimeBinary('bun'), ['bun.ts']],
  deno: () => [
    runtimeBinary('deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', 'deno.ts'],
  ],
};

// The `Content-Length` of a streamed file each runtime's server sends.
const LENGTH_SENT: Record<keyof typeof SERVERS, string | null> = {
  bun: null,
  deno: String(BIG.length),
};

describe.each(Object.keys(SERVERS) as (keyof typeof SERVERS)[])('ServeStatic on %s', (name) => {
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    const [command, args] = SERVERS[name]();
    const server = await startServer(command, args, {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      port,
    });
    stops.push(() => server.stop());
    base = `http://127.0.0.1:${port}`;
  }, 60_000);

  it('serves a file read whole, a streamed one, a range of it, and a 304', async () => {
    const small = await fetch(`${base}/assets/small.txt`);
    expect([small.status, small.headers.get('content-type'), await small.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      SMALL,
    ]);
    const big = await fetch(`${base}/assets/big.bin`);
    expect(big.status).toBe(200);
    // Deno's server sends the streamed file's Content-Length; Bun's sends any stream chunked.
    expect(big.headers.get('content-length')).toBe(LENGTH_SENT[name]);
    expect(Buffer.compare(Buffer.from(await big.arrayBuffer()), BIG)).toBe(0);
    const head = await fetch(`${base}/assets/big.bin`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(BIG.length)]);
    const part = await fetch(`${base}/assets/big.bin`, {
      headers: { range: 'bytes=300000-300009' },
    });
    expect([part.status, part.headers.get('content-range')]).toEqual([
      206,
      `bytes 300000-300009/${BIG.length}`,
    ]);
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([
      ...BIG.subarray(300000, 300010),
    ]);
    const again = await fetch(`${base}/assets/big.bin`, {
      headers: { 'if-none-match': big.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('closes the files of clients that leave in the middle of a streamed file', async () => {
    // The server's descriptors, read from here: Deno reads /proc/self only with every permission.
    const pid = await (await fetch(`${base}/pid`)).text();
    const open = () => readdirSync(`/proc/${pid}/fd`).length;
    const before = open();
    for (let i = 0; i < 10; i++) await leaveAfterFirstBytes(new URL(base).port, '/assets/big.bin');
    await vi.waitFor(() => expect(open()).toBeLessThanOrEqual(before + 1), { timeout: 5000 });
    expect(await (await fetch(`${base}/assets/small.txt`)).text()).toBe(SMALL);
  });
});

/** Asks for `target` and closes the connection when the first bytes of the answer arrive. */
function leaveAfterFirstBytes(port: string, target: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    );
    socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}
