import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../_install.js';
import { freePort } from '../_redis.js';
import { removeApp } from '../_utils.js';
import { runtimeApp, runtimeBinary } from './_runtimes.js';

// `ServeStatic` on Bun's and Deno's servers (README's bun.ts and deno.ts): a file read whole, one
// streamed (a web byte stream reading the file's descriptor), a range of it, a 304; and clients
// that leave in the middle of the streamed file: the server serves on, its files closed. With
// compression on, clients that leave in the middle of a compressed file.
const SMALL = 'hello from a file\n'.repeat(10);
// Past the size read whole (256 KiB).
const BIG = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) % 251);
// Text that compresses to far more than a client reads before it leaves: base64 of random
// bytes (xorshift), 2.6 MB, as a big data file.
const TEXT = Buffer.from(randomBytes(2_000_000)).toString('base64');
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
  // Changed at .123956 of a second: Node rounds that millisecond up, Bun and Deno cut it.
  utimesSync(path.join(dir, 'public/big.bin'), 1795860000, 1795860000.123956);
  writeFileSync(path.join(dir, 'public/big.txt'), TEXT);
  // README's servers, with compression on.
  for (const file of ['bun.ts', 'deno.ts']) {
    const server = readFileSync(path.join(dir, file), 'utf8');
    const compressed = server.replace(
      'Course.start(routes)',
      'Course.start(routes, { compress: true })',
    );
    expect(compressed).not.toBe(server);
    writeFileSync(path.join(dir, `compressed-${file}`), compressed);
  }
}, 60_000);
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  if (dir) removeApp(dir);
});

// Each runtime's command, as README serves the app with it (from `file`).
const SERVERS: Record<'bun' | 'deno', (file?: string) => [string, string[]]> = {
  bun: (file = 'bun.ts') => [runtimeBinary('bun'), [file]],
  deno: (file = 'deno.ts') => [
    runtimeBinary('deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', file],
  ],
};

/** Serves the app on `name` from `file`, stopped after the tests; its base URL. */
async function serve(name: keyof typeof SERVERS, file?: string): Promise<string> {
  const port = await freePort();
  const [command, args] = SERVERS[name](file);
  const server = await startServer(command, args, {
    cwd: dir,
    env: { ...process.env, PORT: String(port) },
    port,
  });
  stops.push(() => server.stop());
  return `http://127.0.0.1:${port}`;
}

// The `Content-Length` of a streamed file each runtime's server sends.
const LENGTH_SENT: Record<keyof typeof SERVERS, string | null> = {
  bun: null,
  deno: String(BIG.length),
};

describe.each(Object.keys(SERVERS) as (keyof typeof SERVERS)[])('ServeStatic on %s', (name) => {
  let base: string;
  beforeAll(async () => {
    base = await serve(name);
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
    // The ETag node:http gives the same file: one file, one ETag, whatever serves it.
    const { mtimeMs } = statSync(path.join(dir, 'public/big.bin'));
    expect(big.headers.get('etag')).toBe(
      `W/"${BIG.length.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`,
    );
    expect(Math.floor(mtimeMs)).not.toBe(Math.round(mtimeMs));
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

// A client that leaves a compressed stream cancels it while the encoder still writes: Deno's
// server ended its process on the error that write threw (node's `Readable.toWeb`).
describe.each(Object.keys(SERVERS) as (keyof typeof SERVERS)[])('compression on %s', (name) => {
  it('serves on when clients leave in the middle of a compressed stream', async () => {
    const base = await serve(name, `compressed-${name}.ts`);
    const pid = await (await fetch(`${base}/pid`)).text();
    const port = Number(new URL(base).port);
    for (const encoding of ['br', 'gzip', 'br', 'gzip']) {
      const [head, read] = await leaveAfter(port, '/assets/big.txt', encoding, 4096);
      expect(head).toMatch(new RegExp(`^HTTP/1.1 200[^]*content-encoding: ${encoding}`, 'i'));
      expect(read).toBeLessThan(TEXT.length / 4);
    }
    // The same process answers, and a whole compressed answer still arrives whole.
    expect(await (await fetch(`${base}/pid`)).text()).toBe(pid);
    // A HEAD gets the GET's headers: compressed, so of no length, never a length of 0.
    const [head] = await leaveAfter(port, '/assets/big.txt', 'br', Infinity, 'HEAD');
    expect(head).toMatch(/^HTTP\/1.1 200[^]*content-encoding: br/i);
    expect(head).not.toMatch(/content-length/i);
    const whole = await fetch(`${base}/assets/big.txt`, { headers: { 'accept-encoding': 'br' } });
    expect(whole.headers.get('content-encoding')).toBe('br');
    expect(await whole.text()).toBe(TEXT);
  }, 60_000);
});

describe('ServeStatic on Deno without --allow-read', () => {
  it('says its folder may not be read, not that it is missing: every file is a 404', () => {
    writeFileSync(
      path.join(dir, 'no-read.ts'),
      `import { Course } from 'course-router';
import routes from './generated/routes.gen.ts';
const app = Course.start(routes, { secret: 'k' });
console.log((await app.request('/assets/small.txt')).status);
`,
    );
    const run = spawnSync(runtimeBinary('deno'), ['run', '--allow-env', 'no-read.ts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.stdout.trim(), run.stderr).toBe('404');
    expect(run.stderr).toContain(`course: ServeStatic may not read its root ${dir}/public`);
    expect(run.stderr).toContain('--allow-read');
    expect(run.stderr).not.toContain('does not exist');
  }, 30_000);
});

/**
 * Asks for `target` in `encoding` (with `method`) and closes the connection once `bytes` of the
 * answer arrived, the server closed it, or after 5 s; the answer's head and the bytes read.
 */
function leaveAfter(
  port: number,
  target: string,
  encoding: string,
  bytes: number,
  method = 'GET',
): Promise<[string, number]> {
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve([got.subarray(0, got.indexOf('\r\n\r\n')).toString('latin1'), got.length]);
    };
    const timer = setTimeout(done, 5000);
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= bytes) done();
    });
    socket.on('error', done);
    socket.on('close', done);
  });
}

/** `length` pseudo-random bytes, the same on each run. */
function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x;
  }
  return bytes;
}

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
