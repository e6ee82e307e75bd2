// One HTTP server for the end-to-end benchmark: `tsx http-server.ts <kind> <port> [courseTable]`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const [kind = 'node', portText = '0', table = ''] = process.argv.slice(2);
const port = Number(portText);
const ready = () => console.log('ready');
// The runner asks for this process's CPU time (µs) before and after a round of load.
process.on('message', () => {
  const used = process.cpuUsage();
  process.send!(used.user + used.system);
});

if (kind === 'node') {
  // A bare node:http server with the one route hand-matched: the ceiling.
  createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/user/')) {
      // With its length, as Fastify and Course send it: no chunked encoding.
      const body = `hello ${url.slice(6)}`;
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  }).listen(port, '127.0.0.1', ready);
} else if (kind === 'course') {
  const { Course } = await import('course-router');
  const mod = (await import(pathToFileURL(table).href)) as { default: never };
  await Course.start(mod.default).listen(port, '127.0.0.1');
  ready();
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/user/:id', async (request) => `hello ${(request.params as { id: string }).id}`);
  await app.listen({ port, host: '127.0.0.1' });
  ready();
} else if (kind === 'hono') {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.get('/user/:id', (c) => c.text(`hello ${c.req.param('id')}`));
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, ready);
}
