import { createRequire } from 'node:module';

/** This release of the compiler: generated modules name it, and the runtime checks it. */
export const COMPILER_VERSION = (
  createRequire(import.meta.url)('course-compiler/package.json') as { version: string }
).version;
