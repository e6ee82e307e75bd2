import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DATABASE_PACKAGES, MissingPackageError } from 'course-router/internal';

/** The files and folders of an app's database layer that the generators write. */
export interface DatabasePaths {
  controllers: string;
  models: string;
  migrations: string;
  seeds: string;
  database: string;
}

/**
 * Refuses, before anything is written, to generate files that import Knex in an app that has not
 * installed it: they would not compile. The line is the one `course migrate` prints.
 */
export function requireKnex(root: string, command: string): void {
  try {
    createRequire(path.join(root, 'package.json')).resolve('knex');
  } catch {
    throw new MissingPackageError('knex', command, DATABASE_PACKAGES);
  }
}

/**
 * What to delete with `removing` (model, migration, seeder files): the database configuration
 * when no model, migration or seeder is left to use it, else the line saying why it stays.
 */
export function sharedConfig(
  paths: DatabasePaths,
  removing: readonly string[],
): { files: string[]; kept?: string } {
  const left = (folder: string) => entries(folder).some((file) => !removing.includes(file));
  if (!existsSync(paths.database)) return { files: [] };
  if (left(paths.models)) return { files: [], kept: `kept ${paths.database}: every model uses it` };
  if (left(paths.migrations) || left(paths.seeds))
    return {
      files: [],
      kept: `kept ${paths.database}: the migrations and seeders left use it`,
    };
  return { files: [paths.database] };
}

/** Removes the generators' folders that are left empty, deepest first; returns them. */
export function removeEmptyFolders(paths: DatabasePaths): string[] {
  const folders = [
    paths.migrations,
    paths.seeds,
    path.dirname(paths.database),
    paths.models,
    paths.controllers,
    path.dirname(paths.models),
  ];
  return folders.filter((folder) => {
    if (!existsSync(folder) || readdirSync(folder).length > 0) return false;
    rmdirSync(folder);
    return true;
  });
}

// --- internal ---

function entries(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).map((file) => path.join(folder, file)) : [];
}
