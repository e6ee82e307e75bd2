import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { run, startServer, type Running } from '../_install.js';
import { freePort } from '../_redis.js';
import { CLI, removeApp, ROOT, writeApp, writeFile } from '../_utils.js';
import { initApp } from './_init.js';
import { runtimeBinary } from './_runtimes.js';

// `npm run dev` in an app `course init --runtime …` just wrote: the script as written (npm puts the
// app's node_modules/.bin, where `course`, `bun` and `deno` are installed, on PATH) builds the
// routes, serves them on that runtime, and serves a route added to routes.ts after the rebuild.

const work: string[] = [];
afterAll(() => work.forEach(removeApp));

/** Installs the `course` command and the runtime binaries in the app's node_modules/.bin. */
function installBins(dir: string): void {
  const bin = path.join(dir, 'node_modules/.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(path.join(ROOT, 'cli/bin/course.js'), path.join(bin, 'course'));
  for (const name of ['bun', 'deno'] as const)
    symlinkSync(runtimeBinary(name), path.join(bin, name));
}

/**
 * Writes a stand-in for the command `name` in `bin`: it records its arguments in the folder it
 * runs in (`argv.json`) and answers on `PORT`.
 */
function standIn(bin: string, name: string): void {
  writeFile(
    bin,
    name,
    `#!${process.execPath}
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
writeFileSync('argv.json', JSON.stringify(process.argv.slice(2)));
createServer((_, res) => res.end('stand-in')).listen(Number(process.env.PORT), '127.0.0.1');
`,
  );
  chmodSync(path.join(bin, name), 0o755);
}

const readArgv = (dir: string): unknown =>
  JSON.parse(readFileSync(path.join(dir, 'argv.json'), 'utf8'));

/** Checks the app's `dev` script is `script`, and starts `npm run dev` (with `args`) on a free port. */
async function runDev(
  dir: string,
  script: string,
  args: string[] = [],
): Promise<{ port: number; server: Running }> {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(manifest.scripts['dev']).toBe(script);
  installBins(dir);
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  return {
    port,
    server: await startServer('npm', ['run', 'dev', ...args], { cwd: dir, env, port }),
  };
}

/** The command lines of the processes running in `dir`. */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (realpathSync(`/proc/${pid}/cwd`) === realpathSync(dir))
        found.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Polls `target` until it answers 200 with `body` (the server restarts after a rebuild). */
async function until(port: number, target: string, body: string, output: () => string) {
  let last = '';
  for (const deadline = Date.now() + 45_000; Date.now() < deadline;) {
    last = await fetch(`http://127.0.0.1:${port}${target}`)
      .then(async (answer) => `${answer.status} ${await answer.text()}`)
      .catch((error: Error) => error.message);
    if (last === `200 ${body}`) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`GET ${target} never answered ${body} (last: ${last})\n${output()}`);
}

describe('npm run dev', () => {
  it.each([
    ['node', 'course watch --serve server.ts'],
    ['bun', 'course watch --serve server.ts --runtime bun'],
    ['deno', 'course watch --serve server.ts --runtime deno'],
  ] as const)(
    '%s: `%s` serves, and serves a new route and a changed controller after the rebuild',
    async (runtime, script) => {
      const dir = await initApp(runtime, work, false);
      const { port, server } = await runDev(dir, script);
      try {
        await until(
          port,
          '/hello/ada',
          '{"greeting":"Hello, ada!","self":"/hello/ada"}',
          server.output,
        );
        const routes = readFileSync(path.join(dir, 'routes.ts'), 'utf8');
        writeFile(
          dir,
          'routes.ts',
          `import { request, response } from 'course-router';
${routes}Course.get('/bye', () => 'bye').name('bye');
Course.get('/sign', () => { response().cookie('who', 'ada', { signed: true }); return 'signed'; });
Course.get('/who', () => request().signedCookie('who') ?? 'nobody');
`,
        );
        await until(port, '/bye', 'bye', server.output);
        // A signed cookie made before the restart still holds after it: the watch's one key.
        const cookie = (await fetch(`http://127.0.0.1:${port}/sign`)).headers
          .get('set-cookie')!
          .split(';')[0]!;
        const controller = 'app/Components/Controller/HomeController.ts';
        const source = readFileSync(path.join(dir, controller), 'utf8');
        writeFile(dir, controller, source.replace('Hello, ${name}!', 'Hi, ${name}!'));
        await until(
          port,
          '/hello/ada',
          '{"greeting":"Hi, ada!","self":"/hello/ada"}',
          server.output,
        );
        const who = await fetch(`http://127.0.0.1:${port}/who`, { headers: { cookie } });
        expect(await who.text()).toBe('ada');
      } finally {
        await server.stop();
      }
      // Stopped, the watcher leaves no process behind: `deno run --watch` keeps watching once its
      // script ends on SIGTERM, and is killed.
      await vi.waitFor(() => expect(processesIn(dir)).toEqual([]), { timeout: 10_000 });
    },
    120_000,
  );
});

describe('npm run dev (workers)', () => {
  // wrangler needs Node 22.12+ and does not serve under Bun: a stand-in `wrangler` on PATH
  // records how it was started and listens, while the watcher rebuilds the routes it bundles.
  it("`course watch --serve worker.ts --runtime workers` runs `wrangler dev` with README's flags, and rebuilds the routes", async () => {
    const dir = await initApp('workers', work, false);
    standIn(path.join(dir, 'node_modules/.bin'), 'wrangler');
    // README's way of passing wrangler a flag through npm.
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const command = /`npm run dev (-- -- --port 8787)`/.exec(readme)?.[1];
    expect(command, 'README passes wrangler --port through npm').toBeDefined();
    const { server } = await runDev(
      dir,
      'course watch --serve worker.ts --runtime workers',
      command!.split(' '),
    );
    try {
      expect(readArgv(dir)).toEqual(['dev', '--port', '8787', 'worker.ts']);
      const routes = readFileSync(path.join(dir, 'routes.ts'), 'utf8');
      writeFile(dir, 'routes.ts', `${routes}Course.get('/bye', () => 'bye').name('bye');\n`);
      const generated = path.join(dir, 'generated/routes.gen.ts');
      for (let waited = 0; !readFileSync(generated, 'utf8').includes('"/bye"'); waited += 200) {
        if (waited > 45_000) throw new Error(`no rebuild\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('course watch --serve --runtime', () => {
  it('a runtime missing from PATH is one line naming its install, and exit 1', async () => {
    const dir = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n",
      'server.ts': '',
    });
    work.push(dir);
    const failed = await run(
      process.execPath,
      [CLI, 'watch', '--serve', 'server.ts', '--runtime', 'bun'],
      { cwd: dir, env: { ...process.env, PATH: path.dirname(process.execPath) } },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 1,
      stderr:
        'bun not found on PATH, needed by --runtime bun: npm install --save-dev bun, or see https://bun.sh\n',
    });
  });

  it('flags after -- go to the runtime, before the file (Deno: beside its three permissions)', async () => {
    const dir = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n",
      'server.ts': '',
    });
    work.push(dir);
    standIn(path.join(dir, 'bin'), 'deno');
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      PATH: `${path.join(dir, 'bin')}:${process.env['PATH']}`,
    };
    const args = [CLI, 'watch', '--serve', 'server.ts', '--runtime', 'deno', '--', '--allow-write'];
    const server = await startServer(process.execPath, args, { cwd: dir, env, port });
    await server.stop();
    expect(readArgv(dir)).toEqual([
      'run',
      '--watch',
      '--no-clear-screen',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-write',
      'server.ts',
    ]);
  });

  it('refuses a runtime it does not know, and runtime flags without --serve', async () => {
    const unknown = await run(process.execPath, [CLI, 'watch', '--runtime', 'rhino']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown).toMatchObject({
      code: 1,
      stderr:
        'course: unknown runtime "rhino" for --serve: choose one of node, bun, deno, workers\n',
    });
    const flags = await run(process.execPath, [CLI, 'watch', '--', '--allow-all']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(flags).toMatchObject({
      code: 1,
      stderr: 'course: --allow-all: flags for the runtime need --serve FILE\n',
    });
  });
});
