// The app `npm run bench:runtimes` and `bench/runtimes-fetch.ts` serve on Bun and Deno: a JSON
// POST through a group's middleware and a `GET /user/{id}`, for Course (built) and for Hono.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from '../compiler/index.js';
import { ROOT } from './checkout.js';
import { readyPort, stoppedWithUs } from './http.js';

/** The JSON body of the POST. */
export const BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', age: 36 });

/**
 * Writes the app into `root` with `files` beside it (a module importing `course-router`, `hono`
 * and `./generated/routes.gen.ts`, in which `HONO` defines `hono`), Course served from the
 * `course-router` package folder `runtime`, and builds it with the compiler beside that folder
 * (a revision's generated module imports what its own runtime exports).
 */
export async function writeApp(
  root: string,
  files: Record<string, string>,
  runtime = path.join(ROOT, 'runtime'),
): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, 'node_modules'), { recursive: true });
  mkdirSync(path.join(root, 'app/Middleware'), { recursive: true });
  symlinkSync(runtime, path.join(root, 'node_modules/course-router'), 'dir');
  symlinkSync(path.join(ROOT, 'node_modules/hono'), path.join(root, 'node_modules/hono'), 'dir');
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ type: 'module', private: true }),
    'course.config.ts': `export default { importExtension: '.ts' };\n`,
    'routes.ts': `import { Course, input } from 'course-router';
Course.group({ prefix: '/api', middleware: 'Middleware\\\\Auth' }, () => {
  Course.post('/users', () => ({ created: true, name: input('name') }));
});
Course.get('/user/{id}', (id: string) => ({ id }));
`,
    'app/Middleware/Auth.ts': `import { response, type CourseRequest } from 'course-router';
export class Auth {
  handle(request: CourseRequest) {
    if (request.getHeader('authorization') !== 'Bearer secret') return response().httpCode(401).write('no');
    return undefined;
  }
}
`,
    ...files,
  };
  for (const [file, text] of Object.entries(all)) writeFileSync(path.join(root, file), text);
  const compiler = path.join(runtime, '../compiler/dist/index.js');
  const own =
    path.resolve(runtime) === path.join(ROOT, 'runtime')
      ? { build }
      : ((await import(pathToFileURL(compiler).href)) as { build: typeof build });
  await own.build({ root });
}

/**
 * Hono's app of the same routes, as code that defines `hono`; `honoContext`, the same under
 * Hono's `contextStorage()`, which gives `getContext()` in any async code a route starts, as
 * Course's helpers find their request (both with `AsyncLocalStorage`); and `honoGuarded`, under
 * `contextStorage()` and `bodyLimit()` of Course's default 1 MiB, the two guarantees of Course's
 * that Hono offers as middleware.
 */
export const HONO = `import { contextStorage } from 'hono/context-storage';
import { bodyLimit } from 'hono/body-limit';
const hono = new Hono();
hono.use('/api/*', async (c, next) => {
  if (c.req.header('authorization') !== 'Bearer secret') return c.text('no', 401);
  await next();
});
hono.post('/api/users', async (c) => {
  const body = await c.req.json();
  return c.json({ created: true, name: body.name });
});
hono.get('/user/:id', (c) => c.json({ id: c.req.param('id') }));
const honoContext = new Hono();
honoContext.use(contextStorage());
honoContext.route('/', hono);
const honoGuarded = new Hono();
honoGuarded.use(contextStorage(), bodyLimit({ maxSize: 1024 * 1024 }));
honoGuarded.route('/', hono);
`;

/**
 * The same answers with no router, as code that defines `bare`: the floor a router's own cost is
 * read against. It checks the token and the path, and parses the body with `request.json()`.
 */
const BARE = `const bare = async (request: Request) => {
  const { pathname } = new URL(request.url);
  if (request.method !== 'POST' || pathname !== '/api/users') return new Response('', { status: 404 });
  if (request.headers.get('authorization') !== 'Bearer secret') return new Response('no', { status: 401 });
  const body = await request.json();
  const json = JSON.stringify({ created: true, name: body.name });
  return new Response(json, { headers: { 'content-type': 'application/json' } });
};
`;

/**
 * The server of `bench:runtimes` and `bench/runtimes-ab.ts`, on the runtime's own server: Course,
 * Hono, Hono with its `contextStorage()` (and its `bodyLimit()`), or no router (its last argument:
 * course, hono, hono-context, hono-guarded, bare). `context.ts` prints what one `AsyncLocalStorage.run()` costs there.
 */
export const SERVER = {
  'server.ts': `import { Course } from 'course-router';
import { Hono } from 'hono';
import routes from './generated/routes.gen.ts';
${HONO}
${BARE}
const app = Course.start(routes);
const kind = process.argv.at(-1);
const fetch =
  kind === 'hono' ? hono.fetch
  : kind === 'hono-context' ? honoContext.fetch
  : kind === 'hono-guarded' ? honoGuarded.fetch
  : kind === 'bare' ? bare
  : (request: Request) => app.fetch(request);
// Port 0: one the system picks, printed once it listens.
const g = globalThis as any;
const port = g.Bun
  ? g.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch }).port
  : g.Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, fetch).addr.port;
console.log(\`ready \${port}\`);
`,
  'context.ts': `import { AsyncLocalStorage } from 'node:async_hooks';
// What one run() costs (a store entered for a synchronous call): the median of 7 batches, in ns.
const storage = new AsyncLocalStorage<object>();
const read = () => storage.getStore();
const times: number[] = [];
for (let batch = 0; batch < 7; batch++) {
  const started = performance.now();
  for (let i = 0; i < 100_000; i++) storage.run({ i }, read);
  times.push(((performance.now() - started) * 1e6) / 100_000);
}
console.log(times.sort((a, b) => a - b)[3]!.toFixed(0));
`,
};

/** The runtimes' binaries (from npm, in this checkout) and how each starts `server.ts`. */
export const RUNTIMES = {
  bun: { binary: 'node_modules/@oven/bun-linux-x64/bin/bun', args: ['server.ts'] },
  deno: {
    binary: 'node_modules/@deno/linux-x64-glibc/deno',
    args: ['run', '--allow-net', '--allow-env', '--allow-read', 'server.ts'],
  },
};

/** A server of the app, running. */
export interface RuntimeServer {
  child: ChildProcess;
  port: number;
}

/**
 * Starts the app's `server.ts` in `dir` with `bin` and `args` (`RUNTIMES`' with the kind last),
 * stopped with the benchmark; once it listens.
 */
export async function startServer(
  bin: string,
  args: string[],
  dir: string,
): Promise<RuntimeServer> {
  const child = stoppedWithUs(spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] }));
  const port = await new Promise<number>((resolve, reject) => {
    readyPort(child).then(resolve, reject);
    child.once('exit', (code) => reject(new Error(`${bin} ${args.join(' ')} exited ${code}`)));
  });
  return { child, port };
}

/** Loads `server` with the POST for `seconds` (autocannon, 10 connections); any answer but a 2xx throws. */
export async function loadPost(server: RuntimeServer, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/api/users`,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
    body: BODY,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${server.child.spawnargs.join(' ')}: ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  return result;
}
