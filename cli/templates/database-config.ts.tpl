import path from 'node:path';
import type { Knex } from 'knex';
import { appFolder } from 'course-router/db';

// Paths are the app folder's (the nearest above this file with a package.json), not the current
// folder's: the app, its build in dist/, a script run from anywhere and `course migrate --root
// <app>` open the same file.
const app = appFolder(import.meta.url);

/** The app's database: SQLite in a file by default; any Knex client in production. */
const config: Knex.Config = {
  client: 'better-sqlite3',
  connection: { filename: path.resolve(app, process.env['DATABASE_FILE'] ?? 'database.sqlite') },
  useNullAsDefault: true,
};

export default config;
