// The app of the whole-request benchmark, written for each server: 40 REST routes under `/api`
// behind a group middleware that wants `authorization: Bearer …`, a JSON post under them,
// `GET /user/{id}`, a urlencoded form and a multipart upload. Same routes, same middleware,
// same bytes out (`http-scenarios.ts`).
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import busboy from 'busboy';
import type { FastifyInstance } from 'fastify';
import { Hono, type Context } from 'hono';
import { checkout, ROOT, type Checkout } from './checkout.js';
import { RESOURCES, TOKEN } from './http-scenarios.js';
import { fastifyStatic, honoStatic, writeStaticFiles } from './http-static.js';
import { writeCourseApp } from './routers.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

type Build = (options: { root: string }) => Promise<unknown>;

interface Post {
  title: string;
  tags: unknown[];
}

/** Writes and builds the Course app in `dir` with `code`; returns its generated module. */
export async function buildCourseApp(
  dir: string,
  code: Checkout = checkout(ROOT),
): Promise<string> {
  writeCourseApp(dir, [], false, code);
  const assets = writeStaticFiles(dir);
  const api = RESOURCES.flatMap((r) => [
    `  Course.get('/${r}', () => ({ ${r}: [] }));`,
    `  Course.post('/${r}', () => response().json({ created: true }, 201));`,
    `  Course.get('/${r}/{id}', (id: string) => ({ id }));`,
    `  Course.put('/${r}/{id}', (id: string) => ({ id }));`,
    `  Course.delete('/${r}/{id}', (id: string) => ({ id }));`,
  ]);
  writeFileSync(
    path.join(dir, 'routes.ts'),
    `import { Course, input, response } from 'course-router';

Course.group({ prefix: '/api', middleware: 'Middleware\\\\Auth' }, () => {
${api.join('\n')}
  Course.post('/users/{id}/posts', (id: string) => {
    const tags = input('tags') as unknown[];
    return response().json({ id: 101, userId: id, title: input('title'), tags: tags.length }, 201);
  });
});
Course.get('/user/{id}', (id: string) => ({ id }));
Course.post('/contact', () => ({ name: input('name'), email: input('email') }));
Course.post('/upload', () => {
  const file = input('file', null, 'file') as { filename: string; size: number };
  return { title: input('title'), author: input('author'), file: file.filename, size: file.size };
});
${assets}
`,
  );
  mkdirSync(path.join(dir, 'app/Middleware'), { recursive: true });
  writeFileSync(
    path.join(dir, 'app/Middleware/Auth.ts'),
    `import { response, type CourseRequest } from 'course-router';

export class Auth {
  handle(request: CourseRequest) {
    if (request.getHeader('authorization') === ${JSON.stringify(TOKEN)}) return undefined;
    return response().json({ error: 'Unauthorized' }, 401);
  }
}
`,
  );
  const compiler = (await import(pathToFileURL(code.compiler).href)) as { build: Build };
  await compiler.build({ root: dir });
  return path.join(dir, 'generated/routes.gen.ts');
}

/**
 * The app on Fastify: the middleware an `onRequest` hook of the `/api` plugin; `statics`, the
 * folder `@fastify/static` serves under `/static/`.
 */
export async function fastifyApp(statics?: string): Promise<FastifyInstance> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  if (statics) await fastifyStatic(app, statics);
  await app.register((await import('@fastify/formbody')).default);
  await app.register((await import('@fastify/multipart')).default);
  await app.register(
    async (api) => {
      api.addHook('onRequest', (request, reply, done) => {
        if (request.headers.authorization === TOKEN) return done();
        void reply.code(401).send({ error: 'Unauthorized' });
      });
      for (const r of RESOURCES) {
        api.get(`/${r}`, async () => ({ [r]: [] }));
        api.post(`/${r}`, async (_, reply) => reply.code(201).send({ created: true }));
        api.get(`/${r}/:id`, async (request) => ({ id: (request.params as { id: string }).id }));
        api.put(`/${r}/:id`, async (request) => ({ id: (request.params as { id: string }).id }));
        api.delete(`/${r}/:id`, async (request) => ({ id: (request.params as { id: string }).id }));
      }
      api.post('/users/:id/posts', async (request, reply) => {
        const body = request.body as Post;
        const userId = (request.params as { id: string }).id;
        return reply.code(201).send({ id: 101, userId, title: body.title, tags: body.tags.length });
      });
    },
    { prefix: '/api' },
  );
  app.get('/user/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  app.route({
    method: OTHER_METHODS as never,
    url: '/user/:id',
    handler: async (_, reply) =>
      reply.code(405).header('allow', 'GET, HEAD').type(TEXT_TYPE).send('Method Not Allowed'),
  });
  app.setNotFoundHandler((_, reply) => reply.code(404).type(TEXT_TYPE).send('Not Found'));
  app.post('/contact', async (request) => {
    const body = request.body as Record<string, string>;
    return { name: body.name, email: body.email };
  });
  app.post('/upload', async (request) => {
    const file = (await request.file())!;
    const size = (await file.toBuffer()).length;
    const field = (name: string) => (file.fields[name] as { value: string }).value;
    return { title: field('title'), author: field('author'), file: file.filename, size };
  });
  return app;
}

/**
 * The app on Hono: the middleware `use('*')` on the `/api` sub-app; `statics`, the folder
 * `serveStatic` serves under `/static/`.
 */
export function honoApp(statics?: string): Hono {
  const json = (c: Context, value: unknown, status = 200) =>
    c.body(JSON.stringify(value), status as 200, { 'content-type': JSON_TYPE });
  const api = new Hono();
  api.use('*', async (c, next) => {
    if (c.req.header('authorization') !== TOKEN) return json(c, { error: 'Unauthorized' }, 401);
    await next();
  });
  for (const r of RESOURCES) {
    api.get(`/${r}`, (c) => json(c, { [r]: [] }));
    api.post(`/${r}`, (c) => json(c, { created: true }, 201));
    api.get(`/${r}/:id`, (c) => json(c, { id: c.req.param('id') }));
    api.put(`/${r}/:id`, (c) => json(c, { id: c.req.param('id') }));
    api.delete(`/${r}/:id`, (c) => json(c, { id: c.req.param('id') }));
  }
  api.post('/users/:id/posts', async (c) => {
    const body = await c.req.json<Post>();
    const userId = c.req.param('id');
    return json(c, { id: 101, userId, title: body.title, tags: body.tags.length }, 201);
  });
  const app = new Hono();
  if (statics) honoStatic(app, statics);
  app.route('/api', api);
  app.get('/user/:id', (c) => json(c, { id: c.req.param('id') }));
  app.on(OTHER_METHODS, '/user/:id', (c) =>
    c.body('Method Not Allowed', 405, { allow: 'GET, HEAD', 'content-type': TEXT_TYPE }),
  );
  app.notFound((c) => c.body('Not Found', 404, { 'content-type': TEXT_TYPE }));
  app.post('/contact', async (c) => {
    const body = await c.req.parseBody();
    return json(c, { name: body.name, email: body.email });
  });
  app.post('/upload', async (c) => {
    const body = await c.req.parseBody();
    const file = body.file as File;
    return json(c, { title: body.title, author: body.author, file: file.name, size: file.size });
  });
  return app;
}

/**
 * The app on bare node:http, its routes matched by hand (only those the scenarios ask for): the
 * ceiling of every router on node:http.
 */
export function bareListener(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const target = q === -1 ? url : url.slice(0, q);
  if (target.startsWith('/api/')) {
    if (req.headers.authorization !== TOKEN) return send(res, 401, { error: 'Unauthorized' });
    const post = /^\/api\/users\/([^/]+)\/posts$/.exec(target);
    if (post && req.method === 'POST')
      return void read(req, (text) => {
        const body = JSON.parse(text) as Post;
        send(res, 201, { id: 101, userId: post[1], title: body.title, tags: body.tags.length });
      });
  } else if (target.startsWith('/user/') && target.indexOf('/', 6) === -1) {
    if (req.method === 'GET' || req.method === 'HEAD')
      return send(res, 200, { id: target.slice(6) });
    return send(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
  } else if (target === '/contact' && req.method === 'POST') {
    return void read(req, (text) => {
      const form = new URLSearchParams(text);
      send(res, 200, { name: form.get('name'), email: form.get('email') });
    });
  } else if (target === '/upload' && req.method === 'POST') {
    return upload(req, res);
  }
  send(res, 404, 'Not Found');
}

// --- internal ---

function send(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, {
    ...headers,
    'content-type': typeof value === 'string' ? TEXT_TYPE : JSON_TYPE,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function read(req: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
}

function upload(req: IncomingMessage, res: ServerResponse): void {
  const fields: Record<string, string> = {};
  let file = '';
  let size = 0;
  const parser = busboy({ headers: req.headers });
  parser.on('field', (name, value) => (fields[name] = value));
  parser.on('file', (_, stream, info) => {
    file = info.filename ?? '';
    stream.on('data', (chunk: Buffer) => (size += chunk.length));
  });
  parser.on('close', () =>
    send(res, 200, { title: fields['title'], author: fields['author'], file, size }),
  );
  req.pipe(parser);
}
