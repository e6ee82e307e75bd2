import { readFileSync } from 'node:fs';
import { styleText } from 'node:util';
import { BuildError, type RouteDefinitionError } from 'course-compiler/errors';
import { MissingPackageError } from 'course-router/internal';
import { CliError } from './scaffold.js';

/** Where the CLI prints: stdout for results, stderr for problems. */
export interface Output {
  info(line: string): void;
  error(line: string): void;
  /** Colour is used only on a terminal, and never with NO_COLOR. */
  color: boolean;
}

/** The process's streams. */
export const processOutput: Output = {
  info: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
  color: !!process.stderr.isTTY && !process.env['NO_COLOR'],
};

/** Prints warnings as `file:line:col: warning …`, each with its code frame. */
export function printDiagnostics(
  warnings: readonly RouteDefinitionError[],
  root: string,
  out: Output,
): void {
  for (const warning of warnings) {
    const text = warning.format(root).replace(': error ', ': warning ');
    out.error(`${paint(out, 'yellow', text)}\n${codeFrame(warning, out)}`);
  }
}

/**
 * The top-level error policy: a build error prints its located messages with code frames and
 * gives 1; a usage problem, or a package to install, its message and 1; anything else is a bug
 * in the tool or the environment, printed with its stack, and gives 2.
 */
export function reportFailure(error: unknown, out: Output): number {
  if (error instanceof BuildError) {
    for (const e of error.errors)
      out.error(`${paint(out, 'red', e.format(error.root))}\n${codeFrame(e, out)}`);
    out.error(`build failed: ${error.errors.length} error${error.errors.length === 1 ? '' : 's'}`);
    return 1;
  }
  if (error instanceof CliError) {
    out.error(`course: ${error.message}`);
    return 1;
  }
  if (error instanceof MissingPackageError) {
    out.error(error.message);
    return 1;
  }
  out.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 2;
}

/** `1 route`, `2 routes`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Three lines of the source around a located problem, the column marked. */
export function codeFrame(problem: RouteDefinitionError, out: Output): string {
  let lines: string[];
  try {
    lines = readFileSync(problem.loc.file, 'utf8').split('\n');
  } catch {
    return '';
  }
  const { line, column } = problem.loc;
  const width = String(line + 1).length;
  const frame: string[] = [];
  for (let n = Math.max(1, line - 1); n <= Math.min(lines.length, line + 1); n++) {
    const gutter = `${n === line ? '>' : ' '} ${String(n).padStart(width)} | `;
    frame.push(paint(out, n === line ? 'bold' : 'gray', gutter) + lines[n - 1]);
    if (n === line)
      frame.push(
        `${' '.repeat(gutter.length)}${' '.repeat(Math.max(0, column - 1))}${paint(out, 'red', '^')}`,
      );
  }
  return frame.join('\n');
}

// --- internal ---

function paint(out: Output, style: Parameters<typeof styleText>[0], text: string): string {
  return out.color ? styleText(style, text) : text;
}
