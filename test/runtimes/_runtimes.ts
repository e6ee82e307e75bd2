import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { run, startServer } from '../_install.js';
import { freePort } from '../_redis.js';
import { deployFile } from '../_readme.js';
import { buildApp, ROOT, writeApp } from '../_utils.js';

// The runtimes come from npm: the binary packages are optional dependencies of the repository
// (`npm ci` installs them on linux-x64 from the registry, with nothing downloaded at install).

/** A runtime's binary, or an error naming the install that brings it: never a skipped test. */
export function runtimeBinary(name: 'bun' | 'deno' | 'workerd'): string {
  const [pkg, file] = BINARIES[name];
  const binary = path.join(ROOT, 'node_modules', pkg, file);
  if (!existsSync(binary))
    throw new Error(
      `${name} is not installed (${binary} is missing): run \`npm install\` on linux-x64, or elsewhere \`npm install --no-save ${pkg.replace(/-linux-(x64|64)(-glibc)?$/, '')}\``,
    );
  return binary;
}

const BINARIES = {
  bun: ['@oven/bun-linux-x64', 'bin/bun'],
  deno: ['@deno/linux-x64-glibc', 'deno'],
  workerd: ['@cloudflare/workerd-linux-64', 'bin/workerd'],
} as const;

/**
 * Writes an app of `files` and of README's deploy files named `deployFiles` (its `bun.ts`,
 * `deno.ts`…), links `course-kit` into it (the deploy files' config imports it), and builds it.
 */
export async function runtimeApp(
  files: Record<string, string>,
  deployFiles: readonly string[],
): Promise<string> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const file of deployFiles) files[file] = deployFile(readme, file);
  const dir = writeApp(files);
  symlinkSync(path.join(ROOT, 'cli'), path.join(dir, 'node_modules/course-kit'), 'dir');
  await buildApp(dir);
  return dir;
}

/** wrangler's CLI (it needs Node 22: the tests run it with Bun). */
export const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

/**
 * Bundles the Worker of the app in `dir` as `wrangler deploy` does (its `wrangler.jsonc`), and
 * serves the bundle with workerd, with the compatibility date and flags that file names.
 */
export async function serveOnWorkerd(
  dir: string,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await bundleWorker(dir);
  const server = await startServer(runtimeBinary('workerd'), ['serve', 'workerd.capnp'], {
    cwd: dir,
    env: process.env,
    port,
  });
  return { port, stop: () => server.stop() };
}

/**
 * Bundles the Worker of the app in `dir` and writes `workerd.capnp`, which serves it on the
 * port returned (`workerd serve workerd.capnp` in `dir`), with `wrangler.jsonc`'s `vars` as its
 * text bindings.
 */
export async function bundleWorker(dir: string): Promise<number> {
  const bun = runtimeBinary('bun');
  await run(bun, [WRANGLER, 'deploy', '--dry-run', '--outdir', 'dist'], {
    cwd: dir,
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  // JSONC: the trailing commas go (the files have no comments).
  const config = JSON.parse(
    readFileSync(path.join(dir, 'wrangler.jsonc'), 'utf8').replace(/,(\s*[}\]])/g, '$1'),
  ) as {
    main: string;
    compatibility_date: string;
    compatibility_flags: string[];
    vars?: Record<string, string>;
  };
  const port = await freePort();
  const bundle = `dist/${path.basename(config.main).replace(/\.ts$/, '.js')}`;
  writeFileSync(
    path.join(dir, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${bundle}") ],
  bindings = [ ${Object.entries(config.vars ?? {})
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ')} ],
  compatibilityDate = "${config.compatibility_date}",
  compatibilityFlags = ${JSON.stringify(config.compatibility_flags)},
);
`,
  );
  return port;
}

/** The files of fixtures/runtimes, by path. */
export function fixtureFiles(): Record<string, string> {
  const root = path.join(ROOT, 'fixtures/runtimes');
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else files[path.relative(root, file)] = readFileSync(file, 'utf8');
    }
  };
  walk(root);
  return files;
}

/** An answer reduced to what must be the same everywhere. */
export interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const KEPT = ['content-type', 'location', 'allow', 'x-api'];

/** Sends one request over `node:http` (which lets a test set Host) and reads the answer. */
export function call(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Seen & { cookies: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', method, path: target, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const kept: Record<string, string> = {};
          for (const name of KEPT) {
            const value = res.headers[name];
            if (typeof value === 'string') kept[name] = value;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: kept,
            body: Buffer.concat(chunks).toString(),
            cookies: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The fixture's requests, in order, and what came back: the same list for every runtime. The
 * CSRF token differs per server (its own secret): the form is posted with the one it gave.
 */
export async function exchange(port: number): Promise<(Seen & { request: string })[]> {
  const seen: (Seen & { request: string })[] = [];
  const ask = async (
    method: string,
    target: string,
    headers: Record<string, string> = {},
    body?: string | Buffer,
  ) => {
    const { cookies, ...answer } = await call(port, method, target, headers, body);
    seen.push({ request: `${method} ${target}`, ...answer });
    return { ...answer, cookies };
  };
  await ask('GET', '/');
  await ask('GET', '/user/5?q=x');
  await ask('GET', '/user/5/posts');
  await ask('GET', '/user/abc');
  await ask('DELETE', '/user/5');
  await ask('GET', '/nothing');
  const json = { 'content-type': 'application/json' };
  await ask('POST', '/api/echo', json, '{"name":"ann","tags":["a","b"]}');
  await ask('POST', '/api/echo', { ...json, 'x-deny': '1' }, '{}');
  await ask('POST', '/api/echo', json, '{"name":');
  // A byte order mark, characters of 2, 3 and 4 bytes and a malformed byte: the same text.
  await ask(
    'POST',
    '/api/echo',
    json,
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"name":"Zoë ☃ 😀 '),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]),
  );
  await ask('GET', '/api/teapot');
  await ask('GET', '/api/broken');
  await ask('GET', '/who', { host: 'acme.example.test' });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await ask('POST', '/form', form, 'name=ann+lee&list[]=1&list[]=2');
  // One part, posted to /upload as a multipart body.
  const upload = (...part: string[]) =>
    ask(
      'POST',
      '/upload',
      { 'content-type': 'multipart/form-data; boundary=course-boundary' },
      ['--course-boundary', ...part, '--course-boundary--', ''].join('\r\n'),
    );
  await upload(
    'Content-Disposition: form-data; name="file"; filename="notes.txt"',
    'Content-Type: text/plain',
    '',
    'hello from a file',
  );
  // A file name as browsers send it: its UTF-8 bytes, as they are.
  await upload(
    'Content-Disposition: form-data; name="file"; filename="naïve café.txt"',
    'Content-Type: text/plain',
    '',
    'hello from a file',
  );
  // A charset Bun's and Deno's `TextDecoder` know and Node's does not.
  await upload(
    'Content-Disposition: form-data; name="note"',
    'Content-Type: text/plain; charset=x-user-defined',
    '',
    'caf\xe9',
  );
  await ask('GET', '/old');
  const page = await ask('GET', '/page');
  const token = /value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  seen.at(-1)!.body = page.body.replace(token, '<token>');
  const cookie = page.cookies.join('; ');
  seen.at(-1)!.headers['set-cookie'] = page.cookies.map((c) => c.split('=')[0]).join(', ');
  await ask('POST', '/page', { ...form, cookie }, `title=hello&csrf_token=${token}`);
  await ask('POST', '/page', { ...form, cookie }, 'title=hello');
  await ask('GET', '/limited');
  await ask('GET', '/limited');
  await ask('GET', '/limited');
  await ask('GET', '/password');
  return seen;
}
