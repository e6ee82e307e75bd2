import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
    return await located(
      action === 'seed' ? 'seeder' : 'migration',
      action === 'seed' ? paths.seeds : paths.migrations,
      paths.root,
      () => run(action, db, paths, out),
    );
  } finally {
    if (config) await disconnect(config);
    await api();
  }
}

// --- internal ---

type AppPaths = Awaited<ReturnType<typeof appPaths>>;

async function run(action: Action, db: Knex, paths: AppPaths, out: Output): Promise<number> {
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
    out.info(`ran ${files.length} seeder${files.length === 1 ? '' : 's'}`);
  }
  return 0;
}

/**
 * A migration or seeder that fails is one line: where in the app's file it failed (the deepest
 * frame in `folder`), and the database's message, without Knex's stack.
 */
async function located(
  what: string,
  folder: string,
  root: string,
  work: () => Promise<number>,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Error) || error instanceof CliError) throw error;
    const message = error.message
      .replace(/^\s*-\s*/, '')
      .replace(/\s+/g, ' ')
      .trim();
    const frame = frameIn(error.stack ?? '', folder);
    const where = frame ? `${path.relative(root, frame.file)}:${frame.line}:${frame.column}: ` : '';
    throw new CliError(`${where}the ${what} failed: ${message}`);
  }
}

function frameIn(
  stack: string,
  folder: string,
): { file: string; line: string; column: string } | undefined {
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/gm)) {
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (file.startsWith(folder + path.sep)) return { file, line: m[2]!, column: m[3]! };
  }
  return undefined;
}
