import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packedTarballs, run, startServer, text, type Running } from '../_install.js';
import { deployFile } from '../_readme.js';
import { of } from '../_readme-blocks.js';
import { freePort } from '../_redis.js';
import { CLI, removeApp, ROOT, writeFile } from '../_utils.js';

// No Docker engine runs where the tests run. README's Dockerfile is carried out here instead,
// instruction by instruction, on an app `course init` wrote: each stage is a folder (its
// WORKDIR), COPY copies from the app (less what .dockerignore names) or from an earlier stage,
// RUN runs its command there, and the last stage's CMD is started with its ENV. Before each
// `npm ci`, every `file:` tarball the lock file names must be in the stage: a Docker build has
// only its context, where the machine's npm cache would hide a missing one.

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const DOCKERFILE = deployFile(README, 'Dockerfile');
const IGNORED = deployFile(README, '.dockerignore').split('\n').filter(Boolean);
const work: string[] = [];
let server: Running | undefined;
afterAll(async () => {
  await server?.stop();
  for (const dir of work) removeApp(dir);
});

describe("README's Dockerfile", () => {
  it('uses only what this check carries out, with Node 20 images', () => {
    const instructions = parse(DOCKERFILE);
    expect(new Set(instructions.map((i) => i.name))).toEqual(
      new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'CMD']),
    );
    for (const from of instructions.filter((i) => i.name === 'FROM'))
      expect(from.args).toMatch(/^node:20-slim\b/);
    // The last stage runs as the unprivileged user of the image, and node itself takes SIGTERM.
    expect(instructions.at(-1)).toEqual({ name: 'CMD', args: '["node", "dist/server.js"]' });
    expect(instructions.some((i) => i.name === 'USER' && i.args === 'node')).toBe(true);
  });

  it('builds and serves an app `course init` wrote and its public/ files, its last stage with production packages only', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'course-docker-'));
    work.push(parent);
    await run(process.execPath, [CLI, 'init', 'my-app', '--packages', await packedTarballs()], {
      cwd: parent,
    });
    const context = path.join(parent, 'my-app');
    await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: context }); // the lock file
    // What the image copies from the context is in every app `course init --packages` writes
    // (and installs).
    for (const copy of parse(DOCKERFILE).filter((i) => i.name === 'COPY')) {
      if (copy.args.startsWith('--from=')) continue;
      for (const source of copy.args.split(/\s+/).slice(0, -1))
        expect(existsSync(path.join(context, source)), `COPY ${source}`).toBe(true);
    }
    // README's static files, served from `public/` by the compiled app.
    for (const block of of('file').filter((b) => b.marker.app === 'features'))
      if (/^(app\/Middleware\/Assets|routers\/assets|public\/)/.test(block.marker.path))
        writeFile(context, block.marker.path, block.text);
    const { dir, env, cmd } = await carryOut(DOCKERFILE, context, parent);

    const installed = (name: string) => existsSync(path.join(dir, 'node_modules', name));
    expect(installed('course-router')).toBe(true);
    expect([installed('course-kit'), installed('typescript')]).toEqual([false, false]);
    expect(existsSync(path.join(dir, 'routes.ts')), 'sources stay in the build stage').toBe(false);

    const port = await freePort();
    server = await startServer(cmd[0]!, cmd.slice(1), {
      cwd: dir,
      env: { PATH: process.env['PATH'], ...env, PORT: String(port) },
      port,
    });
    expect(await text(`http://127.0.0.1:${port}/hello/ada`)).toBe(
      '{"greeting":"Hello, ada!","self":"/hello/ada"}',
    );
    expect(await text(`http://127.0.0.1:${port}/assets/hello.txt`)).toBe('hello from a file\n');
  }, 300_000);
});

// --- internal ---

interface Instruction {
  name: string;
  args: string;
}

function parse(dockerfile: string): Instruction[] {
  return dockerfile
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [name, ...rest] = line.trim().split(/\s+/);
      return { name: name!, args: rest.join(' ') };
    });
}

/** Carries out the Dockerfile; returns the last stage's folder, ENV and CMD. */
async function carryOut(dockerfile: string, context: string, parent: string) {
  const stages = new Map<string, string>();
  let dir = '';
  let workdir = '';
  let env: Record<string, string> = {};
  let cmd: string[] = [];
  for (const { name, args } of parse(dockerfile)) {
    if (name === 'FROM') {
      // Beside the app, at its depth: the `file:` paths to the packed packages still hold.
      dir = path.join(parent, `stage-${stages.size}`);
      mkdirSync(dir);
      env = {};
      const alias = /\bAS (\S+)$/i.exec(args)?.[1];
      stages.set(alias ?? String(stages.size), dir);
    } else if (name === 'WORKDIR') {
      workdir = args;
    } else if (name === 'COPY') {
      const from = /^--from=(\S+)\s+/.exec(args);
      const parts = args.replace(/^--from=\S+\s+/, '').split(/\s+/);
      const target = path.join(dir, parts.pop()!);
      for (const source of parts) {
        const origin = from
          ? path.join(stages.get(from[1]!)!, path.relative(workdir, source))
          : path.join(context, source);
        expect(existsSync(origin), `COPY ${source}: the app has no such file`).toBe(true);
        const into =
          parts.length > 1 || target.endsWith('/')
            ? path.join(target, path.basename(source))
            : target;
        cpSync(origin, source === '.' ? dir : into, {
          recursive: true,
          filter: (file) => !IGNORED.includes(path.relative(context, file).split(path.sep)[0]!),
        });
      }
    } else if (name === 'RUN') {
      if (/\bnpm ci\b/.test(args)) expectTarballsIn(dir);
      await run('sh', ['-c', args], { cwd: dir, env: { ...process.env, ...env } });
    } else if (name === 'ENV') {
      for (const pair of args.split(/\s+/)) {
        const [key, value] = pair.split('=');
        env[key!] = value!;
      }
    } else if (name === 'CMD') {
      cmd = JSON.parse(args) as string[];
      cmd[0] = cmd[0] === 'node' ? process.execPath : cmd[0]!;
    }
  }
  return { dir, env, cmd };
}

/** Every `file:` path the stage's lock file names is a file inside the stage. */
function expectTarballsIn(dir: string): void {
  const lock = readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
  const files = [...lock.matchAll(/"file:([^"]+)"/g)].map((m) => m[1]!);
  expect(files.length, 'the app installs Course from tarballs').toBeGreaterThan(0);
  for (const file of files) {
    const where = path.resolve(dir, file);
    expect(where.startsWith(dir + path.sep) && existsSync(where), `npm ci needs ${file}`).toBe(
      true,
    );
  }
}
