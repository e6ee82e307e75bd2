import type knex from 'knex';
import type { Knex } from 'knex';
import { packagePath, requirePackage } from '../packages.js';

const connections = new WeakMap<Knex.Config, Knex>();

/**
 * One Knex instance per configuration object, made on first use. A script that used it ends
 * when its work is done (see `freeProcess`); `disconnect()` closes it sooner.
 */
export function connect(config: Knex.Config): Knex {
  let connection = connections.get(config);
  if (!connection) connections.set(config, (connection = open(config)));
  return connection;
}

/**
 * Closes the connection made for `config`, if any. A script needs it only with a network
 * database, whose open connections hold the process.
 */
export async function disconnect(config: Knex.Config): Promise<void> {
  const connection = connections.get(config);
  connections.delete(config);
  await connection?.destroy();
}

/** A row as the database returns it. */
export type Row = Record<string, unknown>;

/** A primary key: a number for an auto-increment id (SQLite, MySQL), a string for text keys. */
export type Key = number | string;

/**
 * A table of the app's database. Subclasses set `table` and `database` (a Knex configuration);
 * every read and write goes through these methods or `query()`.
 */
export abstract class Model {
  static readonly table: string;
  static readonly database: Knex.Config;
  static readonly primaryKey: string = 'id';

  /** A query builder on the table. */
  static query(): Knex.QueryBuilder {
    return connect(this.database)(this.table);
  }

  static all(): Promise<Row[]> {
    return this.query().select('*').orderBy(this.primaryKey);
  }

  static async find(id: Key): Promise<Row | undefined> {
    return (await this.query().where(this.primaryKey, id).first()) as Row | undefined;
  }

  static where(column: string, value: Knex.Value): Promise<Row[]> {
    return this.query().where(column, value).select('*');
  }

  /** Inserts a row and returns its primary key. */
  static async create(values: Row): Promise<Key> {
    const [inserted] = (await this.query().insert(values).returning(this.primaryKey)) as unknown[];
    // A row where the database honours `returning` (SQLite, PostgreSQL); the id where not (MySQL).
    const key =
      typeof inserted === 'object' ? (inserted as Row | null)?.[this.primaryKey] : inserted;
    if (typeof key !== 'number' && typeof key !== 'string')
      throw new Error(`course: the insert into ${this.table} returned no ${this.primaryKey}`);
    return key;
  }

  /** Updates a row; the number of rows changed. */
  static update(id: Key, values: Row): Promise<number> {
    return this.query().where(this.primaryKey, id).update(values);
  }

  /** Deletes a row; the number of rows deleted. */
  static delete(id: Key): Promise<number> {
    return this.query().where(this.primaryKey, id).delete();
  }
}

// --- internal ---

const SQLITE = 'better-sqlite3';

function open(config: Knex.Config): Knex {
  const make = requirePackage<typeof knex>('knex', 'course-router/db', {
    install: `knex ${SQLITE}`,
  });
  requireDriver(make, config);
  const connection = make(config);
  freeProcess(connection);
  return connection;
}

/**
 * Checks that the configuration's driver is installed where Knex will require it. Knex's own
 * error for a missing driver comes with its stack printed on the console.
 */
function requireDriver(make: typeof knex, config: Knex.Config): void {
  if (!config.client || !config.connection) return;
  // Knex knows each client's driver: an instance with no connection loads nothing (and, silent,
  // warns about nothing).
  const probe = make({ client: config.client, log: { warn: () => {} } });
  const driver = (probe.client as { driverName?: string }).driverName;
  if (driver)
    requirePackage(driver, `the "${driver}" database client`, { from: packagePath('knex') });
}

/**
 * The pool's reaping timer (tarn's, started by the first query) holds no process open, so that a
 * script that used a model ends: a server stays up through its own sockets. A network
 * database's open connections still hold a script until `disconnect()`; SQLite's do not.
 */
function freeProcess(connection: Knex): void {
  const pool = connection.client.pool as
    | { on(event: 'startReaping', listener: () => void): void; interval?: NodeJS.Timeout | null }
    | undefined;
  pool?.on('startReaping', () => queueMicrotask(() => pool.interval?.unref()));
}
