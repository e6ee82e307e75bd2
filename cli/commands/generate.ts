import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from 'course-compiler/config';
import { removeEmptyFolders, requireKnex, sharedConfig } from '../database-files.js';
import type { Output } from '../output.js';
import { checkName, CliError, importPath, remove, scaffold, tableName } from '../scaffold.js';

/** Options shared by the generators. */
export interface GenerateOptions {
  root: string;
  remove?: boolean;
  yes?: boolean;
  resource?: boolean;
}

/** Where an app keeps what the generators make (CONTRACT 3). */
export async function appPaths(root: string) {
  const config = await loadConfig(root);
  const app = config.namespaces['App'] ?? path.join(config.root, 'app');
  return {
    root: config.root,
    controllers: path.join(app, 'Components/Controller'),
    models: path.join(app, 'Components/Model'),
    migrations: path.join(app, 'Database/migrations'),
    seeds: path.join(app, 'Database/seeds'),
    database: path.join(app, 'Database/config.ts'),
    importExtension: config.importExtension,
  };
}

/** `course create:model <Name> [--remove]`. */
export async function createModel(
  name: string | undefined,
  options: GenerateOptions,
  out: Output,
): Promise<number> {
  const model = checkName(name, 'model');
  const paths = await appPaths(options.root);
  const file = path.join(paths.models, `${model}.ts`);
  if (options.remove) return removeDatabaseFiles([file], paths, !!options.yes, out);
  requireKnex(paths.root, 'create:model');
  await ensureDatabaseConfig(paths, out);
  await scaffold(file, 'model.ts.tpl', {
    name: model,
    table: tableName(model),
    configImport: importPath(file, paths.database, paths.importExtension),
  });
  out.info(`created ${file}`);
  return 0;
}

/**
 * `course create:controller <Name> [--resource] [--remove]`: the class `<Name>Controller`, as
 * `generate:files` and the routes name it (a name ending in `Controller` is kept as it is).
 */
export async function createController(
  name: string | undefined,
  options: GenerateOptions,
  out: Output,
): Promise<number> {
  const given = checkName(name, 'controller');
  const controller = given.endsWith('Controller') ? given : `${given}Controller`;
  const paths = await appPaths(options.root);
  const file = path.join(paths.controllers, `${controller}.ts`);
  if (options.remove) return removed([file], !!options.yes, out);
  const template = options.resource ? 'resource-controller.ts.tpl' : 'controller.ts.tpl';
  const route = tableName(controller.replace(/Controller$/, '') || controller);
  await scaffold(file, template, { name: controller, path: route });
  out.info(`created ${file}`);
  return 0;
}

/**
 * `course generate:files --component=<Name> [--remove]`: controller, model, migration and
 * seeder; `--remove` deletes those of them that exist, migrations found by name.
 */
export async function generateFiles(
  component: string | undefined,
  options: GenerateOptions,
  out: Output,
): Promise<number> {
  const name = checkName(component, 'component');
  const paths = await appPaths(options.root);
  const table = tableName(name);
  if (options.remove) return removeComponent(name, table, paths, !!options.yes, out);
  requireKnex(paths.root, 'generate:files');
  // Every file is checked before any is written: a component is made whole or not at all.
  const existing = existingFiles(name, table, paths);
  if (existing.length > 0) {
    const list = existing.map((file) => path.relative(paths.root, file)).join(', ');
    throw new CliError(
      `${list} already exist${existing.length === 1 ? 's' : ''}; nothing was written (remove ${existing.length === 1 ? 'it' : 'them'} or choose another name)`,
    );
  }
  await createController(`${name}Controller`, options, out);
  await createModel(name, options, out);
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const migration = path.join(paths.migrations, `${stamp}_create_${table}.ts`);
  await scaffold(migration, 'migration.ts.tpl', { table });
  out.info(`created ${migration}`);
  const seeder = path.join(paths.seeds, `${name}Seed.ts`);
  await scaffold(seeder, 'seeder.ts.tpl', { table });
  out.info(`created ${seeder}`);
  return 0;
}

// --- internal ---

type AppPaths = Awaited<ReturnType<typeof appPaths>>;

/** The files of a component that exist: controller, model, migrations, seeder. */
function existingFiles(name: string, table: string, paths: AppPaths): string[] {
  return [
    path.join(paths.controllers, `${name}Controller.ts`),
    path.join(paths.models, `${name}.ts`),
    ...migrationsOf(table, paths),
    path.join(paths.seeds, `${name}Seed.ts`),
  ].filter((file) => existsSync(file));
}

/** The migrations that create `table` (`<stamp>_create_<table>.ts`). */
function migrationsOf(table: string, paths: AppPaths): string[] {
  const migration = new RegExp(`^\\d+_create_${table}\\.ts$`);
  return (existsSync(paths.migrations) ? readdirSync(paths.migrations) : [])
    .filter((file) => migration.test(file))
    .map((file) => path.join(paths.migrations, file));
}

async function ensureDatabaseConfig(paths: AppPaths, out: Output): Promise<void> {
  if (existsSync(paths.database)) return;
  await scaffold(paths.database, 'database-config.ts.tpl', {});
  out.info(`created ${paths.database}`);
}

async function removed(files: string[], yes: boolean, out: Output): Promise<number> {
  await remove(files, yes);
  for (const file of files) out.info(`removed ${file}`);
  return 0;
}

/** Everything `generate:files` made for the component (`removeDatabaseFiles`). */
async function removeComponent(
  name: string,
  table: string,
  paths: AppPaths,
  yes: boolean,
  out: Output,
): Promise<number> {
  const files = existingFiles(name, table, paths);
  if (files.length === 0) throw new CliError(`no file of the component ${name} exists`);
  return removeDatabaseFiles(files, paths, yes, out);
}

/**
 * Removes `files`, with the database configuration when no model, migration or seeder is left
 * to use it (one confirmation for all), then the generators' folders left empty.
 */
async function removeDatabaseFiles(
  files: string[],
  paths: AppPaths,
  yes: boolean,
  out: Output,
): Promise<number> {
  const config = sharedConfig(paths, files);
  await removed([...files, ...config.files], yes, out);
  if (config.kept) out.info(config.kept);
  for (const folder of removeEmptyFolders(paths)) out.info(`removed ${folder}${path.sep}`);
  return 0;
}
