import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, startServer, TSC } from '../_install.js';
import { freePort } from '../_redis.js';
import { cli } from '../_cli-session.js';
import { CLI, removeApp, ROOT } from '../_utils.js';
import { runtimeBinary, serveOnWorkerd } from './_runtimes.js';

// `course init --runtime …` writes an app that builds and serves on that runtime as written:
// this repository's packages stand in for the installed ones.

const work: string[] = [];
afterAll(() => work.forEach(removeApp));

async function initApp(runtime: string): Promise<string> {
  const parent = mkdtempSync(path.join(os.tmpdir(), `course-init-${runtime}-`));
  work.push(parent);
  await run(process.execPath, [CLI, 'init', 'app', '--runtime', runtime], { cwd: parent });
  const dir = path.join(parent, 'app');
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(path.join(ROOT, 'runtime'), path.join(dir, 'node_modules/course-router'), 'dir');
  symlinkSync(path.join(ROOT, 'cli'), path.join(dir, 'node_modules/course-kit'), 'dir');
  symlinkSync(
    path.join(ROOT, 'node_modules/@types/node'),
    path.join(dir, 'node_modules/@types/node'),
    'dir',
  );
  const build = await cli(['build', '--root', dir]);
  expect(build.stderr).toBe('');
  const tsc = await run(process.execPath, [TSC, '-p', dir, '--noEmit']).catch(
    (error: { stdout: string }) => error,
  );
  expect(tsc.stdout, 'tsc').toBe('');
  return dir;
}

async function expectServes(port: number): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${port}/hello/ada`);
  expect(await answer.text()).toBe('{"greeting":"Hello, ada!","self":"/hello/ada"}');
}

describe('course init --runtime', () => {
  it.each(['bun', 'deno'] as const)(
    '%s: a server that `npm start` runs there',
    async (runtime) => {
      const dir = await initApp(runtime);
      if (runtime === 'deno') {
        // No --sloppy-imports: the generated module names the app's files as they are.
        const generated = readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
        expect(generated).toContain("from '../app/Components/Controller/HomeController.ts'");
      }
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      const [command, ...args] = manifest.scripts['start']!.split(' ');
      expect(command).toBe(runtime);
      const port = await freePort();
      const server = await startServer(runtimeBinary(runtime), args, {
        cwd: dir,
        env: { ...process.env, PORT: String(port) },
        port,
      });
      try {
        await expectServes(port);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it('workers: a Worker module and wrangler.jsonc that wrangler bundles and workerd serves', async () => {
    const dir = await initApp('workers');
    const { port, stop } = await serveOnWorkerd(dir);
    try {
      await expectServes(port);
    } finally {
      await stop();
    }
  }, 60_000);

  it('refuses a runtime it does not know, naming the ones it does', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'course-init-bad-'));
    work.push(parent);
    const failed = await run(process.execPath, [CLI, 'init', 'app', '--runtime', 'rhino'], {
      cwd: parent,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 1,
      stderr: 'course: unknown runtime "rhino": choose one of node, bun, deno, workers\n',
    });
  });
});
