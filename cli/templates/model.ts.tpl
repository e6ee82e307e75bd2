import { Model } from 'course-router/db';
import database from '%%configImport%%';

/** A row of `%%table%%` as its migration creates it: a column added there is added here. */
export type %%name%%Row = {
  id: number;
  created_at: Date | string;
  updated_at: Date | string;
};

/** The `%%table%%` table: every read and write of it goes through this class. */
export class %%name%% extends Model {
  static override readonly table = '%%table%%';
  static override readonly database = database;
  declare static readonly row: %%name%%Row;
}
