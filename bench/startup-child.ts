// Measures one other router's start-up in a fresh process: `tsx startup-child.ts <router> <appDir>`
// (Course's is `startup-course.mjs`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchRoute } from './route-sets.js';

const [router = 'course', dir = '.'] = process.argv.slice(2);
const routes = JSON.parse(readFileSync(path.join(dir, 'routes.json'), 'utf8')) as (BenchRoute & {
  regex?: string;
})[];
const gc = (globalThis as { gc?: () => void }).gc!;

// Load each library before the clock starts: what is timed is the routes, not the import.
const routers = await import('./routers.js');
gc();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
let keep: unknown;
if (router === '@medley/router') keep = routers.medley(routes);
else if (router === 'memoirist') keep = routers.memoirist(routes);
else if (router === 'rou3') keep = routers.rou3(routes);
else keep = routers.findMyWay(routes);
const ms = performance.now() - started;
gc();
const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
console.log(JSON.stringify({ ms, heapMB, kept: keep !== undefined }));
