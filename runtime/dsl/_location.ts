import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { SourceLocation } from './types.js';

// Frames inside this package are the DSL itself, never the call site: its bundles (files at
// the top of `dist/`), and its sources when they run as they are (this file is in `dsl/`).
// Read when first needed: a Worker's bundle has no file URL, and reads nothing at import.
let packageDir: string | undefined;
// A route file calls the DSL a few frames up, helper functions between them add more.
const DEPTH = 16;

/**
 * The first stack frame outside the runtime: the route-file line that called the DSL. The
 * frames are read as V8 gives them, and only that one is mapped back through its source map
 * (a TypeScript route file runs transpiled): formatting a whole stack maps every frame.
 *
 * The line and column are worked out when first read. V8 finds a frame's position by reading
 * its function's position table from the start, so in a route file of thousands of calls each
 * lookup costs in proportion to the file; most locations (`.name()`, `.where()`, …) are read
 * only for a diagnostic.
 */
export function callSite(): SourceLocation {
  for (const frame of framesOf()) {
    const file = frame.getFileName();
    if (file === null || file === undefined || file.startsWith('node:')) continue;
    const path = pathOf(file);
    if (path.startsWith((packageDir ??= fileURLToPath(new URL('..', import.meta.url))))) continue;
    return lazyLocation(() =>
      original(file, path, frame.getLineNumber() ?? 0, frame.getColumnNumber() ?? 0),
    );
  }
  return { file: '<unknown>', line: 0, column: 0 };
}

// --- internal ---

/**
 * A location whose fields are computed by `find` when one is first read, then kept as plain
 * properties (own and enumerable before and after, so spreading and JSON see them).
 */
function lazyLocation(find: () => SourceLocation): SourceLocation {
  const target = {} as SourceLocation;
  const settle = (): SourceLocation => {
    const found = find();
    for (const key of KEYS) {
      Object.defineProperty(target, key, {
        value: found[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return found;
  };
  for (const key of KEYS) {
    Object.defineProperty(target, key, {
      get: () => settle()[key],
      enumerable: true,
      configurable: true,
    });
  }
  return target;
}

const KEYS = ['file', 'line', 'column'] as const;

function framesOf(): NodeJS.CallSite[] {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = DEPTH;
  Error.prepareStackTrace = (_error, frames) => frames;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  try {
    Error.captureStackTrace(holder, callSite);
    return holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

/** The position in the source a frame's file was made from, when it has a source map. */
function original(file: string, path: string, line: number, column: number): SourceLocation {
  const entry = findSourceMap(file)?.findEntry(line - 1, column - 1) as
    { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (entry?.originalSource === undefined || entry.originalLine === undefined) {
    return { file: path, line, column };
  }
  return {
    file: pathOf(entry.originalSource),
    line: entry.originalLine + 1,
    column: (entry.originalColumn ?? 0) + 1,
  };
}

/** A frame's or a source map's file as a path: a `file:` URL converted, its query dropped. */
function pathOf(file: string): string {
  let path = paths.get(file);
  if (path === undefined) {
    path = file.startsWith('file://') ? fileURLToPath(file.replace(/\?.*$/, '')) : file;
    // `course watch` loads the route files under a new URL each build: old ones are let go.
    if (paths.size >= MAX_PATHS) paths.clear();
    paths.set(file, path);
  }
  return path;
}

// Route files are few and their frames many: each file's path is worked out once.
const paths = new Map<string, string>();
const MAX_PATHS = 1024;
