import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { rawHttp } from '../_raw-http.js';
import { servedApp } from '../_utils.js';

// Static files as the threat model's "Static file escape" row attacks them: encoded dot
// segments, backslashes, NUL, overlong UTF-8, dotfiles, symlinks out, a thousand ranges — over
// raw sockets to node:http, and through Fetch.
const SECRET = 'TOP-SECRET-CONTENT';
const base = mkdtempSync(path.join(os.tmpdir(), 'course-static-'));
const root = path.join(base, 'public');
// Past the size read whole (256 KiB): streamed.
const BIG = new Uint8Array(1024 * 1024).map((_, i) => i % 251);
const SCRIPT = 'console.log("hello from app.js");'.repeat(20);
for (const dir of ['sub', '.git', 'empty']) mkdirSync(path.join(root, dir), { recursive: true });
writeFileSync(path.join(base, 'secret.txt'), SECRET);
writeFileSync(path.join(root, 'hello.txt'), 'hello world');
// Changed at .123956 of a second: its ETag cuts the millisecond, as Bun and Deno read it.
utimesSync(path.join(root, 'hello.txt'), 1795860000, 1795860000.123956);
writeFileSync(path.join(root, 'style.css'), 'body{}');
writeFileSync(path.join(root, 'empty.txt'), '');
writeFileSync(path.join(root, 'big.bin'), BIG);
writeFileSync(path.join(root, '.env'), SECRET);
writeFileSync(path.join(root, '.git/config'), SECRET);
writeFileSync(path.join(root, 'sub/index.html'), '<h1>sub</h1>');
writeFileSync(path.join(root, 'app.js'), SCRIPT);
writeFileSync(path.join(root, 'app.js.br'), brotliCompressSync(SCRIPT));
writeFileSync(path.join(root, 'app.js.gz'), gzipSync(SCRIPT));
symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'link-out.txt'));
symlinkSync(base, path.join(root, 'dir-out'));
symlinkSync(path.join(root, 'hello.txt'), path.join(root, 'link-in.txt'));
// Links inside the folder to its dotfile and into its dot folder.
symlinkSync(path.join(root, '.env'), path.join(root, 'visible.txt'));
symlinkSync(path.join(root, '.git'), path.join(root, 'visible-dir'));
// A named pipe nobody writes to: opening it for reading would wait for ever.
execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const state = servedApp({
  'routes.ts': `
import { Course, url } from 'course-router';
Course.get('/assets/{path?}', () => 'never').where('path', '.*').addMiddleware('Middleware\\\\Assets').name('assets');
Course.get('/link', () => url('assets', { path: 'sub/index.html' }));
Course.get('/app/{path?}', () => 'app shell').where('path', '.*').addMiddleware('Middleware\\\\Shell');
Course.get('/secret.txt', () => 'the route, not the file');
`,
  'app/Middleware/Assets.ts': `
import { ServeStatic } from 'course-router';
export class Assets extends ServeStatic {
  protected override root = ${JSON.stringify(root)};
  protected override maxAge = 3600;
  protected override immutable = true;
  protected override precompressed = true;
}`,
  'app/Middleware/Shell.ts': `
import { ServeStatic } from 'course-router';
export class Shell extends ServeStatic {
  protected override root = ${JSON.stringify(root)};
  protected override index = false;
  protected override fallthrough = true;
}`,
});

const raw = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawHttp(Number(new URL(state.served.base).port), method, target, headers);

/** The same request through Fetch. */
async function viaFetch(target: string, headers: Record<string, string> = {}) {
  const answer = await state.served.app.request(target, { headers });
  return {
    status: answer.status,
    headers: answer.headers,
    body: Buffer.from(await answer.arrayBuffer()),
  };
}

describe('serving', () => {
  it("a link url() builds to a file in a sub-folder reaches it: the path's slashes stay", async () => {
    const link = (await raw('/link')).body.toString();
    expect(link).toBe('/assets/sub/index.html');
    const answer = await raw(link);
    expect([answer.status, answer.body.toString()]).toEqual([200, '<h1>sub</h1>']);
  });

  it('a file, with its type, validators, caching and length; alike through Fetch', async () => {
    const answer = await raw('/assets/hello.txt');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('hello world');
    expect(answer.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '11',
      'cache-control': 'public, max-age=3600, immutable',
      'accept-ranges': 'bytes',
    });
    expect(answer.headers['etag']).toBe(`W/"b-${Math.floor(1795860000123.956).toString(16)}"`);
    expect(Date.parse(answer.headers['last-modified']!)).not.toBeNaN();
    const fetched = await viaFetch('/assets/hello.txt');
    expect(fetched.body.toString()).toBe('hello world');
    expect(fetched.headers.get('etag')).toBe(answer.headers['etag']);
    expect((await raw('/assets/style.css')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('304 for If-None-Match or If-Modified-Since; a HEAD has no body', async () => {
    const first = await raw('/assets/hello.txt');
    const etag = first.headers['etag']!;
    const again = await raw('/assets/hello.txt', { 'if-none-match': `"x", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    const since = await raw('/assets/hello.txt', {
      'if-modified-since': first.headers['last-modified']!,
    });
    expect(since.status).toBe(304);
    const other = await raw('/assets/hello.txt', { 'if-none-match': '"other"' });
    expect(other.status).toBe(200);
    expect((await viaFetch('/assets/hello.txt', { 'if-none-match': etag })).status).toBe(304);
    const head = await raw('/assets/hello.txt', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('11');
    expect(head.body.length).toBe(0);
  });

  it('a large file streams whole with its length, and a range of it; a HEAD has its length', async () => {
    const whole = await raw('/assets/big.bin');
    expect(whole.status).toBe(200);
    // Streamed, yet a client knows the download's size as it starts.
    expect(whole.headers['content-length']).toBe(String(BIG.length));
    expect(whole.headers['transfer-encoding']).toBeUndefined();
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.compare(whole.body, Buffer.from(BIG))).toBe(0);
    const part = await raw('/assets/big.bin', { range: 'bytes=100000-299999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100000-299999/${BIG.length}`);
    expect(part.headers['content-length']).toBe('200000');
    expect(Buffer.compare(part.body, Buffer.from(BIG.subarray(100000, 300000)))).toBe(0);
    const head = await raw('/assets/big.bin', {}, 'HEAD');
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([
      200,
      String(BIG.length),
      0,
    ]);
    const fetched = await viaFetch('/assets/big.bin');
    expect(fetched.headers.get('content-length')).toBe(String(BIG.length));
    expect(Buffer.compare(fetched.body, Buffer.from(BIG))).toBe(0);
  });

  it('Range: one range 206, suffix, 416 past the end; many, malformed or stale If-Range: the file', async () => {
    const one = await raw('/assets/hello.txt', { range: 'bytes=0-4' });
    expect([one.status, one.body.toString(), one.headers['content-range']]).toEqual([
      206,
      'hello',
      'bytes 0-4/11',
    ]);
    expect((await raw('/assets/hello.txt', { range: 'bytes=-5' })).body.toString()).toBe('world');
    expect((await raw('/assets/hello.txt', { range: 'bytes=6-999' })).body.toString()).toBe(
      'world',
    );
    const past = await raw('/assets/hello.txt', { range: 'bytes=11-' });
    expect([past.status, past.headers['content-range'], past.body.length]).toEqual([
      416,
      'bytes */11',
      0,
    ]);
    expect((await viaFetch('/assets/hello.txt', { range: 'bytes=50-60' })).status).toBe(416);
    const many = Array.from({ length: 1000 }, (_, i) => `${i}-${i}`).join(',');
    // The unit is case-insensitive (RFC 9110 §14.1).
    const upper = await raw('/assets/hello.txt', { range: 'BYTES=0-4' });
    expect([upper.status, upper.body.toString()]).toEqual([206, 'hello']);
    for (const range of [`bytes=${many}`, 'bytes=5-2', 'items=0-1', 'bytes=abc']) {
      const answer = await raw('/assets/hello.txt', { range });
      expect(answer.status, range.slice(0, 30)).toBe(200);
      expect(answer.body.toString()).toBe('hello world');
    }
    // Positions of any length: a last one past the end is the end, a first one is past it.
    const huge = '9'.repeat(30);
    const rest = await raw('/assets/hello.txt', { range: `bytes=6-${huge}` });
    expect([rest.status, rest.headers['content-range'], rest.body.toString()]).toEqual([
      206,
      'bytes 6-10/11',
      'world',
    ]);
    expect((await raw('/assets/hello.txt', { range: `bytes=${huge}-` })).status).toBe(416);
    // An empty file has no range to give, not even its last byte.
    for (const range of ['bytes=-1', 'bytes=0-', 'bytes=0-0']) {
      const empty = await raw('/assets/empty.txt', { range });
      expect([empty.status, empty.headers['content-range']], range).toEqual([416, 'bytes */0']);
    }
    const stale = await raw('/assets/hello.txt', { range: 'bytes=0-4', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    // If-Range compares strongly (RFC 9110 13.1.5): the weak ETag the file is sent with never
    // selects a range, its Last-Modified date does.
    const sent = await raw('/assets/hello.txt');
    const weak = await raw('/assets/hello.txt', {
      range: 'bytes=0-4',
      'if-range': sent.headers['etag']!,
    });
    expect([weak.status, weak.body.toString()]).toEqual([200, 'hello world']);
    const dated = await raw('/assets/hello.txt', {
      range: 'bytes=0-4',
      'if-range': sent.headers['last-modified']!,
    });
    expect([dated.status, dated.body.toString()]).toEqual([206, 'hello']);
  });

  it('a named pipe in the folder is no file: 404 at once, and the files still serve', async () => {
    // More than the four threads file and zlib calls share: had one opened the pipe, each would
    // hold a thread for ever, and every file after them would wait.
    const pipes = await Promise.all(Array.from({ length: 6 }, () => raw('/assets/pipe.txt')));
    expect(pipes.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await viaFetch('/assets/pipe.txt')).status).toBe(404);
    expect((await raw('/assets/hello.txt')).body.toString()).toBe('hello world');
  });

  it("a folder's index.html at its path with a slash; precompressed siblings, with Vary", async () => {
    const page = await raw('/assets/sub/');
    expect(page.body.toString()).toBe('<h1>sub</h1>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await viaFetch('/assets/sub/')).body.toString()).toBe('<h1>sub</h1>');
    // Read as a browser reads it: `/assets/sub/.` is `/assets/sub/`.
    expect((await raw('/assets/sub/.')).body.toString()).toBe('<h1>sub</h1>');
    // Without it, the page's relative links would resolve in the folder above: sent to it.
    for (const [target, location] of [
      ['/assets/sub', 'http://localhost/assets/sub/'],
      ['/assets/sub?tab=1', 'http://localhost/assets/sub/?tab=1'],
      ['/assets/x/../sub', 'http://localhost/assets/sub/'],
      ['//assets//sub', 'http://localhost//assets//sub/'],
      ['http://localhost/assets/sub', 'http://localhost/assets/sub/'],
    ]) {
      // (`app.request('//x')` would read `x` as a host.)
      const fetched = target!.startsWith('//') ? [] : [await viaFetch(target!)];
      for (const answer of [await raw(target!), ...fetched]) {
        const status = answer.status;
        const header =
          answer.headers instanceof Headers
            ? answer.headers.get('location')
            : answer.headers['location'];
        expect({ target, status }).toEqual({ target, status: 301 });
        // As a browser resolves it: on the same host, in the folder.
        const page = target!.startsWith('/') ? `http://localhost${target}` : target!;
        expect(new URL(header!, page).href).toBe(location);
      }
    }
    // A file is no folder: with a slash after its name, it is not there.
    expect((await raw('/assets/hello.txt/')).status).toBe(404);
    expect((await viaFetch('/assets/hello.txt/')).status).toBe(404);
    expect((await raw('/assets/hello.txt')).status).toBe(200);
    const br = await raw('/assets/app.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Buffer.compare(br.body, brotliCompressSync(SCRIPT))).toBe(0);
    const gz = await raw('/assets/app.js', { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const weighed = await raw('/assets/app.js', { 'accept-encoding': 'gzip, br;q=0.5' });
    expect(weighed.headers['content-encoding']).toBe('gzip');
    const plain = await raw('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('a symlink inside the folder to a file inside it is served', async () => {
    expect((await raw('/assets/link-in.txt')).body.toString()).toBe('hello world');
  });

  it('fallthrough: a missing file lets the callback answer; no index when index is off', async () => {
    expect((await raw('/app/some/client/route')).body.toString()).toBe('app shell');
    expect((await raw('/app/hello.txt')).body.toString()).toBe('hello world');
    expect((await raw('/app/sub')).body.toString()).toBe('app shell');
    expect((await raw('/assets/missing.txt')).status).toBe(404);
  });
});

describe('escape attempts (raw sockets, then Fetch)', () => {
  const TARGETS = [
    '/assets/../secret.txt',
    '/assets/%2e%2e/secret.txt',
    '/assets/%2E%2E/secret.txt',
    '/assets/.%2e/secret.txt',
    '/assets/%252e%252e/secret.txt',
    '/assets/%252e%252e%252fsecret.txt',
    '/assets/..%2fsecret.txt',
    '/assets/..%2Fsecret.txt',
    '/assets/..%5csecret.txt',
    '/assets/..%5Csecret.txt',
    '/assets/..\\secret.txt',
    '/assets/%5c..%5csecret.txt',
    '/assets/sub/..%5c..%5csecret.txt',
    '/assets/sub/%2e%2e/%2e%2e/secret.txt',
    '/assets/%c0%ae%c0%ae/secret.txt',
    '/assets/%c0%ae%c0%ae%c0%afsecret.txt',
    '/assets/%e0%80%ae%e0%80%ae/secret.txt',
    '/assets/hello.txt%00.png',
    '/assets/%00',
    '/assets/.env',
    '/assets/%2eenv',
    '/assets/.git/config',
    '/assets/%2egit/config',
    '/assets/sub/../.env',
    '/assets/link-out.txt',
    '/assets/dir-out/secret.txt',
    '/assets/visible.txt',
    '/assets/visible-dir/config',
    '/assets//etc/passwd',
    '/assets/%2fetc%2fpasswd',
    '/assets/%5cetc%5cpasswd',
    `/assets/${encodeURIComponent(base)}/secret.txt`,
    '/assets/C:%5cWindows%5cwin.ini',
    '/assets/hello.txt/',
    '/assets/hello.txt/..',
    '/assets/empty',
  ];

  it('nothing outside the folder, and no dotfile, is ever sent: each is a 4xx', async () => {
    for (const target of TARGETS) {
      const answer = await raw(target);
      expect(answer.body.toString(), target).not.toContain(SECRET);
      // `/assets/../secret.txt` is `/secret.txt` for every router: its route answers.
      if (answer.status === 200) {
        expect(answer.body.toString(), target).toMatch(/^(the route, not the file|hello world)$/);
      } else {
        expect(answer.status, target).toBeGreaterThanOrEqual(400);
        expect(answer.status, target).toBeLessThan(500);
      }
      const fetched = await viaFetch(target);
      expect(fetched.body.toString(), `fetch ${target}`).not.toContain(SECRET);
      expect(fetched.status, `fetch ${target}`).toBeLessThan(500);
    }
  });

  it('a client that leaves in the middle of a large file: its file is closed, the server serves on', async () => {
    const port = Number(new URL(state.served.base).port);
    // The server runs in this process: its open files are this process's descriptors.
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) await leaveAfterFirstBytes(port, '/assets/big.bin');
    await vi.waitFor(() => expect(open()).toBeLessThanOrEqual(before + 2), { timeout: 5000 });
    expect((await raw('/assets/hello.txt')).body.toString()).toBe('hello world');
  });
});

/** Asks for `target` and closes the connection when the first bytes of the answer arrive. */
function leaveAfterFirstBytes(port: number, target: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    );
    socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}
