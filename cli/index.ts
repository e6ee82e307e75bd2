#!/usr/bin/env node
import { Command } from 'commander';
// Each command's module is loaded when it runs: `--version`, `--help`, `init` and the
// generators never load the compiler (TypeScript, prettier), which takes most of a second.
const commands = {
  build: () => import('./commands/build.js'),
  database: () => import('./commands/database.js'),
  generate: () => import('./commands/generate.js'),
  init: () => import('./commands/init.js'),
  routes: () => import('./commands/routes.js'),
  watch: () => import('./commands/watch.js'),
};
import { begin, finish, guardProcess } from './lifetime.js';
import { processOutput, reportFailure } from './output.js';
import { ownVersion } from './_package.js';

const program = new Command('course')
  .description('Compile route files into a typed dispatch module, and the tools around it.')
  .version(ownVersion())
  .showHelpAfterError();

program
  .command('build')
  .description('compile routes.ts and routers/ into generated/routes.gen.ts')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--check', 'write nothing; exit 1 if the generated module is out of date')
  .option('--quiet', 'print only problems')
  .option('--json', 'print one JSON object for tools (errors and warnings included)')
  .option('--strict', 'warnings fail the build (exit 1), as errors do: for CI')
  .action(
    async (options: {
      root: string;
      check?: boolean;
      quiet?: boolean;
      json?: boolean;
      strict?: boolean;
    }) => {
      process.exitCode = await run(async () =>
        (await commands.build()).runBuild(options, processOutput),
      );
    },
  );

program
  .command('watch')
  .description('build, then rebuild whenever a route file or a module it uses changes')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--quiet', 'print only writes and problems')
  .option('--serve <file>', 'also run this server file, restarted on every change')
  .option(
    '--runtime <name>',
    'what runs the --serve file in its watch mode: node (tsx), bun, deno or workers (wrangler dev)',
    'node',
  )
  .argument(
    '[args...]',
    'after --, flags for the runtime (deno has --allow-net --allow-env --allow-read)',
  )
  .addHelpText(
    'after',
    `
Examples:
  course watch --serve server.ts                  serve with Node (tsx watch)
  course watch --serve server.ts --runtime bun    serve with bun --watch
  course watch --serve server.ts --runtime deno -- --allow-write --env-file
  course watch --serve worker.ts --runtime workers -- --port 8787`,
  )
  .action(
    async (
      args: string[],
      options: { root: string; quiet?: boolean; serve?: string; runtime: string },
    ) => {
      process.exitCode = await run(async () =>
        (await commands.watch()).runWatch({ ...options, args }, processOutput),
      );
    },
  );

program
  .command('init [dir]')
  .description('create a new app: package.json, tsconfig.json, routes.ts, a controller, server.ts')
  .option(
    '--packages <dir>',
    'install Course from the tarballs of `npm pack --workspaces` in <dir>, copied into vendor/',
  )
  .option('--runtime <name>', 'the server to write: node, bun, deno or workers', 'node')
  .action(async (dir: string | undefined, options: { packages?: string; runtime?: string }) => {
    process.exitCode = await run(async () =>
      (await commands.init()).runInit(dir ?? '.', options, processOutput),
    );
  });

program
  .command('routes')
  .description('print the route table: verbs, URL, name, handler, middleware, source')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--json', 'print JSON for tools')
  .action(async (options: { root: string; json?: boolean }) => {
    process.exitCode = await run(async () =>
      (await commands.routes()).runRoutes(options, processOutput),
    );
  });

type GenerateFlags = { root: string; remove?: boolean; yes?: boolean; resource?: boolean };
const generator = (name: string, description: string) =>
  program
    .command(name)
    .description(description)
    .option('--root <dir>', 'the app folder', process.cwd())
    .option('--remove', 'delete the file instead (asks first)')
    .option('--yes', 'do not ask before deleting');

// `make:…`, as Laravel names them, for those who type it by habit.
generator('create:model <Name>', 'create a model class in app/Components/Model')
  .alias('make:model')
  .action(async (name: string, options: GenerateFlags) => {
    process.exitCode = await run(async () =>
      (await commands.generate()).createModel(name, options, processOutput),
    );
  });

generator('create:controller <Name>', 'create a controller class in app/Components/Controller')
  .alias('make:controller')
  .option('--resource', 'with the seven resource methods')
  .action(async (name: string, options: GenerateFlags) => {
    process.exitCode = await run(async () =>
      (await commands.generate()).createController(name, options, processOutput),
    );
  });

generator('generate:files', 'create <Name>Controller, model <Name>, a migration and <Name>Seed')
  .requiredOption('--component <Name>', 'the component name')
  .action(async (options: GenerateFlags & { component: string }) => {
    process.exitCode = await run(async () =>
      (await commands.generate()).generateFiles(options.component, options, processOutput),
    );
  });

for (const [name, action, description] of [
  ['migrate', 'migrate', 'run the pending migrations (Knex) on the app database'],
  ['migrate:rollback', 'rollback', 'undo the last batch of migrations'],
  ['seed', 'seed', 'run the seeders'],
] as const) {
  program
    .command(name)
    .description(description)
    .option('--root <dir>', 'the app folder', process.cwd())
    .action(async (options: { root: string }) => {
      process.exitCode = await run(async () =>
        (await commands.database()).runDatabase(action, options, processOutput),
      );
    });
}

guardProcess(processOutput);
await program.parseAsync(process.argv);
finish();

async function run(command: () => Promise<number>): Promise<number> {
  begin();
  try {
    return await command();
  } catch (error) {
    return reportFailure(error, processOutput);
  }
}
