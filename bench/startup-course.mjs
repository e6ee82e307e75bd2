/* global console */
// Course's start-up in a fresh process as a production server starts: plain Node, with no
// loader hooks between it and the generated module (`node --expose-gc startup-course.mjs <app>`).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2] ?? '.';
// Load the library before the clock starts: what is timed is the routes, not the import. The
// library is its public entry and, since there is one, the internal entry generated modules use.
const { Course } = await import('course-router');
await import('course-router/internal').catch(() => undefined);
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const table = await import(pathToFileURL(path.join(dir, 'generated/routes.gen.js')).href);
const keep = Course.start(table.default);
const ms = performance.now() - started;
globalThis.gc();
const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
console.log(JSON.stringify({ ms, heapMB, kept: keep !== undefined }));
