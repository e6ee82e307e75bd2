// One server of the whole-request benchmark: `tsx http-server.ts <kind> <port> [courseModule]`,
// run with NODE_ENV=production; prints `ready <port>` once it listens (port 0: one the system
// picks, free by construction).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bareListener, fastifyApp, honoApp } from './http-apps.js';
import { bareStatic, staticDir } from './http-static.js';

const [kind = 'node', portText = '0', table = ''] = process.argv.slice(2);
const port = Number(portText);
const host = '127.0.0.1';
const ready = (address: AddressInfo | string | null) =>
  console.log(`ready ${typeof address === 'object' && address ? address.port : port}`);
// The static files sit beside the Course app (`http-static.ts`).
const statics = staticDir(table);
// An exit rather than a signal's death: `--cpu-prof` writes its profile (bench/http-profile.ts).
process.on('SIGINT', () => process.exit(0));

if (kind === 'node') {
  const server = createServer((req, res) =>
    req.url?.startsWith('/static/')
      ? bareStatic(res, statics, req.url.slice('/static/'.length))
      : bareListener(req, res),
  );
  server.listen(port, host, () => ready(server.address()));
} else if (kind === 'course') {
  // The runtime beside the app (`bench/http-ab.ts` serves two builds of it).
  const runtime = path.join(path.dirname(table), '../node_modules/course-router/dist/index.js');
  const { Course } = (await import(pathToFileURL(runtime).href)) as typeof import('course-router');
  const mod = (await import(pathToFileURL(table).href)) as { default: never };
  ready((await Course.start(mod.default).listen(port, host)).address());
} else if (kind === 'fastify') {
  const app = await fastifyApp(statics);
  await app.listen({ port, host });
  ready(app.server.address());
} else if (kind === 'hono') {
  const { serve } = await import('@hono/node-server');
  serve({ fetch: honoApp(statics).fetch, port, hostname: host }, (info) => ready(info));
}
