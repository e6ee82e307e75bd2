// The static files of the whole-request benchmark: written into the Course app's `public/`
// folder, which every server serves under `/static/` (Course's `ServeStatic`, `@fastify/static`,
// Hono's `serveStatic`, and node:http reading the file).
import { mkdirSync, readFile, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { FastifyInstance } from 'fastify';
import type { Hono } from 'hono';

/** The text file, 1 KiB. */
export const SMALL_FILE = 'Routing at build time.\n'.repeat(45).padEnd(1024, '.');
/** The binary file, 200 KiB of every byte value. */
export const BIG_FILE = Buffer.from(Array.from({ length: 200 * 1024 }, (_, i) => (i * 7) % 256));

const TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.bin': 'application/octet-stream',
};

/** Writes the files into `dir`/public and the Course middleware serving them; returns the route. */
export function writeStaticFiles(dir: string): string {
  mkdirSync(path.join(dir, 'public'), { recursive: true });
  writeFileSync(path.join(dir, 'public/small.txt'), SMALL_FILE);
  writeFileSync(path.join(dir, 'public/big.bin'), BIG_FILE);
  mkdirSync(path.join(dir, 'app/Middleware'), { recursive: true });
  writeFileSync(
    path.join(dir, 'app/Middleware/Assets.ts'),
    `import { ServeStatic } from 'course-router';

export class Assets extends ServeStatic {
  protected override root = new URL('../../public/', import.meta.url);
}
`,
  );
  return `Course.get('/static/{path?}', () => null).where('path', '.*').addMiddleware('Middleware\\\\Assets');`;
}

/** The folder of the files beside the Course app whose generated module is `table`. */
export function staticDir(table: string): string {
  return path.join(path.dirname(table), '../public');
}

/** `@fastify/static` on `app`, serving `dir` under `/static/`. */
export async function fastifyStatic(app: FastifyInstance, dir: string): Promise<void> {
  await app.register((await import('@fastify/static')).default, { root: dir, prefix: '/static/' });
}

/** Hono's `serveStatic` (`@hono/node-server`) on `app`, serving `dir` under `/static/`. */
export function honoStatic(app: Hono, dir: string): void {
  const rewriteRequestPath = (p: string) => p.slice('/static'.length);
  app.use('/static/*', serveStatic({ root: dir, rewriteRequestPath }));
}

/** node:http reading the file `name` of `dir` whole (only plain names: the ceiling). */
export function bareStatic(res: ServerResponse, dir: string, name: string): void {
  const type = TYPES[path.extname(name)];
  if (!type || name.includes('/') || name.startsWith('.')) return notFound(res);
  readFile(path.join(dir, name), (error, data) => {
    if (error) return notFound(res);
    res.writeHead(200, { 'content-type': type, 'content-length': data.length });
    res.end(data);
  });
}

// --- internal ---

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 9 });
  res.end('Not Found');
}
