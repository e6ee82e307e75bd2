import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../_child.js';
import { startServer, type Running } from '../_install.js';
import { deployFile } from '../_readme.js';
import { freePort } from '../_redis.js';
import { removeApp, ROOT } from '../_utils.js';
import { runtimeApp, runtimeBinary } from './_runtimes.js';

// `bodyMemoryLimit` on Bun's and Deno's servers (README's, with the option set), over raw
// sockets: a body holds what has come of it (a small one, its declared length), so uploads that
// stall cannot take the memory there either, and a client that goes gives its share back.

const LIMIT = 100_000;
const TIMEOUT = 1500;
const ROUTES = `import { Course, input } from 'course-router';
Course.post('/echo', () => ({ a: input('a') ?? null }));
`;

let dir: string;
const servers: Running[] = [];
beforeAll(async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const limited = (file: string, more = '') =>
    deployFile(readme, file).replace(
      'Course.start(routes)',
      `Course.start(routes, { bodyMemoryLimit: ${LIMIT}, onError: () => {}${more} })`,
    );
  const timed = `, requestTimeout: ${TIMEOUT}`;
  dir = await runtimeApp(
    {
      'routes.ts': ROUTES,
      'bun.ts': limited('bun.ts'),
      'deno.ts': limited('deno.ts'),
      'bun-timed.ts': limited('bun.ts', timed),
      'deno-timed.ts': limited('deno.ts', timed),
    },
    ['course.config.ts'],
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  if (dir) removeApp(dir);
});

const COMMANDS = {
  bun: (file: string) => [`${file}.ts`],
  deno: (file: string) => ['run', '--allow-net', '--allow-env', '--allow-read', `${file}.ts`],
};

async function serveOn(runtime: 'bun' | 'deno', file: string = runtime): Promise<number> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  servers.push(
    await startServer(runtimeBinary(runtime), COMMANDS[runtime](file), { cwd: dir, env, port }),
  );
  return port;
}

const head = (length: number) =>
  `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\nConnection: close\r\n\r\n`;
const small = `{"a":"ok"}`;
// The client keeps its side open until the answer's `Connection: close`: Deno's server takes a
// client that shuts its side down before the body is read for one that went.
const OPEN = { keepOpen: true };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that sent `text` (a head and part of its body), and waits. */
async function stalled(port: number, text: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(text);
  await pause(300);
  return socket;
}

describe('Bun and Deno: bodies being received, all together', () => {
  it.concurrent.each(['bun', 'deno'] as const)(
    '%s: a body past what a stalled one holds is a 503; the share comes back when its client goes',
    async (runtime) => {
      const port = await serveOn(runtime);
      const first = await stalled(port, head(80_000) + 'x'.repeat(60_000));
      try {
        const refused = await rawExchange(port, [head(50_000) + 'x'.repeat(50_000)], OPEN);
        expect(refused.status).toBe(503);
        expect(refused.text).toMatch(/\r\nretry-after: 5\r\n/i);
        const served = await rawExchange(port, [head(small.length) + small], OPEN);
        expect(served.text).toContain('{"a":"ok"}');
      } finally {
        first.destroy();
      }
      await pause(300);
      const body = JSON.stringify({ a: 'y'.repeat(49_000) });
      const after = await rawExchange(port, [head(body.length) + body], OPEN);
      expect(after.status).toBe(200);
    },
    30_000,
  );

  it.concurrent.each(['bun', 'deno'] as const)(
    '%s: connections that declare large bodies and send a few bytes hold only those',
    async (runtime) => {
      const port = await serveOn(runtime);
      // 270,000 bytes declared of a budget of 100,000; 300 sent.
      const idle = await Promise.all(
        [1, 2, 3].map(() => stalled(port, head(90_000) + 'x'.repeat(100))),
      );
      try {
        const body = JSON.stringify({ a: 'y'.repeat(49_000) });
        const served = await rawExchange(port, [head(body.length) + body], OPEN);
        expect(served.status).toBe(200);
      } finally {
        for (const socket of idle) socket.destroy();
      }
    },
    30_000,
  );

  it.concurrent.each(['bun', 'deno'] as const)(
    '%s: small bodies that stall hold their declared length until their 408, then nothing',
    async (runtime) => {
      const port = await serveOn(runtime, `${runtime}-timed`);
      // 90,000 bytes declared of a budget of 100,000, in bodies the runtime reads at once.
      const idle = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => stalled(port, head(15_000) + 'x'.repeat(10))),
      );
      const body = JSON.stringify({ a: 'y'.repeat(14_000) });
      try {
        const refused = await rawExchange(port, [head(body.length) + body], OPEN);
        expect(refused.status).toBe(503);
        // Past `requestTimeout`, each stalled body has its 408, and its share is given back,
        // whether or not the runtime closes its connection (Deno keeps it open).
        await pause(TIMEOUT + 500);
        const served = await rawExchange(port, [head(body.length) + body], OPEN);
        expect(served.status).toBe(200);
      } finally {
        for (const socket of idle) socket.destroy();
      }
    },
    30_000,
  );
});
