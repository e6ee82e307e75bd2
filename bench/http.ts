import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, type RunOptions } from './lookup.js';
import { STANDARD_ROUTES } from './route-sets.js';
import { writeCourseApp } from './routers.js';
import { benchDir } from './temp.js';

/** Requests per second of one server and its CPU time per request, medians of the rounds. */
export interface HttpResult {
  server: string;
  requestsPerSecond: number;
  /** The server process's CPU time per request, µs: steadier than requests/s on a busy machine. */
  cpuMicros: number;
  errors: number;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SERVERS = ['node', 'course', 'courseContext', 'fastify', 'hono'] as const;
const NAMES: Record<(typeof SERVERS)[number], string> = {
  node: 'bare node:http',
  course: 'course (node:http adapter)',
  courseContext: 'course, the route calling request()',
  fastify: 'fastify',
  hono: 'hono + @hono/node-server',
};

/**
 * `GET /user/:id` answered with a short text by each server, loaded by autocannon on
 * 127.0.0.1 (10 connections) after a second of warm-up, in five rounds that alternate the
 * servers; the median round counts.
 */
export async function runHttp(options: RunOptions): Promise<HttpResult[]> {
  const tables = {
    // The route calls no request helper (the request context is kept all the same).
    course: await courseApp('plain', '(id) => `hello ${id}`'),
    // The same, with the request read through the context, as most apps do somewhere.
    courseContext: await courseApp(
      'context',
      "(id) => `hello ${request().getHeader('x-name') ?? id}`",
      "import { request } from 'course-router';",
    ),
  };
  const rounds = options.smoke ? 1 : 5;
  const seconds = options.smoke ? 1 : 5;
  const samples = new Map<string, { rps: number[]; cpu: number[]; errors: number }>();
  for (let round = 0; round < rounds; round++) {
    for (const kind of SERVERS) {
      const port = 30000 + Math.floor(Math.random() * 20000);
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(HERE, 'http-server.ts'),
          kind === 'courseContext' ? 'course' : kind,
          String(port),
          kind === 'course' || kind === 'courseContext' ? tables[kind] : '',
        ],
        {
          cwd: path.join(HERE, '..'),
          stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on(
          'data',
          (chunk: Buffer) => chunk.toString().includes('ready') && resolve(),
        );
        child.once('exit', (code) =>
          reject(new Error(`${kind} server exited with ${String(code)}`)),
        );
      });
      const url = `http://127.0.0.1:${port}/user/42`;
      // A second of load first, so that every server is measured with its code optimised.
      if (!options.smoke) await autocannon({ url, connections: 10, duration: 1 });
      const before = await cpuTime(child);
      const result = await autocannon({ url, connections: 10, duration: seconds });
      const cpu = (await cpuTime(child)) - before;
      child.kill();
      const entry = samples.get(kind) ?? { rps: [], cpu: [], errors: 0 };
      entry.rps.push(result.requests.average);
      entry.cpu.push(cpu / Math.max(1, result.requests.total));
      entry.errors += result.errors + result.timeouts + result.non2xx;
      samples.set(kind, entry);
    }
  }
  return SERVERS.map((kind) => ({
    server: NAMES[kind],
    requestsPerSecond: median(samples.get(kind)!.rps),
    cpuMicros: median(samples.get(kind)!.cpu),
    errors: samples.get(kind)!.errors,
  }));
}

/**
 * Builds the standard set's app with `GET /user/{id}` answered by `handler`; returns its
 * generated module.
 */
export async function courseApp(name: string, handler: string, imports = ''): Promise<string> {
  const dir = benchDir(`http-${name}`);
  writeCourseApp(dir, [...STANDARD_ROUTES, { method: 'GET', path: '/user/:id' }]);
  const file = path.join(dir, 'routes.ts');
  const routes = readFileSync(file, 'utf8');
  const line = `Course.match(["GET"], "/user/{id}", 'Bench@handle');`;
  if (!routes.includes(line)) throw new Error('bench: the /user/{id} route was not written');
  writeFileSync(
    file,
    `${imports}\n${routes.replace(line, `Course.get('/user/{id}', ${handler});`)}`,
  );
  await (await import('../compiler/index.js')).build({ root: dir });
  return path.join(dir, 'generated/routes.gen.ts');
}

/** The CPU time (user and system, µs) a server process has used so far. */
function cpuTime(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (micros) => resolve(micros as number));
    child.send('cpu');
  });
}
