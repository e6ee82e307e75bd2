import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequestRaw, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CourseApp, RouteTable, StartOptions } from 'course-router';
import { Course } from 'course-router';
import { cli } from './_cli-session.js';

/** The repository root; the `course-router` package is its `runtime/` folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = path.join(ROOT, 'cli/dist/index.js');

/** Result of running the real `course` CLI. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Writes an app to a fresh temporary folder, with `course-router` installed as a user would
 * have it (a link in `node_modules`). Returns the folder.
 */
export function writeApp(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-app-'));
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(path.join(ROOT, 'runtime'), path.join(dir, 'node_modules/course-router'), 'dir');
  symlinkSync(
    path.join(ROOT, 'node_modules/@types/node'),
    path.join(dir, 'node_modules/@types/node'),
    'dir',
  );
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  for (const [name, content] of Object.entries(files)) writeFile(dir, name, content);
  return dir;
}

/** Writes one file of an app, creating its folders. */
export function writeFile(dir: string, name: string, content: string): void {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * Route lines that make an app's dynamic routes more than the build writes code for, so that the
 * runtime's shared walker tests them: one line each, to add to a `routes.ts`.
 */
export const WALKED_ROUTES = Array.from(
  { length: 70 },
  (_, i) => `Course.get('/f${i}/{x}', () => 'f');`,
).join('\n');

/** Removes a temporary app. */
export function removeApp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `course <args>` as a subprocess. */
export function runCli(
  args: string[],
  cwd = ROOT,
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Builds an app with the CLI's build command, run by the run's CLI servers (test/_cli-session.ts),
 * and fails the test, showing the output, if it fails.
 */
export async function buildApp(dir: string): Promise<CliResult> {
  const result = await cli(['build', '--root', dir]);
  expect(result.stderr, 'course build printed problems').toBe('');
  expect(result.code).toBe(0);
  return result;
}

/** Imports an app's generated module (`generated/routes.gen.ts`). */
export async function importTable(
  dir: string,
  out = 'generated/routes.gen.ts',
): Promise<RouteTable> {
  const mod = (await import(pathToFileURL(path.join(dir, out)).href)) as { default: RouteTable };
  return mod.default;
}

/** An app served both ways: through `fetch` and through a real `node:http` server. */
export interface Served {
  app: CourseApp;
  base: string;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1 with a free port. */
export async function serve(table: RouteTable, options?: StartOptions): Promise<Served> {
  const app = Course.start(table, { onError: () => {}, ...options });
  const server: Server = await app.listen(0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a request answered, in a form two adapters can be compared on. */
export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** A request for `send`: headers (a `host` among them) and a body. */
export interface SendInit {
  headers?: Record<string, string>;
  body?: string;
}

const COMPARED_HEADERS = ['content-type', 'location', 'allow', 'content-length', 'x-test'];

/**
 * Sends the same request through the Fetch adapter and over HTTP (node:http, raw target and
 * headers) to the node adapter, asserts both answer alike, and returns the answer.
 */
export async function send(
  served: Served,
  method: string,
  target: string,
  init: SendInit = {},
): Promise<Answer> {
  const { host, ...headers } = init.headers ?? {};
  const viaFetch = await answer(
    await served.app.fetch(
      new Request(fetchUrl(host ?? 'localhost', target), {
        method,
        headers: { ...headers, host: host ?? 'localhost' },
        body: init.body,
      }),
    ),
  );
  const viaHttp = await httpRequest(
    served.base,
    method,
    target,
    { ...headers, host: host ?? 'localhost' },
    init.body,
  );
  // The Fetch adapter leaves `Content-Length` to the runtime's server, which writes the body's.
  const length = viaHttp.headers['content-length'];
  if (viaFetch.headers['content-length'] === undefined && length !== undefined) {
    expect(length, `${method} ${target}: Content-Length`).toBe(
      String(Buffer.byteLength(viaHttp.body)),
    );
    viaFetch.headers['content-length'] = length;
  }
  expect(viaHttp, `${method} ${target}: node:http and fetch differ`).toEqual(viaFetch);
  return viaHttp;
}

/**
 * The URL a Fetch runtime makes of an origin-form `target` sent with `Host: host` (the adapter
 * routes by the URL's host); `http://localhost…` when `host` is no URL host (the Host header
 * then says what is wrong).
 */
function fetchUrl(host: string, target: string): string {
  try {
    if (!/[/?#@\\\s]/.test(host)) return new URL(`http://${host}${target}`).href;
  } catch {
    // Not a URL host.
  }
  return `http://localhost${target}`;
}

/**
 * One request over a real socket of its own, the target sent as written. A kept-alive socket is
 * not reused: one the server closes after its keep-alive timeout (5 s, which a slow test on a
 * loaded machine passes between two requests) would reset the next request sent on it.
 */
export function httpRequest(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const options = { hostname, port, method, path: target, headers, agent: false };
    const req = httpRequestRaw(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const picked: Record<string, string> = {};
        for (const name of COMPARED_HEADERS) {
          const value = res.headers[name];
          if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: picked,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function answer(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, body: await response.text(), headers };
}

/**
 * Writes an app, builds it (`buildApp`) and serves its table for the tests of a file;
 * closes and removes it after them.
 */
export function servedApp(
  files: Record<string, string>,
  options?: StartOptions,
): { readonly served: Served; readonly dir: string } {
  const state = {} as { served: Served; dir: string };
  beforeAll(async () => {
    state.dir = writeApp(files);
    await buildApp(state.dir);
    state.served = await serve(await importTable(state.dir), options);
  });
  afterAll(async () => {
    await state.served?.close();
    if (state.dir) removeApp(state.dir);
  });
  return state;
}

/** An app served twice: as generated code per route (small) and by the shared walker (large). */
export interface ServedShape {
  readonly label: 'generated code' | 'shared walker';
  readonly dir: string;
  readonly served: Served;
}

/**
 * Builds `routes` twice, once alone and once with `WALKED_ROUTES` (so the runtime's walker tests
 * its dynamic routes), and serves both for the tests of a file or `describe`; closes and removes
 * them after.
 */
export function servedShapes(routes: string, options?: StartOptions): readonly ServedShape[] {
  const shapes: ServedShape[] = [];
  beforeAll(async () => {
    for (const [label, extra] of [
      ['generated code', ''],
      ['shared walker', WALKED_ROUTES],
    ] as const) {
      const dir = writeApp({ 'routes.ts': `${routes}${extra}\n` });
      await buildApp(dir);
      shapes.push({ label, dir, served: await serve(await importTable(dir), options) });
    }
  });
  afterAll(async () => {
    for (const { dir, served } of shapes.splice(0)) {
      await served.close();
      removeApp(dir);
    }
  });
  return shapes;
}

/** A strict NodeNext `tsconfig.json` that type-checks the app's `include` folders. */
export function tsconfig(include: readonly string[]): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include,
  });
}

/** Runs the workspace's tsc over the app in `dir` (its `tsconfig.json`). */
export function tsc(dir: string): Promise<{ code: number; output: string }> {
  const bin = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '-p', dir], (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, output: stdout + stderr });
    });
  });
}
