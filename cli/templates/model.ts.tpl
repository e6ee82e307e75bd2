import { Model } from 'course-router/db';
import database from '%%configImport%%';

/** The `%%table%%` table: every read and write of it goes through this class. */
export class %%name%% extends Model {
  static override readonly table = '%%table%%';
  static override readonly database = database;
}
