import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

// Paths are the app folder's, not the current folder's: the app, a script run from anywhere and
// `course migrate --root <app>` open the same file.
const app = fileURLToPath(new URL('%%appFolder%%', import.meta.url));

/** The app's database: SQLite in a file by default; any Knex client in production. */
const config: Knex.Config = {
  client: 'better-sqlite3',
  connection: { filename: path.resolve(app, process.env['DATABASE_FILE'] ?? 'database.sqlite') },
  useNullAsDefault: true,
};

export default config;
