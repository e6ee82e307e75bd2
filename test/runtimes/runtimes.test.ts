import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve as serveFetch } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course } from 'course-router';
import { rawExchange } from '../_child.js';
import { startServer, type Running } from '../_install.js';
import { freePort, startRedis } from '../_redis.js';
import { importTable, removeApp } from '../_utils.js';
import {
  call,
  exchange,
  fixtureFiles,
  runtimeApp,
  runtimeBinary,
  serveOnWorkerd,
  type Seen,
} from './_runtimes.js';

// One app (fixtures/runtimes) served by node:http, by the Fetch adapter on Node, and by README's
// files for Bun, Deno and Cloudflare Workers (bundled by wrangler, served by workerd); the same
// requests to each, the same answers required.

const FILES = ['bun.ts', 'deno.ts', 'worker.ts', 'wrangler.jsonc', 'course.config.ts'];
let dir: string;
const stops: (() => Promise<void> | void)[] = [];
const transcripts: Record<string, Promise<(Seen & { request: string })[]>> = {};

beforeAll(async () => {
  dir = await runtimeApp(fixtureFiles(), FILES);
}, 60_000);
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  if (dir) removeApp(dir);
});

const ports: Record<string, Promise<number>> = {};

/** Starts `start` once and sends it the requests; every test of a runtime shares the result. */
function transcript(name: string, start: () => Promise<number>) {
  return (transcripts[name] ??= started(name, start).then(exchange));
}

/** The port of the server `start` starts, once per file. */
function started(name: string, start: () => Promise<number>): Promise<number> {
  return (ports[name] ??= start());
}

async function onNodeHttp(): Promise<number> {
  const app = Course.start(await importTable(dir), { onError: () => {} });
  const server = await app.listen(0);
  stops.push(() => app.close(0));
  return (server.address() as AddressInfo).port;
}

async function onNodeFetch(): Promise<number> {
  const app = Course.start(await importTable(dir), { onError: () => {} });
  const port = await freePort();
  const server = serveFetch({
    port,
    hostname: '127.0.0.1',
    fetch: (request, env: { incoming: { socket: { remoteAddress?: string } } }) =>
      app.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress }),
  });
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return port;
}

async function spawned(command: string, args: string[], env = process.env): Promise<number> {
  const port = await freePort();
  const server: Running = await startServer(command, args, {
    cwd: dir,
    env: { ...env, PORT: String(port) },
    port,
  });
  stops.push(() => server.stop());
  return port;
}

function onBun(): Promise<number> {
  return spawned(runtimeBinary('bun'), ['bun.ts']);
}

function onDeno(): Promise<number> {
  return spawned(runtimeBinary('deno'), [
    'run',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    'deno.ts',
  ]);
}

async function onWorkerd(): Promise<number> {
  const { port, stop } = await serveOnWorkerd(dir);
  stops.push(stop);
  return port;
}

describe('one app, five servers, the same answers', () => {
  it('node:http answers as the app says', async () => {
    const seen = await transcript('node:http', onNodeHttp);
    const line = (a: Seen & { request: string }) =>
      `${a.request} → ${a.status} ${a.body}${Object.entries(a.headers)
        .filter(([name]) => name !== 'content-type')
        .map(([name, value]) => ` (${name}: ${value})`)
        .join('')}`;
    expect(seen.map(line)).toEqual([
      'GET / → 200 home',
      'GET /user/5?q=x → 200 {"id":"5","tab":null,"self":"/user/5","q":"x"}',
      'GET /user/5/posts → 200 {"id":"5","tab":"posts","self":"/user/5","q":null}',
      'GET /user/abc → 404 Not Found',
      'DELETE /user/5 → 405 Method Not Allowed (allow: GET, HEAD)',
      'GET /nothing → 404 Not Found',
      'POST /api/echo → 200 {"name":"ann","tags":["a","b"]} (x-api: v2)',
      'POST /api/echo → 403 denied (x-api: v2)',
      'POST /api/echo → 400 {"error":"Malformed JSON body","code":400}',
      'POST /api/echo → 200 {"name":"Zoë ☃ 😀 \ufffd","tags":null} (x-api: v2)',
      'GET /api/teapot → 418 {"error":"I\'m a teapot","code":418} (x-api: v2)',
      'GET /api/broken → 500 {"error":"Server Error","code":500} (x-api: v2)',
      'GET /who → 200 account acme',
      'POST /form → 200 {"name":"ann lee","list":["1","2"]}',
      'POST /upload → 200 {"field":"file","filename":"notes.txt","type":"text/plain","size":17,"text":"hello from a file"}',
      'POST /upload → 200 {"field":"file","filename":"naïve café.txt","type":"text/plain","size":17,"text":"hello from a file"}',
      'POST /upload → 400 Multipart field in an unknown charset',
      'GET /old → 301  (location: /user/7)',
      'GET /page → 200 <input name="csrf_token" value="<token>"> (set-cookie: CSRF-TOKEN)',
      'POST /page → 200 saved hello',
      'POST /page → 403 Invalid CSRF token',
      'GET /limited → 200 allowed',
      'GET /limited → 200 allowed',
      'GET /limited → 429 slow down',
      'GET /password → 200 true',
    ]);
  }, 60_000);

  it.each([
    ['the Fetch adapter on Node', 'node-fetch', onNodeFetch],
    ['Bun (Bun.serve)', 'bun', onBun],
    ['Deno (Deno.serve, no --sloppy-imports)', 'deno', onDeno],
    ['Cloudflare Workers (wrangler bundle, workerd)', 'workerd', onWorkerd],
  ] as const)(
    '%s answers as node:http does',
    async (_, name, start) => {
      const [seen, reference] = await Promise.all([
        transcript(name, start),
        transcript('node:http', onNodeHttp),
      ]);
      if (name !== 'workerd') return void expect(seen).toEqual(reference);
      // No worker threads on Workers: bcrypt is one error naming the runtime and what to do.
      expect(seen.slice(0, -1)).toEqual(reference.slice(0, -1));
      expect(seen.at(-1)).toMatchObject({
        status: 501,
        body: 'course: passHash()/passVerify() (bcrypt on a worker thread) is not available on Cloudflare Workers: hash passwords in a service on Node, Bun or Deno, or with Web Crypto (PBKDF2) in the Worker',
      });
    },
    60_000,
  );
});

// The servers raw sockets are sent to: each runtime's own HTTP parser.
const RAW_SERVERS = [
  ['node:http', 'node:http', onNodeHttp],
  ['Bun (Bun.serve)', 'bun', onBun],
  ['Deno (Deno.serve)', 'deno', onDeno],
] as const;

const LONG_PARTS =
  `--B\r\nContent-Disposition: form-data; name="${'a'.repeat(300_000)}"\r\n\r\nv\r\n`.repeat(30) +
  '--B--\r\n';
const HUGE_PART = `--B\r\nContent-Disposition: form-data; name="${'a'.repeat(9_000_000)}"\r\n\r\nv\r\n--B--\r\n`;

describe("hostile bytes over raw sockets, on each runtime's server", () => {
  const POST = `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
  const CASES: Record<string, { pieces: string[]; abortAfter?: number }> = {
    'Content-Length and Transfer-Encoding': {
      pieces: [`${POST}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    },
    'two Content-Lengths': {
      pieces: [`${POST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    },
    'the same Content-Length twice': {
      pieces: [`${POST}Content-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`],
    },
    'a broken chunk size': {
      pieces: [`${POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    },
    'a body cut short': {
      pieces: [`${POST}Content-Length: 100\r\n\r\n{"name":`, 'x'],
      abortAfter: 1,
    },
    'a 200 KB header': {
      pieces: [`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(200_000)}\r\n\r\n`],
    },
    'NUL in a header': {
      pieces: [`GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\nConnection: close\r\n\r\n`],
    },
    'a folded header': {
      pieces: [`GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n`],
    },
    'TLS bytes': { pieces: ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'] },
    'a control character in the target': {
      pieces: [`GET /here/a\x01b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    },
    'a method that is no token': {
      pieces: [`G@T / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    },
    'a malformed Host': {
      pieces: [`GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`],
    },
    'an empty Host': {
      pieces: [`GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n`],
    },
    'lines ended by a bare LF': {
      pieces: [`GET / HTTP/1.1\nHost: localhost\nConnection: close\n\n`],
    },
    'HTTP/1.2': { pieces: [`GET / HTTP/1.2\r\nHost: localhost\r\nConnection: close\r\n\r\n`] },
    'HTTP/2.0 in an HTTP/1 request line': {
      pieces: [`GET / HTTP/2.0\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    },
    'an HTTP/0.9 request line': { pieces: [`GET /\r\n\r\n`] },
    'a raw space in the target': {
      pieces: [`GET /here/a b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    },
    'no Host in HTTP/1.1': { pieces: [`GET / HTTP/1.1\r\nConnection: close\r\n\r\n`] },
    'userinfo in an absolute-form target': {
      pieces: [
        `GET http://u:p@localhost/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      ],
    },
    'an absolute-form target with no host': {
      pieces: [`GET http:///x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    },
    'JSON nested 100,000 deep': {
      pieces: [
        `${POST}Content-Length: 200000\r\nConnection: close\r\n\r\n${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      ],
    },
    'JSON cut short': {
      pieces: [`${POST}Content-Length: 5\r\nConnection: close\r\n\r\n{"a":`],
    },
    'a body declared over the limit': {
      pieces: [`${POST}Content-Length: 2000000\r\nConnection: close\r\n\r\n`],
    },
    // Read by one regex each, 30 of them take Bun's engine 15 s: the router reads no parameters
    // past 16 KiB (busboy refuses such a part's header).
    // Deno's and Node's regex engine ran out of stack over it: a 500.
    'a multipart part with a 9 MB quoted name': {
      pieces: [
        `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=B\r\n` +
          `Content-Length: ${HUGE_PART.length}\r\nConnection: close\r\n\r\n${HUGE_PART}`,
      ],
    },
    '30 multipart parts, each with a 300 KB quoted name': {
      pieces: [
        `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=B\r\n` +
          `Content-Length: ${LONG_PARTS.length}\r\nConnection: close\r\n\r\n${LONG_PARTS}`,
      ],
    },
  };
  // What each server answers (0: it closed the connection without an answer). Where they differ,
  // it is the runtime's own HTTP parser that answers, before the app sees a request.
  const EXPECTED: Record<string, number> = {
    'Content-Length and Transfer-Encoding': 400,
    'two Content-Lengths': 400,
    'the same Content-Length twice': 400,
    'a broken chunk size': 400,
    'a body cut short': 0,
    'a 200 KB header': 431,
    'NUL in a header': 400,
    'a folded header': 400,
    'TLS bytes': 400,
    'a control character in the target': 400,
    'a method that is no token': 400,
    'a malformed Host': 400,
    'an empty Host': 400,
    'lines ended by a bare LF': 400,
    'HTTP/1.2': 400,
    'HTTP/2.0 in an HTTP/1 request line': 400,
    'an HTTP/0.9 request line': 400,
    'a raw space in the target': 400,
    'no Host in HTTP/1.1': 400,
    'userinfo in an absolute-form target': 400,
    'an absolute-form target with no host': 400,
    'JSON nested 100,000 deep': 400,
    'JSON cut short': 400,
    'a body declared over the limit': 413,
    'a multipart part with a 9 MB quoted name': 400,
    '30 multipart parts, each with a 300 KB quoted name': 400,
  };
  const RUNTIME_PARSERS: Record<string, Record<string, number>> = {
    // Node's parser reads `HTTP/2.0` in a request line as an HTTP/1 request, and a request line
    // with no version as HTTP/0.9 (which needs no Host): the app answers them.
    'node:http': {
      'HTTP/2.0 in an HTTP/1 request line': 200,
      'an HTTP/0.9 request line': 200,
    },
    // Bun's parser answers lines ended by a bare LF, a raw control character or space in the
    // target and a version other than 1.0 and 1.1 with its own 505, before the app runs. Bun's
    // and Deno's take a Content-Length repeated with one value (RFC 9110 §8.6 lets a recipient),
    // which the app then reads as that length. Bun's server builds the URL from Host, whatever
    // an absolute-form target says (userinfo, no host): the app routes it by Host.
    bun: {
      'lines ended by a bare LF': 505,
      'a control character in the target': 505,
      'HTTP/1.2': 505,
      'HTTP/2.0 in an HTTP/1 request line': 505,
      'an HTTP/0.9 request line': 505,
      'a raw space in the target': 505,
      'the same Content-Length twice': 200,
      'userinfo in an absolute-form target': 200,
      'an absolute-form target with no host': 404,
    },
    // Deno's parser closes on a broken chunk, answers an oversized head with a 400, and reads a
    // bare LF as a line's end (RFC 9112 §2.2 lets a recipient): the app answers the request.
    // Deno's server serves an HTTP/1.1 request with no Host (RFC 9112 §3.2 wants a 400) with a
    // URL of its own, and reads `http:///x` as the URL parser does, host `x` (no route: 404).
    deno: {
      'a broken chunk size': 0,
      'a 200 KB header': 400,
      'lines ended by a bare LF': 200,
      'the same Content-Length twice': 200,
      'no Host in HTTP/1.1': 200,
      'an absolute-form target with no host': 404,
    },
  };

  it.each(RAW_SERVERS)(
    '%s answers each with a 4xx or a closed connection (or, where noted, as its parser does), and serves on',
    async (_, name, start) => {
      const port = await started(name, start);
      const seen: Record<string, number> = {};
      for (const [label, { pieces, abortAfter }] of Object.entries(CASES))
        seen[label] = (await rawExchange(port, pieces, { abortAfter, wait: 3000 })).status;
      expect(seen).toEqual({ ...EXPECTED, ...RUNTIME_PARSERS[name] });
      const home = await rawExchange(port, ['GET / HTTP/1.1\r\nHost: localhost\r\n\r\n']);
      expect(home.status).toBe(200);
    },
    60_000,
  );
});

describe("the current URL of a raw target, on each runtime's server", () => {
  // What `url()` gives back: as a browser sends the target (the URL parser's encoding), never
  // the bytes a client wrote raw (Deno's server passes them on), which a page would echo.
  const TARGETS: Record<string, string> = {
    '/here/x"><img`{}>?a="<>\'': '/here/x%22%3E%3Cimg%60%7B%7D%3E?a=%22%3C%3E%27',
    "/here/a'b|c^d?e^`f{g}": "/here/a'b|c%5Ed?e^`f{g}",
    '/here/caf\u00e9?q=\u00e9': '/here/caf%C3%A9?q=%C3%A9',
    // Bun's server resolves dot segments itself; the app resolves them for node:http and Deno.
    '/here/./x/..?a=1': '/here/?a=1',
  };
  // node:http refuses a target of non-ASCII bytes itself.
  const REFUSED: Record<string, string[]> = { 'node:http': ['/here/caf\u00e9?q=\u00e9'] };

  it.each(RAW_SERVERS)(
    '%s',
    async (_, name, start) => {
      const port = await started(name, start);
      for (const [target, expected] of Object.entries(TARGETS)) {
        const answer = await rawExchange(port, [
          Buffer.from(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
        ]);
        if (REFUSED[name]?.includes(target)) expect(answer.status, target).toBe(400);
        else
          expect([answer.status, answer.text.split('\r\n\r\n')[1]], target).toEqual([
            200,
            expected,
          ]);
      }
    },
    60_000,
  );
});

describe("what each runtime's server decides before the app sees a request", () => {
  // An absolute-form target names the host (RFC 9112 §3.2.2): node:http and Deno give the app
  // the target's authority; Bun's server builds the request URL from Host.
  const ROUTED_BY: Record<string, 'target' | 'Host'> = {
    'node:http': 'target',
    bun: 'Host',
    deno: 'target',
  };
  // A request pipelined after a body refused with a 413 (`Connection: close`): node:http closes
  // the connection unanswered; Bun's and Deno's servers, which read the body on (a Fetch handler
  // cannot close its connection), may serve it after the 413.
  const AFTER_413: Record<string, readonly number[]> = {
    'node:http': [1],
    bun: [1, 2],
    deno: [1, 2],
  };
  // Two requests in one write, the first answered after a timer: Bun's server closes the
  // connection with neither answer written (a bare `Bun.serve` does the same).
  const PIPELINED_AFTER_ASYNC: Record<string, number> = { 'node:http': 2, bun: 0, deno: 2 };
  // A raw byte that is not UTF-8 in the target: node:http and Deno give the router the byte,
  // which refuses it; Bun's server writes it as `%EF%BF%BD` (U+FFFD), which is valid.
  // A request whose body was read whole, then bytes no parser reads, in one write: node:http
  // answers the parse error with its own 400 at once and closes, and the request loses its
  // answer; Bun and Deno answer it first.
  const ANSWERED_BEFORE_JUNK: Record<string, string> = {
    'node:http': '400',
    bun: '200 400',
    deno: '200 400',
  };
  const RAW_NOT_UTF8: Record<string, string> = {
    'node:http': '400',
    bun: '200 /here/a%EF%BF%BD',
    deno: '400',
  };

  it.each(RAW_SERVERS)(
    '%s',
    async (_, name, start) => {
      const port = await started(name, start);
      const pipelined = await rawExchange(
        port,
        [
          'GET /later HTTP/1.1\r\nHost: localhost\r\n\r\nGET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        ],
        // Not half-closed: a client that ends its side first may lose both answers anywhere.
        { keepOpen: true },
      );
      expect(pipelined.text.match(/HTTP\/1\.1 200/g)?.length ?? 0, JSON.stringify(pipelined)).toBe(
        PIPELINED_AFTER_ASYNC[name],
      );
      const absolute = await rawExchange(port, [
        'GET http://acme.example.test/who HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      ]);
      expect(absolute.status === 200 && absolute.text.endsWith('account acme')).toBe(
        ROUTED_BY[name] === 'target',
      );
      const body = `{"name":"${'a'.repeat(1024 * 1024)}"}`;
      // The head first: Bun's server answers 413 and closes at once, and a client still writing
      // the body when the close comes may lose the answer it has not read yet.
      const refused = await rawExchange(
        port,
        [
          `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          body,
          'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        ],
        { wait: 5000, gap: 300 },
      );
      expect(refused.status).toBe(413);
      expect(AFTER_413[name]).toContain(refused.text.match(/HTTP\/1\.1 \d{3}/g)!.length);
      const junk = await rawExchange(port, [
        'POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}JUNK\r\n\r\n',
      ]);
      expect(junk.text.match(/(?<=HTTP\/1\.1 )\d{3}/g)?.join(' '), junk.text).toBe(
        ANSWERED_BEFORE_JUNK[name],
      );
      const raw = await rawExchange(port, [
        Buffer.from(
          'GET /here/a\xe9 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
          'latin1',
        ),
      ]);
      const answer =
        raw.status === 200 ? `200 ${raw.text.split('\r\n\r\n')[1]}` : String(raw.status);
      expect(answer).toBe(RAW_NOT_UTF8[name]);
    },
    60_000,
  );
});

describe('the Redis store on Bun and on Deno', () => {
  it('shares one limit: two calls on Bun, the third on Deno is over it', async () => {
    const redis = await startRedis();
    stops.push(() => redis.stop());
    writeFileSync(path.join(dir, 'redis-server.ts'), REDIS_SERVER);
    const env = { ...process.env, REDIS_URL: redis.url };
    const bun = await spawned(runtimeBinary('bun'), ['redis-server.ts'], env);
    const deno = await spawned(
      runtimeBinary('deno'),
      ['run', '--allow-net', '--allow-env', '--allow-read', 'redis-server.ts'],
      env,
    );
    const limited = async (port: number) => {
      const answer = await call(port, 'GET', '/limited');
      return `${answer.status} ${answer.body}`;
    };
    expect([await limited(bun), await limited(bun), await limited(deno)]).toEqual([
      '200 allowed',
      '200 allowed',
      '429 slow down',
    ]);
  }, 60_000);
});

// One client address for both servers: the limit is per client.
const REDIS_SERVER = `import { Course } from 'course-router';
import { RedisStore } from 'course-router/redis';
import routes from './generated/routes.gen.ts';

const app = Course.start(routes, { store: new RedisStore({ url: process.env['REDIS_URL'] }) });
const fetch = (request: Request) => app.fetch(request, { remoteAddress: '192.0.2.1' });
const port = Number(process.env['PORT']);
const runtime = globalThis as { Bun?: any; Deno?: any };
if (runtime.Bun) runtime.Bun.serve({ port, hostname: '127.0.0.1', fetch });
else runtime.Deno.serve({ port, hostname: '127.0.0.1' }, fetch);
`;
