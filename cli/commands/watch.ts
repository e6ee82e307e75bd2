import path from 'node:path';
import { BuildError, watch } from 'course-compiler';
import { printDiagnostics, reportFailure, type Output } from '../output.js';

/** `course watch [--root DIR]`: rebuild on change; errors are printed and watching goes on. */
export async function runWatch(
  options: { root: string; quiet?: boolean },
  out: Output,
): Promise<number> {
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
      if (options.quiet && !result.written) return;
      const file = path.relative(process.cwd(), result.config.outFile) || result.config.outFile;
      out.info(
        `${result.written ? 'wrote' : 'unchanged'} ${file}: ${result.app.routes.length} routes in ${Math.round(result.milliseconds)} ms`,
      );
    },
  });
  await watcher.ready;
  out.info('watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => {
    const stop = () => void watcher.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
