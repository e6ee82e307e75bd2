import type { Knex } from 'knex';

/** The app's database: SQLite in a file by default; any Knex client in production. */
const config: Knex.Config = {
  client: 'better-sqlite3',
  connection: { filename: process.env['DATABASE_FILE'] ?? 'database.sqlite' },
  useNullAsDefault: true,
};

export default config;
