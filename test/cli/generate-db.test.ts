import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeApp, ROOT, runCli, writeApp } from '../_utils.js';

const apps: string[] = [];
afterAll(() => apps.forEach(removeApp));

/** An app; with `knex`, Knex and SQLite are installed in it. */
function app({ knex }: { knex: boolean }): string {
  const dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n`,
  });
  apps.push(dir);
  if (knex)
    for (const pkg of ['knex', 'better-sqlite3'])
      symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(dir, 'node_modules', pkg), 'dir');
  return dir;
}

const cli = (dir: string, ...args: string[]) => runCli([...args, '--root', dir], dir);
const INSTALL = 'which is not installed: npm install knex better-sqlite3\n';

describe('generators that write database files, without Knex installed', () => {
  it('refuse with the install line, exit 1 and write nothing', async () => {
    const dir = app({ knex: false });
    expect(await cli(dir, 'generate:files', '--component=Comment')).toEqual({
      code: 1,
      stdout: '',
      stderr: `course: generate:files needs the package "knex", ${INSTALL}`,
    });
    expect(await cli(dir, 'create:model', 'Comment')).toEqual({
      code: 1,
      stdout: '',
      stderr: `course: create:model needs the package "knex", ${INSTALL}`,
    });
    expect(existsSync(path.join(dir, 'app'))).toBe(false);
    // A controller imports no Knex: it is written.
    expect((await cli(dir, 'create:controller', 'Comment')).code).toBe(0);
  });
});

describe('generate:files --remove', () => {
  const database = (dir: string) => path.join(dir, 'app/Database');

  it('removes the database configuration and the empty folders with the last component', async () => {
    const dir = app({ knex: true });
    expect((await cli(dir, 'generate:files', '--component=Comment')).code).toBe(0);
    const removed = await cli(dir, 'generate:files', '--component=Comment', '--remove', '--yes');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).not.toContain('kept');
    expect(removed.stdout).toContain(`removed ${path.join(database(dir), 'config.ts')}\n`);
    for (const folder of ['Database/migrations', 'Database/seeds', 'Database'])
      expect(removed.stdout).toContain(`removed ${path.join(dir, 'app', folder)}${path.sep}\n`);
    expect(readdirSync(path.join(dir, 'app'))).toEqual([]);
  });

  it('keeps the configuration, saying why, while a model or a migration is left', async () => {
    const dir = app({ knex: true });
    for (const name of ['Comment', 'Tag'])
      expect((await cli(dir, 'generate:files', `--component=${name}`)).code).toBe(0);
    const config = path.join(database(dir), 'config.ts');
    const first = await cli(dir, 'generate:files', '--component=Comment', '--remove', '--yes');
    expect(first.stdout).toContain(`kept ${config}: every model uses it\n`);
    // A migration written by hand still needs the configuration once the last model is gone.
    const own = path.join(database(dir), 'migrations/20250101000000_add_index.ts');
    writeFileSync(own, 'export async function up(): Promise<void> {}\n');
    const second = await cli(dir, 'generate:files', '--component=Tag', '--remove', '--yes');
    expect(second.stdout).toContain(`kept ${config}: the migrations and seeders left use it\n`);
    expect(second.stdout).toContain(`removed ${path.join(database(dir), 'seeds')}${path.sep}\n`);
    expect(existsSync(config)).toBe(true);
    expect(readdirSync(path.join(database(dir), 'migrations'))).toEqual([path.basename(own)]);
  });

  it('create:model --remove of the last model removes the configuration too', async () => {
    const dir = app({ knex: true });
    expect((await cli(dir, 'create:model', 'Photo')).code).toBe(0);
    const removed = await cli(dir, 'create:model', 'Photo', '--remove', '--yes');
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(database(dir))).toBe(false);
    expect(existsSync(path.join(dir, 'app/Components/Model'))).toBe(false);
  });
});

describe('create:controller names the class as generate:files does', () => {
  it('adds the Controller suffix to a name without it and keeps it on one with it', async () => {
    const dir = app({ knex: false });
    const controllers = path.join(dir, 'app/Components/Controller');
    expect((await cli(dir, 'create:controller', 'Article', '--resource')).code).toBe(0);
    expect((await cli(dir, 'create:controller', 'PageController')).code).toBe(0);
    expect(readdirSync(controllers).sort()).toEqual(['ArticleController.ts', 'PageController.ts']);
    const article = readFileSync(path.join(controllers, 'ArticleController.ts'), 'utf8');
    expect(article).toContain('export class ArticleController extends Controller');
    expect(article).toContain("Course.resource('articles', 'ArticleController')");
    const again = await cli(dir, 'create:controller', 'ArticleController');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ArticleController.ts already exists');
    expect((await cli(dir, 'create:controller', 'Article', '--remove', '--yes')).code).toBe(0);
    expect(readdirSync(controllers)).toEqual(['PageController.ts']);
  });
});
