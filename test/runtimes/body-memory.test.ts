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
// sockets: a declared body is reserved when the route starts reading it, so uploads that stall
// cannot take the memory there either, and a client that goes gives its share back.

const LIMIT = 100_000;
const ROUTES = `import { Course, input } from 'course-router';
Course.post('/echo', () => ({ a: input('a') ?? null }));
`;

let dir: string;
const servers: Running[] = [];
beforeAll(async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const limited = (file: string) =>
    deployFile(readme, file).replace(
      'Course.start(routes)',
      `Course.start(routes, { bodyMemoryLimit: ${LIMIT}, onError: () => {} })`,
    );
  dir = await runtimeApp(
    { 'routes.ts': ROUTES, 'bun.ts': limited('bun.ts'), 'deno.ts': limited('deno.ts') },
    ['course.config.ts'],
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  if (dir) removeApp(dir);
});

const COMMANDS = {
  bun: ['bun.ts'],
  deno: ['run', '--allow-net', '--allow-env', '--allow-read', 'deno.ts'],
};

async function serveOn(runtime: 'bun' | 'deno'): Promise<number> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  servers.push(
    await startServer(runtimeBinary(runtime), COMMANDS[runtime], { cwd: dir, env, port }),
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
});
