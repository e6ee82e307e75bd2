import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, startServer, TSC } from './_install.js';
import { freePort, startRedis } from './_redis.js';
import { expectedPrint, expectedRequests, type Expected } from './_readme.js';
import { of, README, WORKSPACE } from './_readme-blocks.js';
import {
  importTable,
  removeApp,
  ROOT,
  runCli,
  send,
  serve,
  writeApp,
  type Served,
} from './_utils.js';

// Every fenced block of README.md runs, as its marker comment says (test/_readme.ts):
// - shell blocks and the files between them: test/readme-shell.test.ts;
// - the files of the example apps (every app without shell blocks), written into an app with
//   this repository's packages linked and the tsconfig `course init` writes, built with the
//   real CLI, type-checked with tsc and served; each `// GET /path → answer` comment is
//   requested through both adapters, each `console.log(…); // line` script run with tsx;
// - the deployment files (`deploy path`): test/deploy/ and test/runtimes/ run them;
// - the repository's own commands: the scripts they name, whose demo server
//   test/e2e/demo.test.ts starts and requests.

const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const INIT_TSCONFIG = readFileSync(path.join(ROOT, 'cli/templates/app/tsconfig.json.tpl'), 'utf8');
const EXAMPLES = [
  ...new Set(
    [...of('file'), ...of('build-output')]
      .map((b) => b.marker.app)
      .filter((app) => !WORKSPACE.has(app)),
  ),
];
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('README.md', () => {
  it('marks every fenced block with what it is', () => {
    expect(README.unmarked, 'lines of blocks with no <!-- readme: … --> before them').toEqual([]);
    expect(README.unreadable).toEqual([]);
    for (const block of README.blocks) {
      if (block.marker.kind !== 'file') continue;
      expect(expectedRequests(block.text).unreadable, `README.md:${block.line}`).toEqual([]);
    }
  });

  it('names the repository commands its scripts run; the demo test serves `npm start`', () => {
    const [block] = of('repository');
    expect(block!.text).toBe('npm install && npm start\nnpm test\n');
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts).toMatchObject({
      prepare: 'tsx scripts/build-packages.ts',
      prestart: 'tsx scripts/build-packages.ts && course build',
      start: 'tsx fixtures/app/server.ts',
      test: 'vitest run',
    });
    const demo = readFileSync(path.join(ROOT, 'test/e2e/demo.test.ts'), 'utf8');
    expect(demo).toContain("'fixtures/app/server.ts'");
  });

  describe.each(EXAMPLES)('the example app %s', (app) => {
    it('builds, type-checks, and answers and prints what its comments say', async () => {
      await checkExample(app);
    }, 120_000);
  });
});

/** Builds, type-checks and serves the example app `app`, and checks what its blocks state. */
async function checkExample(app: string): Promise<void> {
  const files: Record<string, string> = { 'tsconfig.json': INIT_TSCONFIG };
  const blocks = of('file').filter((b) => b.marker.app === app);
  for (const block of blocks) files[block.marker.path] = block.text;
  for (const copy of README.copies.filter((c) => c.to.app === app)) {
    const source = of('file').find(
      (b) => b.marker.app === copy.from.app && b.marker.path === copy.from.path,
    );
    expect(source, `the README shows ${copy.from.app}/${copy.from.path}`).toBeDefined();
    files[copy.to.path] = source!.text;
  }
  const dir = writeApp(files);
  cleanup.push(() => removeApp(dir));
  symlinkSync(path.join(ROOT, 'cli'), path.join(dir, 'node_modules/course-kit'), 'dir');
  // What the README says to install beside the router (`npm install zod`).
  symlinkSync(path.join(ROOT, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');

  const build = await runCli(['build'], dir);
  const printed = of('build-output').find((b) => b.marker.app === app);
  // Trailing spaces aside: the code frame's empty lines end with one, which markdown drops.
  expect(build.stderr.replace(/ +$/gm, '')).toBe(printed ? printed.text : '');
  if (build.code !== 0) {
    expect(printed, `course build failed for ${app}: ${build.stderr}`).toBeDefined();
    return;
  }
  const tsc = await run(process.execPath, [TSC, '-p', dir, '--noEmit']).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
  );
  expect(tsc.stdout, 'tsc').toBe('');

  const out = /^wrote (\S+?)(?: and \S+)?:/.exec(build.stdout)![1]!;
  const served = await serve(await importTable(dir, out));
  // Served from the app's folder, as `npm start` serves it: a relative path (`ServeStatic`'s
  // `root = 'public'`) is the app's.
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    for (const block of blocks) {
      for (const request of expectedRequests(block.text).expected) await ask(served, request);
      const lines = expectedPrint(block.text);
      if (!lines) continue;
      const { stdout } = await run(process.execPath, [TSX, block.marker.path], { cwd: dir });
      expect(stdout.split('\n').slice(0, -1), block.marker.path).toEqual(lines);
    }
    if (app === 'forms') await checkForms(served);
  } finally {
    process.chdir(cwd);
    await served.close();
  }
  if (files['server.ts'] !== undefined) await checkServer(dir);
}

/** Sends the request a comment states through both adapters and checks the answer. */
async function ask(served: Served, request: Expected): Promise<void> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.host) headers['host'] = request.host;
  if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const answer = await send(served, request.method, request.target, {
    headers,
    ...(request.form ? { body: request.form } : {}),
  });
  expect(answer.status, request.source).toBe(request.status);
  if (request.body !== undefined) expect(answer.body, request.source).toBe(request.body);
  if (request.location !== undefined)
    expect(answer.headers['location'], request.source).toBe(request.location);
}

/** The `forms` app's page deletes its note with the token; without it, or cross-origin, 403. */
async function checkForms(served: Served): Promise<void> {
  const page = await served.app.fetch(new Request('http://localhost/notes/1'));
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const html = await page.text();
  expect(html).toContain('<input type="hidden" name="_method" value="DELETE" readonly>');
  const token = /name="csrf_token" value="([\w-]+)"/.exec(html)![1]!;
  const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
  const post = (body: string, headers: Record<string, string> = {}) =>
    send(served, 'POST', '/notes/1', { headers: { ...form, ...headers }, body });
  expect(await post(`_method=DELETE&csrf_token=${token}`)).toMatchObject({
    status: 200,
    body: 'note 1 deleted',
  });
  expect((await post('_method=DELETE')).status).toBe(403);
  const foreign = { origin: 'http://evil.example' };
  expect((await post(`_method=DELETE&csrf_token=${token}`, foreign)).status).toBe(403);
  expect(await send(served, 'POST', '/api/notes')).toMatchObject({ status: 200, body: 'created' });
}

/** An example app's `server.ts` serves its routes (with Redis where it asks for it). */
async function checkServer(dir: string): Promise<void> {
  const redis = await startRedis();
  cleanup.push(() => redis.stop());
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), REDIS_URL: redis.url, COURSE_SECRET: 'x' };
  const server = await startServer(process.execPath, [TSX, 'server.ts'], { cwd: dir, env, port });
  try {
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect([home.status, await home.text()]).toEqual([200, 'Hello!']);
  } finally {
    await server.stop();
  }
}
