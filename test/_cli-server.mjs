// `course build` and `course routes` for the tests of one file, run in one long-lived process:
// the CLI's own command functions and error printing (cli/dist), without paying the start of a
// process (TypeScript, prettier, tsx) per build. The parent sends `{ id, args, cwd }` and gets
// back `{ id, code, stdout, stderr }`, as `runCli` gives them. Jobs run one at a time.
import process from 'node:process';
import { runBuild } from '../cli/dist/commands/build.js';
import { runRoutes } from '../cli/dist/commands/routes.js';
import { reportFailure } from '../cli/dist/output.js';

const COMMANDS = { build: runBuild, routes: runRoutes };
const FLAGS = new Set(['--check', '--quiet', '--json']);

let queue = Promise.resolve();
/** The output of the job running, which a stray error (a timer a route file set) joins. */
let current;

process.on('message', (job) => {
  queue = queue.then(() => run(job));
});
process.on('disconnect', () => process.exit(0));
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    if (current) current.stderr.push(`course: ${error instanceof Error ? error.message : error}`);
  });
}

async function run({ id, args, cwd }) {
  const lines = { stdout: [], stderr: [] };
  const out = {
    info: (line) => lines.stdout.push(line),
    error: (line) => lines.stderr.push(line),
    color: false,
  };
  current = lines;
  let code;
  try {
    process.chdir(cwd);
    const [command, ...rest] = args;
    code = await COMMANDS[command](parse(rest, cwd), out);
  } catch (error) {
    code = reportFailure(error, out);
  }
  current = undefined;
  const text = (list) => list.map((line) => `${line}\n`).join('');
  process.send({ id, code, stdout: text(lines.stdout), stderr: text(lines.stderr) });
}

/** The options of `--root DIR` and the boolean flags; anything else is a mistake in a test. */
function parse(rest, cwd) {
  const options = { root: cwd };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--root') options.root = rest[++i];
    else if (FLAGS.has(rest[i])) options[rest[i].slice(2)] = true;
    else throw new Error(`the CLI server does not know the argument ${rest[i]}`);
  }
  return options;
}
