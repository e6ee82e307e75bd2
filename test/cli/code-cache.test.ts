import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheEntry, cacheCandidates, cacheFolder } from '../../compiler/dist/code-cache-file.js';
import { removeApp, ROOT, runCli, writeApp } from '../_utils.js';

const ROUTES = `import { Course } from 'course-router';
Course.get('/user/{id}', (id: string) => ({ id })).where('id', '[0-9]+').name('user.show');
Course.post('/posts', () => 'made').name('posts.store');
`;

// Each build runs the real CLI with its cache in a folder of its own (`COURSE_CACHE_DIR`), so
// what a test does to the cache meets no other test's builds.
let app: string;
let scratch: string;

/** Builds the app (or `dir`) afresh, its generated module removed first; returns the module. */
async function build(env: NodeJS.ProcessEnv, dir = app): Promise<string> {
  rmSync(path.join(dir, 'generated'), { recursive: true, force: true });
  const result = await runCli(['build', '--root', dir, '--quiet'], ROOT, env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8');
}

/** The cache's files in `folder`, by name, with a digest of their bytes. */
function entries(folder: string): Map<string, string> {
  if (!existsSync(folder)) return new Map();
  const digest = (name: string) =>
    createHash('sha1')
      .update(readFileSync(path.join(folder, name)))
      .digest('hex');
  return new Map(
    readdirSync(folder)
      .sort()
      .map((name) => [name, digest(name)]),
  );
}

beforeAll(() => {
  app = writeApp({ 'routes.ts': ROUTES });
  scratch = path.join(app, 'scratch');
  mkdirSync(scratch);
});
afterAll(() => removeApp(app));

describe('the code cache of course build', () => {
  const cache = () => path.join(scratch, 'cache');
  let cold: string;

  it('cold builds write the cache; a warm build uses it and writes the same module', async () => {
    // Two at once, as the test run's workers do: each writes every entry, and renames it.
    const twin = writeApp({ 'routes.ts': ROUTES });
    try {
      const builds = [
        build({ COURSE_CACHE_DIR: cache() }),
        build({ COURSE_CACHE_DIR: cache() }, twin),
      ];
      [cold] = (await Promise.all(builds)) as [string, string];
      expect(await builds[1]).toBe(cold);
    } finally {
      removeApp(twin);
    }
    const written = entries(cache());
    // ts-morph, the TypeScript it bundles (typescript.js), and prettier's TypeScript and estree
    // plugins; modules under 100 KB (prettier's standalone build among them) are not cached.
    expect(
      [...written.keys()].map((name) => name.replace(/-[0-9a-f]{16}\.bin$/, '')).sort(),
    ).toEqual(['estree.js', 'ts-morph-common.js', 'ts-morph.js', 'typescript.js', 'typescript.js']);
    const mtimes = [...written.keys()].map((name) => statSync(path.join(cache(), name)).mtimeMs);

    expect(await build({ COURSE_CACHE_DIR: cache() })).toBe(cold);
    // V8 took every entry: none was written again.
    expect(entries(cache())).toEqual(written);
    expect([...written.keys()].map((name) => statSync(path.join(cache(), name)).mtimeMs)).toEqual(
      mtimes,
    );
    expect(readdirSync(cache()).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('garbage, truncated and altered entries build the same module and are written anew', async () => {
    const good = entries(cache());
    const header = (name: string) => readFileSync(path.join(cache(), name)).subarray(0, 40);
    const headers = new Map([...good.keys()].map((name) => [name, header(name)]));
    [...good.keys()].forEach((name, i) => {
      const bytes = readFileSync(path.join(cache(), name));
      if (i % 3 === 0) bytes.fill(0x5a); // garbage of the same length
      if (i % 3 === 1) bytes.writeUInt8(bytes.at(-1)! ^ 1, bytes.length - 1); // a bit of V8's data
      writeFileSync(path.join(cache(), name), i % 3 === 2 ? bytes.subarray(0, 1000) : bytes);
    });
    const spoilt = entries(cache());

    expect(await build({ COURSE_CACHE_DIR: cache() })).toBe(cold);
    const repaired = entries(cache());
    expect([...repaired.keys()]).toEqual([...good.keys()]);
    for (const name of repaired.keys()) {
      expect(repaired.get(name), `${name} is written anew`).not.toBe(spoilt.get(name));
      expect(header(name).equals(headers.get(name)!), `${name} is for the same module`).toBe(true);
    }
    // The repaired entries are taken as they are.
    expect(await build({ COURSE_CACHE_DIR: cache() })).toBe(cold);
    expect(entries(cache())).toEqual(repaired);
  });

  it('a cache folder that cannot be written falls back to the next, then to none, and the build goes on', async () => {
    const blocked = path.join(scratch, 'a-file');
    writeFileSync(blocked, 'not a folder');
    const temp = path.join(scratch, 'tmp');
    mkdirSync(temp);
    const fallback = path.join(temp, `course-cache-${process.getuid?.() ?? 'user'}`);
    expect(cacheFolder([path.join(blocked, 'cache'), fallback])).toBe(fallback);
    rmSync(fallback, { recursive: true });
    writeFileSync(fallback, 'not a folder either');
    expect(cacheFolder([path.join(blocked, 'cache'), fallback])).toBeUndefined();
    // The real build, with both blocked: the same module, no cache anywhere.
    expect(await build({ COURSE_CACHE_DIR: path.join(blocked, 'cache'), TMPDIR: temp })).toBe(cold);
    expect(statSync(fallback).isFile()).toBe(true);
    expect(readdirSync(temp).filter((name) => name.startsWith('course-'))).toEqual([
      path.basename(fallback),
    ]);
  });

  it('a folder other users may write is never used: code read from it would run as the build', () => {
    const shared = path.join(scratch, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const own = path.join(shared, 'own');
    expect(cacheFolder([shared, own])).toBe(own);
    expect(statSync(own).mode & 0o777).toBe(0o700);
    chmodSync(own, 0o777);
    expect(cacheFolder([shared, own])).toBeUndefined();
  });

  it('a temporary file left by a process killed as it wrote is removed by a later write', () => {
    const folder = path.join(scratch, 'left');
    mkdirSync(folder);
    const entry = new CacheEntry(folder, path.join(ROOT, 'package.json'));
    const left = `${entry.file}.123.abc.tmp`;
    const writing = `${entry.file}.456.def.tmp`;
    writeFileSync(left, 'half');
    writeFileSync(writing, 'half');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(left, hourAgo, hourAgo);
    entry.write(Buffer.from('data'));
    // The old one goes; one another process may be writing now stays.
    expect(readdirSync(folder).sort()).toEqual(
      [path.basename(entry.file), path.basename(writing)].sort(),
    );
    expect(entry.read()?.toString()).toBe('data');
  });

  it('COURSE_NO_CACHE=1 builds the same module and writes no cache', async () => {
    const none = path.join(scratch, 'none');
    expect(await build({ COURSE_CACHE_DIR: none, COURSE_NO_CACHE: '1' })).toBe(cold);
    expect(existsSync(none)).toBe(false);
  });

  it('lives in node_modules/.cache/course beside the packages, else in the temporary folder', () => {
    const env = process.env['COURSE_CACHE_DIR'];
    delete process.env['COURSE_CACHE_DIR'];
    try {
      const typescript = path.join(ROOT, 'node_modules/ts-morph/dist/ts-morph.js');
      const temp = path.join(os.tmpdir(), `course-cache-${process.getuid?.() ?? 'user'}`);
      expect(cacheCandidates(typescript)).toEqual([
        path.join(ROOT, 'node_modules/.cache/course'),
        temp,
      ]);
      expect(cacheCandidates('/elsewhere/ts-morph.js')).toEqual([temp]);
    } finally {
      if (env !== undefined) process.env['COURSE_CACHE_DIR'] = env;
    }
  });
});
