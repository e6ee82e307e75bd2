import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedTarballs } from '../_install.js';
import { ROOT, type CliResult } from '../_utils.js';

// `course-router` as npm installs it in an app: the packed tarball unpacked into the app's
// node_modules, beside its dependencies and, when asked, its optional peers. Nothing resolves
// through the repository's own node_modules.

const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'runtime/package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const PEERS = Object.keys(PACKAGE.peerDependencies);

// Every module the process resolves, as the ESM loader sees it; `require()` calls are read from
// `require.cache` by the scripts themselves.
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}`;
const REGISTER = `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { log: process.env.MODULE_LOG } });`;
const MARK = `import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const mark = (step) => appendFileSync(process.env.MODULE_LOG, Object.keys(cache).join('\\n') + '\\n# ' + step + '\\n');
`;
const SQLITE = (filename: string, client = 'better-sqlite3') =>
  `{ client: '${client}', connection: { filename: '${filename}' }, useNullAsDefault: true }`;

let work: string;
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'course-install-'));
  tarball = path.join(await packedTarballs(), `course-router-${PACKAGE.version}.tgz`);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An app with the packed package, its dependencies and `extra` packages installed. */
function installedApp(name: string, extra: string[] = []): string {
  const dir = path.join(work, name);
  const pkg = path.join(dir, 'node_modules/course-router');
  mkdirSync(pkg, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1']);
  for (const dep of [...Object.keys(PACKAGE.dependencies ?? {}), ...extra])
    symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(dir, 'node_modules', dep), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(path.join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(path.join(dir, 'register.mjs'), REGISTER);
  return dir;
}

/** Runs `script` with node in `dir`, the module log on; killed after 30 s. */
function run(dir: string, script: string, args: string[] = []): Promise<CliResult> {
  writeFileSync(path.join(dir, 'script.mjs'), script);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', './register.mjs', ...(args.length ? args : ['script.mjs'])],
      { cwd: dir, timeout: 30_000, env: { ...process.env, MODULE_LOG: path.join(dir, 'log') } },
      (_error, stdout, stderr) => resolve({ code: child.exitCode ?? -1, stdout, stderr }),
    );
  });
}

/** The packages (other than course-router) loaded before each `# step` line of the log. */
function loadedBySteps(dir: string): Record<string, string[]> {
  const steps: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const line of readFileSync(path.join(dir, 'log'), 'utf8').split('\n')) {
    if (line.startsWith('# ')) steps[line.slice(2)] = [...seen].sort();
    const at = line.lastIndexOf('/node_modules/');
    if (at === -1) continue;
    const parts = line.slice(at + '/node_modules/'.length).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    if (name !== 'course-router') seen.add(name);
  }
  return steps;
}

describe('course-router installed in an app', () => {
  it('import loads no package; each feature loads its own on first use, and the script ends', async () => {
    const dir = installedApp('full', PEERS);
    const result = await run(
      dir,
      `${MARK}
const course = await import('course-router');
const db = await import('course-router/db');
mark('import');
const hash = await course.passHash('secret', 4);
mark('hash');
const database = ${SQLITE('app.sqlite')};
await db.connect(database).schema.createTable('posts', (t) => { t.increments('id'); t.string('title'); });
class Post extends db.Model { static table = 'posts'; static database = database; }
const id = await Post.create({ title: 'Hello' });
mark('query');
await import('course-router/redis');
mark('redis');
console.log(JSON.stringify({ hash, verified: await course.passVerify('secret', hash), post: await Post.find(id) }));
`,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { hash: string; verified: boolean; post: unknown };
    // The bcrypt worker shipped in dist and found bcryptjs from where the package is installed.
    expect(out.hash).toMatch(/^\$2y\$04\$/);
    expect(out.verified).toBe(true);
    expect(out.post).toEqual({ id: 1, title: 'Hello' });
    const steps = loadedBySteps(dir);
    expect(steps['import']).toEqual([]);
    // bcryptjs runs in its thread: the server's own thread still loads nothing.
    expect(steps['hash']).toEqual([]);
    expect(steps['query']).toEqual(expect.arrayContaining(['better-sqlite3', 'knex']));
    expect(steps['query']).not.toContain('ioredis');
    expect(steps['redis']).toContain('ioredis');
  });

  it('a missing database driver is one error naming its install, with nothing printed', async () => {
    const dir = installedApp('driver', PEERS);
    const result = await run(
      dir,
      `import { Model } from 'course-router/db';
class Post extends Model { static table = 'posts'; static database = ${SQLITE('app.sqlite', 'sqlite3')}; }
try { await Post.all(); } catch (error) { console.log(error.message); }
`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      'course: the "sqlite3" database client needs the package "sqlite3", which is not installed: npm install sqlite3\n',
    );
  });

  describe('without the optional peers', () => {
    let dir: string;
    beforeAll(() => {
      dir = installedApp('bare');
    });

    it('course-router/db imports, and its first query names the install', async () => {
      const result = await run(
        dir,
        `import { Model } from 'course-router/db';
class Post extends Model { static table = 'posts'; static database = ${SQLITE('app.sqlite')}; }
try { await Post.all(); } catch (error) { console.log(error.message); }
try { await import('course-router/redis'); } catch (error) { console.log(error.message); }
`,
      );
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n')).toEqual([
        'course: course-router/db needs the package "knex", which is not installed: npm install knex better-sqlite3',
        'course: course-router/redis needs the package "ioredis", which is not installed: npm install ioredis',
        '',
      ]);
    });
  });
});
