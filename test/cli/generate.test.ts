import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeApp, ROOT, runCli, writeApp } from '../_utils.js';

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
let dir: string;
const apps: string[] = [];

/** An app with Knex and SQLite installed, type-checked under strict tsc. */
function databaseApp(): string {
  const app = writeApp({
    'routes.ts': `import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n`,
  });
  apps.push(app);
  for (const pkg of ['knex', 'better-sqlite3'])
    symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(app, 'node_modules', pkg), 'dir');
  writeFileSync(
    path.join(app, 'tsconfig.json'),
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
  return app;
}

beforeAll(() => {
  dir = databaseApp();
});

afterAll(() => apps.forEach(removeApp));

const cli = (...args: string[]) => runCli([...args, '--root', dir], dir);
const tsc = (app = dir) =>
  new Promise<string>((resolve) =>
    execFile(process.execPath, [TSC, '-p', app], (_e, stdout, stderr) => resolve(stdout + stderr)),
  );

/**
 * Runs a TypeScript file of an app with node (and tsx), from `cwd`; killed after 90 s.
 * `lingered`: the ms from its last output to its end.
 */
const script = (file: string, cwd: string, env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string; lingered: number }>(
    (resolve) => {
      let printed = performance.now();
      const child = execFile(
        process.execPath,
        ['--import', TSX, file],
        { cwd, timeout: 90_000, env: { ...process.env, ...env } },
        (_e, stdout, stderr) =>
          resolve({ code: child.exitCode, stdout, stderr, lingered: performance.now() - printed }),
      );
      child.stdout!.on('data', () => (printed = performance.now()));
    },
  );

describe('generators', () => {
  it('create:model and create:controller [--resource] (or make:…) write files that compile under tsc', async () => {
    expect((await cli('create:model', 'Photo')).code).toBe(0);
    expect((await cli('create:controller', 'PageController')).code).toBe(0);
    expect((await cli('create:controller', 'PhotoController', '--resource')).code).toBe(0);
    // Laravel's spellings, typed by habit.
    expect((await cli('make:model', 'Note')).code).toBe(0);
    expect((await cli('make:controller', 'NoteController')).code).toBe(0);
    expect(existsSync(path.join(dir, 'app/Components/Model/Note.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'app/Components/Controller/NoteController.ts'))).toBe(true);
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
    { timeout: 180_000 },
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
      // The model's row type follows its migration: the column is added there too.
      const model = path.join(dir, 'app/Components/Model/Post.ts');
      expect(readFileSync(model, 'utf8')).toContain('declare static readonly row: PostRow;');
      writeFileSync(
        model,
        readFileSync(model, 'utf8').replace('id: number;', 'id: number;\n  title: string;'),
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
      expect(seed.stdout).toContain('ran 1 seeder\n');
      writeFileSync(
        path.join(dir, 'read.ts'),
        `import { Post } from './app/Components/Model/Post.js';\nimport { disconnect } from 'course-router/db';\nimport database from './app/Database/config.js';\nconst id = await Post.create({ title: 'third' });\nconsole.log(JSON.stringify({ id, rows: (await Post.all()).map((r) => r.title), found: (await Post.find(1))?.title }));\nawait disconnect(database);\n`,
      );
      const read = await script('read.ts', dir, env);
      expect(read.code, read.stderr).toBe(0);
      expect(JSON.parse(read.stdout)).toEqual({
        id: 3,
        rows: ['first', 'second', 'third'],
        found: 'first',
      });
      const back = await runCli(['migrate:rollback', '--root', dir], dir, env);
      expect(back.stdout).toMatch(/rolled back batch 1/);
    },
  );

  // One tsc for both files: its two errors are the misspelt file's, none the snippet's.
  it("a model's rows are typed, query()'s too: a misspelt column is a tsc error; the README snippet type-checks", async () => {
    writeFileSync(
      path.join(dir, 'app/typo.ts'),
      `import { Post } from './Components/Model/Post.js';
await Post.create({ titel: 'typo' });
const post = await Post.find(1);
export const title: string | undefined = post?.title;
export const nope = post?.body;
const first = await Post.query().where('id', 1).first();
export const firstTitle: string | undefined = first?.title;
export const firstNope = first?.body;
export const made: number = await Post.create({ title: 'x' });
await Post.find('abc');
await Post.where('title', 5);
await Post.update(1, { id: 5 });
await Post.delete(1);
`,
    );
    // The README snippet: create() gives the key find() takes.
    writeFileSync(
      path.join(dir, 'app/readme.ts'),
      `import { Post } from './Components/Model/Post.js';
const since = new Date(0);
const id = await Post.create({ title: 'Hello' });
const post = await Post.find(id);
const all = await Post.all();
await Post.update(id, { title: 'Hi' });
const recent = await Post.query().where('created_at', '>', since);
export const read: [typeof id, typeof post, typeof all, typeof recent] = [id, post, all, recent];
export const key: number | string = id;
`,
    );
    const output = await tsc();
    rmSync(path.join(dir, 'app/typo.ts'));
    expect(output).toMatch(
      /typo\.ts\(2,\d+\): error TS2561: .*'titel' does not exist in type 'NewRow<PostRow>'\. Did you mean to write 'title'\?/,
    );
    expect(output).toMatch(/typo\.ts\(5,\d+\): error TS2339: Property 'body' does not exist/);
    // query() is of the row type too: its rows are no `any`.
    expect(output).toMatch(/typo\.ts\(8,\d+\): error TS2339: Property 'body' does not exist/);
    // The key is the row's id (a number), and a column's value is of its type; the key stays.
    expect(output).toMatch(
      /typo\.ts\(10,\d+\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/,
    );
    expect(output).toMatch(
      /typo\.ts\(11,\d+\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/,
    );
    expect(output).toMatch(
      /typo\.ts\(12,\d+\): error TS2353: Object literal may only specify known properties, and 'id' does not exist/,
    );
    expect(output.match(/error TS/g)).toHaveLength(6);
  });

  it(
    'migrate --root from another folder makes the database in the app; a script using a model ends by itself',
    { timeout: 180_000 },
    async () => {
      const elsewhere = path.join(dir, 'elsewhere');
      mkdirSync(elsewhere);
      const migrate = await runCli(['migrate', '--root', '..'], elsewhere);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(existsSync(path.join(dir, 'database.sqlite'))).toBe(true);
      expect(readdirSync(elsewhere)).toEqual([]);
      // No disconnect(): the script's work done, nothing of the pool holds it open.
      writeFileSync(
        path.join(dir, 'count.ts'),
        `import { Post } from './app/Components/Model/Post.js';\nawait Post.create({ title: 'x' });\nconsole.log((await Post.all()).length);\n`,
      );
      const count = await script('../count.ts', elsewhere);
      expect(count.code, count.stderr).toBe(0);
      expect(count.stdout).toBe('1\n');
      // Ended once its work was done: a pool's timer would hold it until it is killed. Counted
      // from its output, not its start, which a loaded machine slows by seconds.
      expect(count.lingered).toBeLessThan(10_000);
      expect(readdirSync(elsewhere)).toEqual([]);
      // Compiled to dist/, the models open the same database: the app folder is found from the
      // compiled config too, not taken to be dist/.
      const built = await new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          [
            TSC,
            '-p',
            dir,
            '--noEmit',
            'false',
            '--outDir',
            path.join(dir, 'dist'),
            '--rootDir',
            dir,
          ],
          (_e, stdout, stderr) => resolve(stdout + stderr),
        ),
      );
      expect(built).toBe('');
      writeFileSync(
        path.join(dir, 'dist/count.mjs'),
        `import { Post } from './app/Components/Model/Post.js';\nconsole.log((await Post.all()).length);\n`,
      );
      const compiled = await script('../dist/count.mjs', elsewhere);
      expect(compiled.code, compiled.stderr).toBe(0);
      expect(compiled.stdout).toBe('1\n');
      expect(existsSync(path.join(dir, 'dist/database.sqlite'))).toBe(false);
    },
  );

  it("in an app that imports by .ts names (importExtension '.ts'), a model imports its config so", async () => {
    const app = databaseApp();
    writeFileSync(
      path.join(app, 'course.config.ts'),
      "export default { importExtension: '.ts' };\n",
    );
    const made = await runCli(['create:model', 'Story', '--root', app], app);
    expect(made.code, made.stderr).toBe(0);
    const model = readFileSync(path.join(app, 'app/Components/Model/Story.ts'), 'utf8');
    expect(model).toContain("from '../../Database/config.ts';");
    expect(readFileSync(path.join(dir, 'app/Components/Model/Post.ts'), 'utf8')).toContain(
      "from '../../Database/config.js';",
    );
  });
});

describe('generate:files names and --remove', () => {
  let app: string;
  beforeAll(() => {
    app = databaseApp();
  });
  const generate = (...args: string[]) => runCli(['generate:files', ...args, '--root', app], app);
  const migrations = () => readdirSync(path.join(app, 'app/Database/migrations')).sort();

  it('tables are English plurals of the last word', { timeout: 180_000 }, async () => {
    for (const name of ['Category', 'Person', 'BlogPost'])
      expect((await generate(`--component=${name}`)).code).toBe(0);
    expect(
      migrations()
        .map((f) => f.replace(/^\d+_/, ''))
        .sort(),
    ).toEqual(['create_blog_posts.ts', 'create_categories.ts', 'create_people.ts']);
    expect(readFileSync(path.join(app, 'app/Components/Model/Person.ts'), 'utf8')).toContain(
      "table = 'people'",
    );
    expect(await tsc(app)).toBe('');
  });

  it('checks every file before writing any: a model already there leaves the component unmade', async () => {
    expect((await runCli(['create:model', 'Widget', '--root', app], app)).code).toBe(0);
    const result = await generate('--component=Widget');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'course: app/Components/Model/Widget.ts already exists; nothing was written (remove it or choose another name)\n',
    );
    expect(existsSync(path.join(app, 'app/Components/Controller/WidgetController.ts'))).toBe(false);
    expect(existsSync(path.join(app, 'app/Database/seeds/WidgetSeed.ts'))).toBe(false);
    expect(migrations().filter((f) => f.endsWith('_create_widgets.ts'))).toEqual([]);
  });

  it('a failing seeder is one line: where in the seeder, and the message', async () => {
    writeFileSync(
      path.join(app, 'app/Database/seeds/BadSeed.ts'),
      `import type { Knex } from 'knex';\n\nexport async function seed(knex: Knex): Promise<void> {\n  await knex('widgets').insert([]);\n}\n`,
    );
    const env = { DATABASE_FILE: path.join(app, 'seed.sqlite') };
    const seed = await runCli(['seed', '--root', app], app, env);
    rmSync(path.join(app, 'app/Database/seeds/BadSeed.ts'));
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(
      /^course: app\/Database\/seeds\/BadSeed\.ts:4:\d+: the seeder failed: .*The query is empty\n$/,
    );
  });

  it('--remove deletes everything the generator made, migration found by name, and says what it keeps', async () => {
    expect((await generate('--component=Tag')).code).toBe(0);
    const made = [
      'app/Components/Controller/TagController.ts',
      'app/Components/Model/Tag.ts',
      'app/Database/seeds/TagSeed.ts',
    ];
    const [migration] = migrations().filter((f) => f.endsWith('_create_tags.ts'));
    expect(migration).toBeDefined();
    const refused = await generate('--component=Tag', '--remove');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --yes');
    const removed = await generate('--component=Tag', '--remove', '--yes');
    expect(removed.code, removed.stderr).toBe(0);
    for (const file of [...made, `app/Database/migrations/${migration}`]) {
      expect(existsSync(path.join(app, file)), file).toBe(false);
      expect(removed.stdout).toContain(`removed ${path.join(app, file)}`);
    }
    expect(removed.stdout).toContain(
      `kept ${path.join(app, 'app/Database/config.ts')}: every model uses it`,
    );
    expect(migrations().some((f) => f.includes('people'))).toBe(true);
    const again = await generate('--component=Tag', '--remove', '--yes');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no file of the component Tag exists');
  });
});
