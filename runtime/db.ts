/**
 * `course-router/db`: the base of generated models, over Knex. Knex and the database driver
 * (better-sqlite3 for the default SQLite) are loaded by the first query, so an app that imports
 * this entry without using a model loads neither; a missing one is an error naming its install.
 */
export { connect, disconnect, Model } from './features/model.js';
export { appFolder } from './features/app-folder.js';
export type { Row, Key, KeyOf } from './features/model.js';
