/**
 * `course-router/db`: the base of generated models, over Knex. A separate entry, so apps
 * without a database never load Knex.
 */
import knex, { type Knex } from 'knex';

const connections = new WeakMap<Knex.Config, Knex>();

/** One Knex instance per configuration object, made on first use. */
export function connect(config: Knex.Config): Knex {
  let connection = connections.get(config);
  if (!connection) connections.set(config, (connection = knex(config)));
  return connection;
}

/** Closes the connection made for `config`, if any. */
export async function disconnect(config: Knex.Config): Promise<void> {
  const connection = connections.get(config);
  connections.delete(config);
  await connection?.destroy();
}

/** A row as the database returns it. */
export type Row = Record<string, unknown>;

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

  static async find(id: Knex.Value): Promise<Row | undefined> {
    return (await this.query().where(this.primaryKey, id).first()) as Row | undefined;
  }

  static where(column: string, value: Knex.Value): Promise<Row[]> {
    return this.query().where(column, value).select('*');
  }

  /** Inserts a row and returns its primary key. */
  static async create(values: Row): Promise<unknown> {
    const [inserted] = (await this.query().insert(values).returning(this.primaryKey)) as Row[];
    return inserted?.[this.primaryKey];
  }

  /** Updates a row; the number of rows changed. */
  static update(id: Knex.Value, values: Row): Promise<number> {
    return this.query().where(this.primaryKey, id).update(values);
  }

  /** Deletes a row; the number of rows deleted. */
  static delete(id: Knex.Value): Promise<number> {
    return this.query().where(this.primaryKey, id).delete();
  }
}
