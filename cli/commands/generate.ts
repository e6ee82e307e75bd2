import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from 'course-compiler';
import type { Output } from '../output.js';
import { checkName, importPath, remove, scaffold, tableName } from '../scaffold.js';

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
    controllers: path.join(app, 'Components/Controller'),
    models: path.join(app, 'Components/Model'),
    migrations: path.join(app, 'Database/migrations'),
    seeds: path.join(app, 'Database/seeds'),
    database: path.join(app, 'Database/config.ts'),
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
  if (options.remove) return removed(file, !!options.yes, out);
  await ensureDatabaseConfig(paths.database, out);
  await scaffold(file, 'model.ts.tpl', {
    name: model,
    table: tableName(model),
    configImport: importPath(file, paths.database),
  });
  out.info(`created ${file}`);
  return 0;
}

/** `course create:controller <Name> [--resource] [--remove]`. */
export async function createController(
  name: string | undefined,
  options: GenerateOptions,
  out: Output,
): Promise<number> {
  const controller = checkName(name, 'controller');
  const paths = await appPaths(options.root);
  const file = path.join(paths.controllers, `${controller}.ts`);
  if (options.remove) return removed(file, !!options.yes, out);
  const template = options.resource ? 'resource-controller.ts.tpl' : 'controller.ts.tpl';
  const route = tableName(controller.replace(/Controller$/, '') || controller);
  await scaffold(file, template, { name: controller, path: route });
  out.info(`created ${file}`);
  return 0;
}

/** `course generate:files --component=<Name>`: controller, model, migration and seeder. */
export async function generateFiles(
  component: string | undefined,
  options: GenerateOptions,
  out: Output,
): Promise<number> {
  const name = checkName(component, 'component');
  const paths = await appPaths(options.root);
  const table = tableName(name);
  await createController(`${name}Controller`, options, out);
  await createModel(name, options, out);
  if (options.remove) return 0;
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

async function ensureDatabaseConfig(file: string, out: Output): Promise<void> {
  if (existsSync(file)) return;
  await scaffold(file, 'database-config.ts.tpl', {});
  out.info(`created ${file}`);
}

async function removed(file: string, yes: boolean, out: Output): Promise<number> {
  await remove(file, yes);
  out.info(`removed ${file}`);
  return 0;
}
