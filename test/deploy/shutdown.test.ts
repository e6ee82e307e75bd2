import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import { freePort } from '../_redis.js';
import { buildApp, importTable, removeApp, ROOT, writeApp } from '../_utils.js';
import { cutsAfterGrace, stopsGracefully } from './_graceful.js';

// The server `course init` writes, as it is: HOST and PORT read, SIGTERM and SIGINT wired to
// `app.close()`, then an exit.
const SERVER = readFileSync(path.join(ROOT, 'cli/templates/app/server.ts.tpl'), 'utf8');
const ROUTES = `import { Course, type CourseApp } from 'course-router';
Course.get('/', () => 'home');
Course.get('/slow', async () => { console.log('handling /slow'); await new Promise((r) => setTimeout(r, 800)); return 'slow done'; });
Course.get('/endless', () => { (globalThis as { endless?: boolean }).endless = true; return new Promise(() => {}); });
Course.get('/stuck', () => { console.log('handling /stuck'); return new Promise(() => setInterval(() => {}, 1000)); });
`;

let dir: string;
beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES, 'server.ts': SERVER });
  await buildApp(dir);
});
afterAll(() => removeApp(dir));

describe("`course init`'s server on SIGTERM", () => {
  it('finishes the request in flight, closes idle connections, refuses new ones, exits 0', async () => {
    const port = await freePort();
    const { child, output } = await startServer(dir, port);
    const answer = await stopsGracefully(child, port, '/slow', output);
    expect([answer.status, await answer.text()]).toEqual([200, 'slow done']);
    expect(answer.headers.get('connection')).toBe('close');
  }, 20_000);

  it('cuts a request still running after 10 s, and exits 0 though its timer runs on', async () => {
    const port = await freePort();
    const { child, output } = await startServer(dir, port);
    await cutsAfterGrace(child, port, '/stuck', output);
  }, 30_000);
});

describe('app.listen()', () => {
  it('a port another server holds is one error naming it and what to do, with its code', async () => {
    const first = Course.start(await importTable(dir));
    const port = await listening(first);
    const second = Course.start(await importTable(dir));
    const refused = await second.listen(port).catch((error: NodeJS.ErrnoException) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as NodeJS.ErrnoException).message).toBe(
      `course: another server listens on 127.0.0.1:${port}: stop it, or listen on another port (PORT=…) (EADDRINUSE)`,
    );
    expect((refused as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    await Promise.all([first.close(), second.close()]);
  });
});

describe('app.close(grace)', () => {
  it('cuts a request still running after the grace period, and resolves', async () => {
    const app = Course.start(await importTable(dir));
    const port = await listening(app);
    const endless = fetch(`http://127.0.0.1:${port}/endless`).catch((error: Error) => error);
    // In flight once its handler has begun: a loaded machine may not have read it after 100 ms.
    const begun = globalThis as { endless?: boolean };
    while (!begun.endless) await new Promise((resolve) => setTimeout(resolve, 20));
    const start = Date.now();
    await app.close(300);
    expect(Date.now() - start).toBeGreaterThanOrEqual(250);
    expect(Date.now() - start).toBeLessThan(2000);
    expect(await endless).toBeInstanceOf(Error);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('resolves at once when nothing is in flight, and again when called twice', async () => {
    const app = Course.start(await importTable(dir));
    await app.listen(0);
    const start = Date.now();
    await Promise.all([app.close(), app.close()]);
    expect(Date.now() - start).toBeLessThan(500);
  });
});

// --- internal ---

/** The port `app` listens on, on one the system picks. */
async function listening(app: CourseApp): Promise<number> {
  const address = (await app.listen(0)).address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** `course init`'s server.ts on `port`, once it listens, with what it has printed so far. */
function startServer(
  cwd: string,
  port: number,
): Promise<{ child: ChildProcess; output: () => string }> {
  // tsx's loader in the server's own process: tsx's command runs the server in a child and, when
  // that child is slow to say it took a signal (30 ms, on a loaded machine), kills it.
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
      'server.ts',
    ],
    { cwd, env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) }, stdio: 'pipe' },
  );
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Listening on http://127.0.0.1:${port}`))
        resolve({ child, output: () => output });
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${String(code)}: ${output}`)),
    );
  });
}
