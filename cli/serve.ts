import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * How `course watch --serve FILE --runtime NAME` runs the server: in the runtime's own watch
 * mode (`workers`: `wrangler dev`), which restarts it whenever the file or a module it imports
 * changes — the generated module the watcher rewrites after each rebuild included. `args` go to
 * the runtime, before the file (Deno permissions, Node flags).
 */
export const SERVE_RUNTIMES: Record<string, (file: string, args: string[]) => Command> = {
  node: (file, args) => ({
    command: process.execPath,
    args: [tsxCli(), 'watch', '--clear-screen=false', ...args, file],
  }),
  bun: (file, args) => ({ command: 'bun', args: ['--watch', '--no-clear-screen', ...args, file] }),
  deno: (file, args) => ({
    command: 'deno',
    args: ['run', '--watch', '--no-clear-screen', ...DENO_PERMISSIONS, ...args, file],
  }),
  // wrangler bundles the Worker again whenever a module it bundles changes.
  workers: (file, args) => ({ command: 'wrangler', args: ['dev', ...args, file] }),
};

/** What `deno run` always allows: what a server that reads its routes' modules needs. */
const DENO_PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read'];

/** Where a runtime missing from `PATH` comes from. */
const INSTALL: Record<string, string> = {
  bun: 'npm install --save-dev bun, or see https://bun.sh',
  deno: 'npm install --save-dev deno, or see https://deno.com',
  wrangler: 'npm install --save-dev wrangler',
};

interface Command {
  command: string;
  args: string[];
}

/** The runtimes `--runtime` takes, or an error naming them when `name` is not one. */
export function serveRuntime(name: string): string | undefined {
  return Object.hasOwn(SERVE_RUNTIMES, name)
    ? undefined
    : `unknown runtime "${name}" for --serve: choose one of ${Object.keys(SERVE_RUNTIMES).join(', ')}`;
}

/**
 * The one line for a runtime whose command is not on `PATH`, checked before the first build so
 * that a missing runtime is the first thing said, not after seconds of building.
 */
export function missingRuntime(runtime: string): string | undefined {
  const { command } = SERVE_RUNTIMES[runtime]!('', []);
  return path.isAbsolute(command) || onPath(command) ? undefined : notFound(command, runtime);
}

/**
 * Starts the server `file` of the app in `root` on `runtime`, its output the terminal's;
 * `onMissing` hears one line when the runtime's command is not installed.
 */
export function startServe(
  runtime: string,
  file: string,
  args: string[],
  root: string,
  onMissing: (message: string) => void,
): ChildProcess {
  const { command, args: all } = SERVE_RUNTIMES[runtime]!(file, args);
  // One signing key for every server of this watch, unless the app's environment sets one: a
  // CSRF token or signed cookie made before a rebuild still holds after the restart.
  const env = { ...process.env, COURSE_SECRET: process.env['COURSE_SECRET'] || watchSecret() };
  // tsx's watcher runs in a process group of its own: a terminal's Ctrl-C reaches the watcher
  // alone, which passes one SIGTERM on. tsx takes a second signal (the group's SIGINT, then
  // ours) as a server that will not stop, and kills it mid-request.
  const own = runtime === 'node';
  const child = spawn(command, all, {
    cwd: path.resolve(root),
    stdio: own ? ['ignore', 'inherit', 'inherit'] : 'inherit',
    detached: own,
    env,
  });
  child.on('error', (error: NodeJS.ErrnoException) => {
    onMissing(
      error.code === 'ENOENT'
        ? notFound(command, runtime)
        : `${command} failed to start: ${error.message}`,
    );
  });
  return child;
}

// --- internal ---

let secret: string | undefined;

/** The key `COURSE_SECRET` gives the servers of this watch, made on first use. */
function watchSecret(): string {
  return (secret ??= randomBytes(32).toString('hex'));
}

function notFound(command: string, runtime: string): string {
  return `${command} not found on PATH, needed by --runtime ${runtime}: ${INSTALL[command] ?? 'install it'}`;
}

/** Whether an executable `command` is in a folder of `PATH` (with a `PATHEXT` ending on Windows). */
function onPath(command: string): boolean {
  const endings =
    process.platform === 'win32' ? (process.env['PATHEXT'] ?? '.EXE;.CMD').split(';') : [''];
  return (process.env['PATH'] ?? '').split(path.delimiter).some(
    (folder) =>
      folder !== '' &&
      endings.some((ending) => {
        try {
          accessSync(path.join(folder, command + ending), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
  );
}

function tsxCli(): string {
  return createRequire(import.meta.url).resolve('tsx/cli');
}
