import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeApp, ROOT, runCli, writeApp } from '../_utils.js';

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
let dir: string;

beforeAll(() => {
  dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n`,
  });
  for (const pkg of ['knex', 'better-sqlite3'])
    symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(dir, 'node_modules', pkg), 'dir');
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['app/**/*.ts'],
    }),
  );
});

afterAll(() => removeApp(dir));

const cli = (...args: string[]) => runCli([...args, '--root', dir], dir);
const tsc = () =>
  new Promise<string>((resolve) =>
    execFile(process.execPath, [TSC, '-p', dir], (_e, stdout, stderr) => resolve(stdout + stderr)),
  );

describe('generators', () => {
  it('create:model and create:controller [--resource] write files that compile under tsc', async () => {
    expect((await cli('create:model', 'Photo')).code).toBe(0);
    expect((await cli('create:controller', 'PageController')).code).toBe(0);
    expect((await cli('create:controller', 'PhotoController', '--resource')).code).toBe(0);
    expect(existsSync(path.join(dir, 'app/Components/Model/Photo.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'app/Database/config.ts'))).toBe(true);
    const resource = readFileSync(
      path.join(dir, 'app/Components/Controller/PhotoController.ts'),
      'utf8',
    );
    for (const method of ['index', 'create', 'store', 'show', 'edit', 'update', 'destroy'])
      expect(resource).toContain(`${method}(`);
    expect(await tsc()).toBe('');
  });

  it('never overwrites; a bad name is a clear error', async () => {
    const again = await cli('create:model', 'Photo');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    const bad = await cli('create:controller', 'bad-name');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'invalid controller name "bad-name": use PascalCase letters and digits, e.g. BadName',
    );
  });

  it('--remove refuses without a terminal and without --yes; --remove --yes removes', async () => {
    const refused = await cli('create:controller', 'PageController', '--remove');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --yes');
    expect((await cli('create:controller', 'PageController', '--remove', '--yes')).code).toBe(0);
    expect(existsSync(path.join(dir, 'app/Components/Controller/PageController.ts'))).toBe(false);
  });

  it(
    'generate:files --component=Post, a column added, migrate, seed, and rows read back through the model',
    { timeout: 60_000 },
    async () => {
      const made = await cli('generate:files', '--component=Post');
      expect(made.code, made.stderr).toBe(0);
      const migrations = path.join(dir, 'app/Database/migrations');
      const [migration] = readdirSync(migrations);
      const file = path.join(migrations, migration!);
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          "table.increments('id');",
          "table.increments('id');\n    table.string('title').notNullable();",
        ),
      );
      const seeder = path.join(dir, 'app/Database/seeds/PostSeed.ts');
      writeFileSync(
        seeder,
        readFileSync(seeder, 'utf8').replace(
          'const rows: Record<string, unknown>[] = [];',
          "const rows: Record<string, unknown>[] = [{ title: 'first' }, { title: 'second' }];",
        ),
      );
      expect(await tsc()).toBe('');
      const env = { DATABASE_FILE: path.join(dir, 'test.sqlite') };
      const migrate = await runCli(['migrate', '--root', dir], dir, env);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toMatch(/batch 1: .*create_posts/);
      const seed = await runCli(['seed', '--root', dir], dir, env);
      expect(seed.stdout).toContain('ran 1 seeders');
      writeFileSync(
        path.join(dir, 'read.ts'),
        `import { Post } from './app/Components/Model/Post.js';\nimport { disconnect } from 'course-router/db';\nimport database from './app/Database/config.js';\nconst id = await Post.create({ title: 'third' });\nconsole.log(JSON.stringify({ id, rows: (await Post.all()).map((r) => r.title), found: (await Post.find(1))?.title }));\nawait disconnect(database);\n`,
      );
      const read = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [
            '--import',
            pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
            'read.ts',
          ],
          { cwd: dir, env: { ...process.env, ...env } },
          (e, stdout, stderr) => (e ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      );
      expect(JSON.parse(read)).toEqual({
        id: 3,
        rows: ['first', 'second', 'third'],
        found: 'first',
      });
      const back = await runCli(['migrate:rollback', '--root', dir], dir, env);
      expect(back.stdout).toMatch(/rolled back batch 1/);
    },
  );
});
