import { fileURLToPath } from 'node:url';
import type { SourceLocation } from './types.js';

// Frames inside this package's runtime folder are the DSL itself, never the call site: the
// built folder, and the sources it maps back to when source maps are on.
const RUNTIME_DIR = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIR = fileURLToPath(new URL('../../../runtime/', import.meta.url));
const FRAME = /\(?((?:file:\/\/|\/|[A-Za-z]:\\)[^()]*?):(\d+):(\d+)\)?$/;
// Deep enough for helper functions between a route file and the DSL call.
const STACK_DEPTH = 16;

/** The first stack frame outside the runtime: the route-file line that called the DSL. */
export function callSite(): SourceLocation {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, callSite);
  Error.stackTraceLimit = limit;
  for (const line of (holder.stack ?? '').split('\n').slice(1)) {
    const frame = parseFrame(line);
    if (frame && !frame.file.startsWith(RUNTIME_DIR) && !frame.file.startsWith(SOURCE_DIR))
      return frame;
  }
  return { file: '<unknown>', line: 0, column: 0 };
}

// --- internal ---

function parseFrame(line: string): SourceLocation | undefined {
  const m = FRAME.exec(line.trim());
  if (!m || line.includes('node:internal')) return undefined;
  let file = m[1]!;
  if (file.startsWith('file://')) file = fileURLToPath(file.replace(/\?.*$/, ''));
  return { file, line: Number(m[2]), column: Number(m[3]) };
}
