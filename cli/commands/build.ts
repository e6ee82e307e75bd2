import path from 'node:path';
import { build } from '../../compiler/index.js';
import { printDiagnostics, type Output } from '../output.js';

/** Options of `course build`. */
export interface BuildCommandOptions {
  root: string;
  check?: boolean;
  quiet?: boolean;
}

/** `course build [--root DIR] [--check]`: returns the exit code. */
export async function runBuild(options: BuildCommandOptions, out: Output): Promise<number> {
  const result = await build({ root: options.root, check: options.check });
  printDiagnostics(result.warnings, result.config.root, out);
  const file = path.relative(process.cwd(), result.config.outFile) || result.config.outFile;
  if (options.check) {
    if (result.changed) {
      out.error(`${file} is out of date: run \`course build\` and commit it`);
      return 1;
    }
    if (!options.quiet) out.info(`${file} is up to date (${result.app.routes.length} routes)`);
    return 0;
  }
  if (!options.quiet) {
    const verb = result.written ? 'wrote' : 'unchanged';
    out.info(
      `${verb} ${file}: ${result.app.routes.length} routes from ${result.files.length} files in ${Math.round(result.milliseconds)} ms`,
    );
  }
  return 0;
}
