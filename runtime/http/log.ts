import { inspect } from 'node:util';

/**
 * Writes one entry to the server log (`console.error`). Request data in it (a path with `%0a`,
 * an error message quoting input) could otherwise forge log lines: every control character
 * (CR, LF, ESC…) is written as an escape. Only the stack frames, which V8 writes from the code
 * and not from the request, keep a line each.
 */
export function logError(prefix: string, error: unknown): void {
  console.error(`${escapeLog(prefix)} ${errorText(error, 0)}`);
}

// --- internal ---

/** `text` with control characters (C0, DEL, C1, U+2028/9) written as `\n`, `\u001b`, `\u2028`. */
export function escapeLog(text: string): string {
  return text.replace(
    CONTROL,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
// A `cause` chain is followed this deep, so a cycle cannot loop.
const MAX_CAUSES = 3;

function errorText(error: unknown, depth: number): string {
  if (!(error instanceof Error) || typeof error.stack !== 'string')
    return escapeLog(inspect(error, { breakLength: Infinity }));
  const lines = error.stack.split('\n');
  // The frames are the trailing `    at …` lines; what precedes them is the name and message,
  // written from the error itself (its name may have been set after the stack was taken).
  let first = lines.length;
  while (first > 1 && FRAME.test(lines[first - 1]!)) first--;
  const head = escapeLog(Error.prototype.toString.call(error));
  const frames = lines.slice(first).map((line) => `\n${escapeLog(line)}`);
  const cause =
    error.cause !== undefined && depth < MAX_CAUSES
      ? `\n  [cause] ${errorText(error.cause, depth + 1)}`
      : '';
  return head + frames.join('') + cause;
}

const FRAME = /^ {4}at /;
