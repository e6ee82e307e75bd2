// `course build` and `course routes` for a whole test run, in one long-lived process: the CLI's
// own command functions and error printing (cli/dist), without paying the start of a process
// (TypeScript, prettier, tsx) per build. It listens on the socket named by its argument; each
// line a test sends, `{ id, args, cwd }`, is answered with a line `{ id, code, stdout, stderr }`,
// as `runCli` gives them. Jobs run one at a time (a build changes the directory and records the
// route calls process-wide). It tells its parent `ready` once it listens.
import { createServer } from 'node:net';
import process from 'node:process';
import { runBuild } from '../cli/dist/commands/build.js';
import { runRoutes } from '../cli/dist/commands/routes.js';
import { reportFailure } from '../cli/dist/output.js';

const COMMANDS = { build: runBuild, routes: runRoutes };
const FLAGS = new Set(['--check', '--quiet', '--json']);

let queue = Promise.resolve();
/** The output of the job running, which a stray error (a timer a route file set) joins. */
let current;

for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    if (current) current.stderr.push(`course: ${error instanceof Error ? error.message : error}`);
  });
}
process.on('disconnect', () => process.exit(0));

const server = createServer((socket) => {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const job = JSON.parse(pending.slice(0, end));
      pending = pending.slice(end + 1);
      queue = queue.then(async () => {
        const result = await run(job);
        if (!socket.destroyed) socket.write(`${JSON.stringify(result)}\n`);
      });
    }
  });
});
server.listen(process.argv[2], () => process.send?.('ready'));

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
    if (!(command in COMMANDS)) throw new Error(`the CLI server does not run \`${command}\``);
    code = await COMMANDS[command](parse(rest, cwd), out);
  } catch (error) {
    code = reportFailure(error, out);
  }
  current = undefined;
  const text = (list) => list.map((line) => `${line}\n`).join('');
  return { id, code, stdout: text(lines.stdout), stderr: text(lines.stderr) };
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
