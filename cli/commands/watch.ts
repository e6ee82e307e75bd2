import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BuildError, watch } from 'course-compiler';
import { onStrayError, strayError } from '../lifetime.js';
import { count, printDiagnostics, reportFailure, type Output } from '../output.js';
import { outputs } from './build.js';

/**
 * `course watch [--root DIR] [--serve FILE]`: rebuild on change; errors are printed and watching
 * goes on. With `--serve`, the server file runs (tsx, restarted whenever it or a module it
 * imports changes, the generated one included) once a build has succeeded.
 */
export async function runWatch(
  options: { root: string; quiet?: boolean; serve?: string },
  out: Output,
): Promise<number> {
  let server: ChildProcess | undefined;
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
      if (options.serve !== undefined) server ??= serve(options.serve, options.root);
      if (options.quiet && !result.written) return;
      const file = outputs(result);
      out.info(
        `${result.written ? 'wrote' : 'unchanged'} ${file}: ${count(result.app.routes.length, 'route')} in ${Math.round(result.milliseconds)} ms`,
      );
    },
  });
  await watcher.ready;
  out.info('watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => {
    const stop = () => {
      server?.kill('SIGTERM');
      void watcher.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

// --- internal ---

/** Runs `file` with tsx in watch mode, its output the terminal's. */
function serve(file: string, root: string): ChildProcess {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  return spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', file], {
    cwd: path.resolve(root),
    stdio: 'inherit',
  });
}
