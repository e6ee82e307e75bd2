import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, startServer, TSC } from '../_install.js';
import { deployFile } from '../_readme.js';
import { freePort } from '../_redis.js';
import { CLI, removeApp, ROOT } from '../_utils.js';
import { initApp } from './_init.js';
import { runtimeBinary, serveOnWorkerd } from './_runtimes.js';

// `course init --runtime …` writes an app that builds and serves on that runtime as written:
// this repository's packages stand in for the installed ones.

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const work: string[] = [];
afterAll(() => work.forEach(removeApp));

async function expectServes(port: number): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${port}/hello/ada`);
  expect(await answer.text()).toBe('{"greeting":"Hello, ada!","self":"/hello/ada"}');
}

describe('course init --runtime', () => {
  it.each(['bun', 'deno'] as const)(
    '%s: a server that `npm start` runs there',
    async (runtime) => {
      const dir = await initApp(runtime, work);
      // No --sloppy-imports: the generated module names the app's files as they are, and the
      // server is README's.
      const generated = readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
      expect(generated).toContain("from '../app/Components/Controller/HomeController.ts'");
      expect(readFileSync(path.join(dir, 'server.ts'), 'utf8')).toBe(
        deployFile(README, `${runtime}.ts`),
      );
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

  it("deno: `deno test` runs init's test against Deno's types; tsc leaves it out", async () => {
    const dir = await initApp('deno', work);
    // Installed, not linked: Deno reads the types of a package in node_modules (`x.js` → `x.d.ts`).
    const installed = path.join(dir, 'node_modules/course-router');
    rmSync(installed);
    cpSync(path.join(ROOT, 'runtime'), installed, { recursive: true });
    const env = { ...process.env, NO_COLOR: '1' };
    const tested = await run(runtimeBinary('deno'), testCommand(dir, 'deno'), { cwd: dir, env });
    expect(tested.stdout).toMatch(/ok \| 2 passed \| 0 failed/);
    await run(process.execPath, [TSC, '-p', dir, '--noEmit']);
    // A type error in the test is Deno's to find.
    writeFileSync(
      path.join(dir, 'test/hello_test.ts'),
      'const n: number = Deno.pid.toString();\nDeno.test("n", () => {});\n',
    );
    const failed = await run(runtimeBinary('deno'), testCommand(dir, 'deno'), {
      cwd: dir,
      env,
    }).catch((error: { stderr: string; stdout: string }) => error);
    expect(`${failed.stdout}${failed.stderr}`).toContain('TS2322');
  }, 60_000);

  it('workers: a Worker module and wrangler.jsonc that wrangler bundles and workerd serves', async () => {
    const dir = await initApp('workers', work);
    // wrangler's own state (.wrangler/) stays out of git.
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\ndist/\n.wrangler/\n',
    );
    for (const file of ['worker.ts', 'course.config.ts'])
      expect(readFileSync(path.join(dir, file), 'utf8'), file).toBe(deployFile(README, file));
    const { port, stop } = await serveOnWorkerd(dir);
    try {
      await expectServes(port);
    } finally {
      await stop();
    }
  }, 60_000);

  it("bun: `bun test` runs init's test", async () => {
    const dir = await initApp('bun', work);
    const tested = await run(runtimeBinary('bun'), testCommand(dir, 'bun'), { cwd: dir });
    expect(tested.stderr).toMatch(/ 2 pass\n 0 fail\n/);
  }, 60_000);

  it("workers: init's test runs on Node through the Fetch adapter", async () => {
    const dir = await initApp('workers', work);
    const args = testCommand(dir, 'node');
    // `--import tsx`, from this repository (the app installs it as a dev dependency).
    args[args.indexOf('tsx')] = path.join(ROOT, 'node_modules/tsx/dist/loader.mjs');
    const tested = await run(process.execPath, args, { cwd: dir });
    expect(tested.stdout).toMatch(/# pass 2\n# fail 0\n/);
  }, 60_000);

  it("bun: tsc checks server.ts against Bun's types", async () => {
    const dir = await initApp('bun', work);
    const server = path.join(dir, 'server.ts');
    writeFileSync(server, readFileSync(server, 'utf8').replace('Bun.serve(', 'Bun.serv('));
    const tsc = await run(process.execPath, [TSC, '-p', dir, '--noEmit']).catch(
      (error: { stdout: string }) => error,
    );
    expect(tsc.stdout).toContain("server.ts(6,20): error TS2551: Property 'serv' does not exist");
  }, 60_000);

  it('--packages: copies the tarballs into vendor/, which the app installs from wherever it goes', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'course-init-packs-'));
    work.push(parent);
    const packs = path.join(parent, 'packs');
    mkdirSync(packs);
    const names = ['course-compiler', 'course-kit', 'course-router'];
    for (const name of names) writeFileSync(path.join(packs, `${name}-0.1.0.tgz`), name);
    await run(process.execPath, [CLI, 'init', 'app', '--packages', packs], { cwd: parent });
    const dir = path.join(parent, 'app');
    for (const name of names)
      expect(readFileSync(path.join(dir, `vendor/${name}-0.1.0.tgz`), 'utf8')).toBe(name);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    expect([
      manifest['dependencies']!['course-router'],
      manifest['devDependencies']!['course-kit'],
      manifest['overrides']!['course-compiler'],
    ]).toEqual([...names].reverse().map((name) => `file:vendor/${name}-0.1.0.tgz`));
  });

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

// --- internal ---

/**
 * The command of the app's `test` script after its `course build &&`, as arguments (the glob of
 * Node's test files expanded, as the shell would), for the runtime `binary` names.
 */
function testCommand(dir: string, binary: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [build, command] = manifest.scripts['test']!.split(' && ');
  expect(build).toBe('course build');
  const [name, ...args] = command!.split(' ');
  expect(name).toBe(binary);
  return args.map((arg) => (arg === 'test/*.test.ts' ? 'test/home.test.ts' : arg));
}
