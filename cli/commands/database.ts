import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { register } from 'tsx/esm/api';
import { connect, disconnect } from 'course-router/db';
import type { Output } from '../output.js';
import { CliError } from '../scaffold.js';
import { appPaths } from './generate.js';

type Action = 'migrate' | 'rollback' | 'seed';

/**
 * `course migrate`, `course migrate:rollback`, `course seed`: Knex on the app's database, through
 * the connection the models use (`course-router/db`). Every path is the app's, whatever the
 * current folder: the configuration resolves the database file against the app folder too.
 */
export async function runDatabase(
  action: Action,
  options: { root: string },
  out: Output,
): Promise<number> {
  const paths = await appPaths(options.root);
  // Migrations, seeders and the config are TypeScript: loaded through tsx, like route files.
  const api = register();
  let config: Knex.Config | undefined;
  try {
    config = (
      (await import(pathToFileURL(paths.database).href).catch(() => {
        throw new CliError(
          `no database configuration at ${paths.database}; run course create:model first`,
        );
      })) as { default: Knex.Config }
    ).default;
    const db = connect(config);
    const migrations = { directory: paths.migrations, loadExtensions: ['.ts', '.js'] };
    if (action === 'migrate') {
      const [batch, files] = (await db.migrate.latest(migrations)) as [number, string[]];
      out.info(files.length ? `batch ${batch}: ${files.join(', ')}` : 'already up to date');
    } else if (action === 'rollback') {
      const [batch, files] = (await db.migrate.rollback(migrations)) as [number, string[]];
      out.info(
        files.length ? `rolled back batch ${batch}: ${files.join(', ')}` : 'nothing to roll back',
      );
    } else {
      const [files] = (await db.seed.run({
        directory: paths.seeds,
        loadExtensions: ['.ts', '.js'],
      })) as [string[]];
      out.info(`ran ${files.length} seeders`);
    }
    return 0;
  } finally {
    if (config) await disconnect(config);
    await api();
  }
}
