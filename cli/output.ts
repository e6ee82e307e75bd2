import { BuildError, type RouteDefinitionError } from '../compiler/index.js';
import { CliError } from './scaffold.js';

/** Where the CLI prints: stdout for results, stderr for problems. */
export interface Output {
  info(line: string): void;
  error(line: string): void;
}

/** The process's streams. */
export const processOutput: Output = {
  info: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

/** Prints warnings as `file:line:col: warning …`. */
export function printDiagnostics(
  warnings: readonly RouteDefinitionError[],
  root: string,
  out: Output,
): void {
  for (const warning of warnings) out.error(warning.format(root).replace(': error ', ': warning '));
}

/**
 * The top-level error policy: a build error prints its located messages and gives 1;
 * anything else is a bug in the tool or the environment, printed with its stack.
 */
export function reportFailure(error: unknown, out: Output): number {
  if (error instanceof BuildError) {
    out.error(error.message);
    out.error(`build failed: ${error.errors.length} error${error.errors.length === 1 ? '' : 's'}`);
    return 1;
  }
  if (error instanceof CliError) {
    out.error(`course: ${error.message}`);
    return 1;
  }
  out.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 2;
}
