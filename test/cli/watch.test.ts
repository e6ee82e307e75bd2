import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, removeApp, writeApp, writeFile } from '../_utils.js';

const ROUTES = (body: string) => `import { Course } from 'course-router';\n${body}\n`;

let dir: string;
let child: ChildProcess;
let stdout = '';
let stderr = '';

/** Waits until `predicate` holds on what the watcher printed. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\nstdout: ${stdout}\nstderr: ${stderr}`);
    if (child.exitCode !== null) throw new Error(`watcher exited (${child.exitCode})\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const generated = () => readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
const closuresFile = () => path.join(dir, 'generated/routes.closures.gen.ts');
const closures = () => readFileSync(closuresFile(), 'utf8');
const count = (text: string, word: string) => text.split(word).length - 1;

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES(`Course.get('/', () => 'one');`) });
  child = spawn(process.execPath, [CLI, 'watch', '--root', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await until(() => stdout.includes('watching for changes'), 'the first build');
});

afterAll(() => {
  child?.kill('SIGTERM');
  removeApp(dir);
});

describe('course watch', () => {
  it('builds at start, then rebuilds when a route file changes', async () => {
    expect(stdout).toMatch(
      /wrote .*routes\.gen\.ts and .*routes\.closures\.gen\.ts: 1 route in \d+ ms/,
    );
    writeFile(
      dir,
      'routes.ts',
      ROUTES(`Course.get('/', () => 'one');\nCourse.get('/two', () => 'two');`),
    );
    await until(() => count(stdout, 'wrote') >= 2, 'the rebuild');
    expect(generated()).toContain('"/two"');
  });

  it('rebuilds when a module a route file imports changes, and when a routers/ file appears', async () => {
    writeFile(dir, 'routers/extra.ts', ROUTES(`Course.get('/extra', 'Pages@show');`));
    writeFile(
      dir,
      'app/Components/Controller/Pages.ts',
      'export class Pages {\n  show() { return 1; }\n}\n',
    );
    await until(() => generated().includes('"/extra"'), 'the routers/ file');
    writeFile(
      dir,
      'app/Components/Controller/Pages.ts',
      'export class Pages {\n  other() { return 1; }\n}\n',
    );
    await until(() => stderr.includes('class Pages has no method show'), 'the controller change');
  });

  it('a syntax error is reported, watching goes on, and fixing it recovers', async () => {
    writeFile(
      dir,
      'app/Components/Controller/Pages.ts',
      'export class Pages {\n  show() { return 1; }\n}\n',
    );
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', () => 'one'`));
    await until(() => /E_LOAD/.test(stderr), 'the syntax error');
    expect(child.exitCode).toBeNull();
    const before = count(stdout, 'wrote');
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', () => 'fixed');`));
    await until(() => count(stdout, 'wrote') > before, 'the recovery');
    expect(closures()).toContain("'fixed'");
  });

  it('an error nothing awaited in a route file is one line, and watching goes on', async () => {
    writeFile(
      dir,
      'routes.ts',
      ROUTES(`Promise.reject(new Error('stray'));\nCourse.get('/', () => 'one');`),
    );
    await until(
      () => stderr.includes('build failed: stray (thrown outside any route call'),
      'the stray error',
    );
    expect(child.exitCode).toBeNull();
    // Waited for by what it writes: the failed build may still be printing when the file changes.
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', () => 'calm');`));
    await until(
      () => existsSync(closuresFile()) && closures().includes("'calm'"),
      'the next build',
    );
    expect(child.exitCode).toBeNull();
  });

  it('removes the closures module when the closures go, and writes it when they come back', async () => {
    const sibling = path.join(dir, 'generated/routes.closures.gen.ts');
    // The build writes the closures module (or removes it) before the module that imports it:
    // what both say is read once the watcher has reported that build.
    let from = stdout.length;
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', 'Pages@show');`));
    await until(
      () => /wrote \S*routes\.gen\.ts: /.test(stdout.slice(from)),
      'the build without closures',
    );
    expect(existsSync(sibling)).toBe(false);
    expect(generated()).not.toContain('routes.closures.gen');
    from = stdout.length;
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', () => 'back');`));
    await until(
      () => /wrote \S*routes\.gen\.ts and \S*routes\.closures\.gen\.ts: /.test(stdout.slice(from)),
      'the build with closures',
    );
    expect(closures()).toContain("'back'");
    expect(generated()).toContain("import { closures } from './routes.closures.gen.js';");
  });

  it("a tool's own build in a hidden folder (wrangler's) or in dist is no change to rebuild for", async () => {
    // Each build, written or unchanged, ends its line with its routes and time.
    const builds = () => stdout.match(/routes? in \d+ ms/g)?.length ?? 0;
    const before = builds();
    writeFile(dir, '.wrangler/tmp/bundle/index.js', 'export default {};\n');
    writeFile(dir, 'dist/server.js', 'export {};\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFile(dir, 'routes.ts', ROUTES(`Course.get('/', () => 'after');`));
    await until(() => builds() > before, 'the rebuild');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(builds()).toBe(before + 1);
  });

  it('watches an app that lives in a dist or a hidden folder', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'course-nested-'));
    const nested = path.join(base, '.apps/dist/app');
    mkdirSync(path.dirname(nested), { recursive: true });
    renameSync(writeApp({ 'routes.ts': ROUTES(`Course.get('/', () => 'one');`) }), nested);
    const other = spawn(process.execPath, [CLI, 'watch', '--root', nested], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    other.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const waitFor = async (predicate: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await waitFor(() => out.includes('watching for changes'), 'the first build');
      writeFile(nested, 'routes.ts', ROUTES(`Course.get('/', () => 'two');`));
      await waitFor(() => count(out, 'wrote') >= 2, 'the rebuild');
    } finally {
      other.kill('SIGTERM');
      rmSync(base, { recursive: true, force: true });
    }
  });
});
