import type { Output } from './output.js';

// Route files run in this process while it builds. Whatever they leave behind, a command ends
// when its work is done, and never ends unnoticed before: a timer or an open connection does
// not keep it alive (`finish`), a `process.exit()` or a top-level await that never settles
// is told as such and fails, and an error nothing awaited is one line, not a stack.

let running = false;
let finished = false;
let strayHandler: ((error: unknown) => void) | undefined;

/** Installs the guards, once, before a command runs. */
export function guardProcess(out: Output): void {
  const stray = (error: unknown): void => {
    if (strayHandler) return strayHandler(error);
    out.error(`course: ${strayError(error)}`);
    finished = true;
    process.exit(1);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
  process.on('exit', (code) => {
    // `--help`, `--version` and a usage error end before any command runs.
    if (!running || finished) return;
    out.error(
      'course: stopped before the command finished: a route file called process.exit(), or awaited something that never settles',
    );
    if (code === 0) process.exitCode = 1;
  });
}

/** Marks a command's start: from now on, an end before `finish` is told. */
export function begin(): void {
  running = true;
}

/** Where an error nothing awaited goes instead (`course watch` prints it and goes on). */
export function onStrayError(handler: (error: unknown) => void): void {
  strayHandler = handler;
}

/** The error no route call awaited, as one line. */
export function strayError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${message} (thrown outside any route call: from a timer, or a promise nothing awaited)`;
}

/** Ends the process with the command's exit code, whatever handles a route file left open. */
export function finish(): never {
  finished = true;
  process.exit(process.exitCode ?? 0);
}
