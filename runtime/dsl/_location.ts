import { fileURLToPath } from 'node:url';
import type { SourceLocation } from './types.js';

// Frames inside this package's runtime folder are the DSL itself, never the call site: the
// built folder, and the sources it maps back to when source maps are on.
const RUNTIME_DIR = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIR = fileURLToPath(new URL('../../../runtime/', import.meta.url));
const FRAME = /\(?((?:file:\/\/|\/|[A-Za-z]:\\)[^()]*?):(\d+):(\d+)\)?$/;
// Every frame of a stack is mapped back through its source map when it is formatted, so three
// are taken first (a route file calls the DSL two or three frames up), and more only when none
// of them is outside the runtime: enough for helper functions between a route file and the DSL.
const SHALLOW = 3;
const DEEP = 16;

/** The first stack frame outside the runtime: the route-file line that called the DSL. */
export function callSite(): SourceLocation {
  return (
    firstOutside(stackOf(SHALLOW)) ??
    firstOutside(stackOf(DEEP)) ?? { file: '<unknown>', line: 0, column: 0 }
  );
}

// --- internal ---

function stackOf(depth: number): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, callSite);
  Error.stackTraceLimit = limit;
  return holder.stack ?? '';
}

function firstOutside(stack: string): SourceLocation | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const frame = parseFrame(line);
    if (frame && !frame.file.startsWith(RUNTIME_DIR) && !frame.file.startsWith(SOURCE_DIR))
      return frame;
  }
  return undefined;
}

function parseFrame(line: string): SourceLocation | undefined {
  const m = FRAME.exec(line.trim());
  if (!m || line.includes('node:internal')) return undefined;
  let file = m[1]!;
  if (file.startsWith('file://')) file = fileURLToPath(file.replace(/\?.*$/, ''));
  return { file, line: Number(m[2]), column: Number(m[3]) };
}
