#!/usr/bin/env node
import { Command } from 'commander';
import { runBuild } from './commands/build.js';
import { runRoutes } from './commands/routes.js';
import { runWatch } from './commands/watch.js';
import { processOutput, reportFailure } from './output.js';

const program = new Command('course')
  .description('Compile route files into a typed dispatch module, and the tools around it.')
  .showHelpAfterError();

program
  .command('build')
  .description('compile routes.ts and routers/ into generated/routes.gen.ts')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--check', 'write nothing; exit 1 if the generated module is out of date')
  .option('--quiet', 'print only problems')
  .action(async (options: { root: string; check?: boolean; quiet?: boolean }) => {
    process.exitCode = await run(() => runBuild(options, processOutput));
  });

program
  .command('watch')
  .description('build, then rebuild whenever a route file or a module it uses changes')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--quiet', 'print only writes and problems')
  .action(async (options: { root: string; quiet?: boolean }) => {
    process.exitCode = await run(() => runWatch(options, processOutput));
  });

program
  .command('routes')
  .description('print the route table: verbs, URL, name, handler, middleware, source')
  .option('--root <dir>', 'the app folder', process.cwd())
  .option('--json', 'print JSON for tools')
  .action(async (options: { root: string; json?: boolean }) => {
    process.exitCode = await run(() => runRoutes(options, processOutput));
  });

await program.parseAsync(process.argv);

async function run(command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    return reportFailure(error, processOutput);
  }
}
