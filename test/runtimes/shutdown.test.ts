import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import { freePort } from '../_redis.js';
import { removeApp } from '../_utils.js';
import { cutsAfterGrace, stopsGracefully } from '../deploy/_graceful.js';
import { initApp } from './_init.js';
import { runtimeBinary } from './_runtimes.js';

// The server `course init --runtime bun|deno` writes (README's), run as its `npm start` runs it,
// stops as Node's does on SIGTERM: the request in flight gets its answer, an idle keep-alive
// connection is closed, a new connection is refused, and the process exits 0; what still runs
// after 10 s is cut.

const SLOW = `
Course.get('/slow', async () => {
  console.log('handling /slow');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return 'slow done';
});
Course.get('/stuck', () => {
  console.log('handling /stuck');
  return new Promise(() => setInterval(() => {}, 1000));
});
`;
const work: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  work.forEach(removeApp);
});

describe('course init --runtime: SIGTERM', () => {
  it.concurrent.each(['bun', 'deno'] as const)(
    '%s: finishes the request in flight, closes idle connections, refuses new ones, exits 0',
    async (runtime) => {
      const { child, port, output } = await startApp(runtime);
      const answer = await stopsGracefully(child, port, '/slow', output);
      expect([answer.status, await answer.text()]).toEqual([200, 'slow done']);
    },
    60_000,
  );

  it.concurrent.each(['bun', 'deno'] as const)(
    '%s: cuts a request still running after 10 s, and exits 0',
    async (runtime) => {
      const { child, port, output } = await startApp(runtime);
      await cutsAfterGrace(child, port, '/stuck', output);
    },
    60_000,
  );
});

// --- internal ---

/** The app `course init --runtime` writes, with `SLOW`'s routes, started as `npm start` starts it. */
async function startApp(
  runtime: 'bun' | 'deno',
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const dir = await initApp(runtime, work, false);
  appendFileSync(path.join(dir, 'routes.ts'), SLOW);
  expect((await cli(['build', '--root', dir])).stderr).toBe('');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [, ...args] = manifest.scripts['start']!.split(' ');
  const port = await freePort();
  const child = spawn(runtimeBinary(runtime), args, {
    cwd: dir,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await listening(port, () => output);
  return { child, port, output: () => output };
}

/** Waits until the server accepts a connection (closed at once). */
async function listening(port: number, output: () => string): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
      socket.once('connect', () => socket.destroy());
    });
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (await accepts()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on ${port}: ${output()}`);
}
