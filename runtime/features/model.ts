import type knex from 'knex';
import type { Knex } from 'knex';
import { DATABASE_PACKAGES, packagePath, requirePackage } from '../packages.js';

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

/** The row type a model class declares (`declare static readonly row: PostRow`), else `Row`. */
export type RowOf<M> = M extends { readonly row: infer R extends Row } ? R : Row;

/** The name of a model's primary key: its `primaryKey` when a subclass names it, else `id`. */
type KeyName<M> = M extends { readonly primaryKey: infer P extends string }
  ? string extends P
    ? 'id'
    : P
  : 'id';

/** A model's primary key type: its row's key column (`PostRow['id']`, a number), else `Key`. */
export type KeyOf<M> = KeyName<M> extends keyof RowOf<M> ? Extract<RowOf<M>[KeyName<M>], Key> : Key;

/** The columns the database fills itself: an insert may leave them out. */
type AutoColumns = 'id' | 'created_at' | 'updated_at';

/** What `create()` takes: every column of the row but those the database fills. */
export type NewRow<R> = Omit<R, AutoColumns> & Partial<Pick<R, AutoColumns & keyof R>>;

/**
 * A table of the app's database. Subclasses set `table` and `database` (a Knex configuration),
 * and declare their row type (`declare static readonly row: PostRow`), which types what every
 * method reads and writes; every read and write goes through these methods or `query()`.
 */
export abstract class Model {
  static readonly table: string;
  static readonly database: Knex.Config;
  static readonly primaryKey: string = 'id';
  /** The type of a row of the table, for tsc only: declared by subclasses, never set. */
  declare static readonly row: Row;

  /** A query builder on the table, of its row type: `await Post.query().first()` is a `PostRow`. */
  static query<M extends typeof Model>(this: M): Knex.QueryBuilder<RowOf<M>, RowOf<M>[]> {
    return connect(this.database)<RowOf<M>, RowOf<M>[]>(this.table);
  }

  static all<M extends typeof Model>(this: M): Promise<RowOf<M>[]> {
    return builder(this).select('*').orderBy(this.primaryKey);
  }

  static async find<M extends typeof Model>(this: M, id: KeyOf<M>): Promise<RowOf<M> | undefined> {
    return (await builder(this).where(this.primaryKey, id).first()) as RowOf<M> | undefined;
  }

  static where<M extends typeof Model, C extends keyof RowOf<M> & string>(
    this: M,
    column: C,
    value: RowOf<M>[C],
  ): Promise<RowOf<M>[]> {
    return builder(this)
      .where(column, value as Knex.Value)
      .select('*');
  }

  /** Inserts a row and returns its primary key. */
  static async create<M extends typeof Model>(
    this: M,
    values: NewRow<RowOf<M>>,
  ): Promise<KeyOf<M>> {
    const [inserted] = (await builder(this)
      .insert(values as Row)
      .returning(this.primaryKey)) as unknown[];
    // A row where the database honours `returning` (SQLite, PostgreSQL); the id where not (MySQL).
    const key =
      typeof inserted === 'object' ? (inserted as Row | null)?.[this.primaryKey] : inserted;
    if (typeof key !== 'number' && typeof key !== 'string')
      throw new Error(`course: the insert into ${this.table} returned no ${this.primaryKey}`);
    return key as KeyOf<M>;
  }

  /** Updates a row (not its primary key); the number of rows changed. */
  static update<M extends typeof Model>(
    this: M,
    id: KeyOf<M>,
    values: Partial<Omit<RowOf<M>, KeyName<M>>>,
  ): Promise<number> {
    return builder(this)
      .where(this.primaryKey, id)
      .update(values as Row);
  }

  /** Deletes a row; the number of rows deleted. */
  static delete<M extends typeof Model>(this: M, id: KeyOf<M>): Promise<number> {
    return builder(this).where(this.primaryKey, id).delete();
  }
}

// --- internal ---

/** The table's query builder, for the methods above: they type what they return themselves. */
function builder(model: typeof Model): Knex.QueryBuilder {
  return connect(model.database)(model.table);
}

function open(config: Knex.Config): Knex {
  const make = requirePackage<typeof knex>('knex', 'course-router/db', {
    install: DATABASE_PACKAGES,
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
