import type { ChildProcess } from 'node:child_process';
import { BuildError, watch } from 'course-compiler';
import { onStrayError, strayError } from '../lifetime.js';
import { count, printDiagnostics, reportFailure, type Output } from '../output.js';
import { CliError } from '../scaffold.js';
import { missingRuntime, serveRuntime, startServe } from '../serve.js';
import { outputs } from './build.js';

/**
 * `course watch [--root DIR] [--serve FILE [--runtime NAME] [-- ARGS]]`: rebuild on change;
 * errors are printed and watching goes on. With `--serve`, the server file runs on `runtime`
 * (Node with tsx, Bun, Deno or `wrangler dev`, each in its watch mode: restarted whenever the file or a module it
 * imports changes, the generated one included) once a build has succeeded.
 */
export async function runWatch(
  options: { root: string; quiet?: boolean; serve?: string; runtime?: string; args?: string[] },
  out: Output,
): Promise<number> {
  const runtime = options.runtime ?? 'node';
  const unknown = serveRuntime(runtime);
  if (unknown) throw new CliError(unknown);
  if (options.args?.length && options.serve === undefined)
    throw new CliError(`${options.args.join(' ')}: flags for the runtime need --serve FILE`);
  const missing = options.serve === undefined ? undefined : missingRuntime(runtime);
  if (missing) {
    out.error(missing);
    return 1;
  }
  let server: ChildProcess | undefined;
  let code = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  // The server never outlives the watcher, however it ends.
  process.on('exit', () => server?.kill('SIGTERM'));
  onStrayError((error) => out.error(`build failed: ${strayError(error)}`));
  const watcher = watch({
    root: options.root,
    onBuild: (outcome) => {
      if ('error' in outcome) {
        if (outcome.error instanceof BuildError) reportFailure(outcome.error, out);
        else
          out.error(
            `build failed: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`,
          );
        return;
      }
      const { result } = outcome;
      printDiagnostics(result.warnings, result.config.root, out);
      if (options.serve !== undefined)
        server ??= startServe(runtime, options.serve, options.args ?? [], options.root, (line) => {
          out.error(line);
          code = 1;
          stop();
        });
      if (options.quiet && !result.written) return;
      const file = outputs(result);
      out.info(
        `${result.written ? 'wrote' : 'unchanged'} ${file}: ${count(result.app.routes.length, 'route')} in ${Math.round(result.milliseconds)} ms`,
      );
    },
  });
  await watcher.ready;
  out.info('watching for changes (Ctrl-C to stop)');
  // A closed terminal too: a server in a process group of its own would outlive it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  await stopped;
  await Promise.all([server && stopServer(server), watcher.close()]);
  return code;
}

// How long a server is given to close after SIGTERM before it is killed.
const SERVER_GRACE_MS = 3000;

/**
 * Stops the `--serve` server: SIGTERM, then SIGKILL if it is still running after
 * `SERVER_GRACE_MS`. `deno run --watch` ends the script on SIGTERM (the server's own handler
 * exits) but keeps watching, alive, for the next change.
 */
function stopServer(server: ChildProcess): Promise<void> {
  // No pid: the runtime never started (not installed).
  if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null)
    return Promise.resolve();
  return new Promise((resolve) => {
    // The whole group of a server in one of its own (tsx's watcher and the server it runs).
    const timer = setTimeout(() => killGroup(server), SERVER_GRACE_MS);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

function killGroup(server: ChildProcess): void {
  try {
    process.kill(-server.pid!, 'SIGKILL');
  } catch {
    // No group of its own: the runtime alone.
    server.kill('SIGKILL');
  }
}
