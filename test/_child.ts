import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import {
  buildApp,
  importTable,
  removeApp,
  ROOT,
  writeApp,
  writeFile,
  type Served,
} from './_utils.js';

/** The child's memory after two forced collections, in bytes. */
export interface HeapFigures {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** An app served by a `node:http` server in a child process, so a crash is seen, not suffered. */
export interface ChildServer {
  readonly port: number;
  /** How the child ended, once it has. */
  exited(): { code: number | null; signal: string | null } | undefined;
  /** What the child wrote to stderr (errors the app reported among them). */
  stderr(): string;
  heap(): Promise<HeapFigures>;
  /** Connections the server holds open. */
  connections(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Serves the built app in `dir` from a child process started with `--expose-gc`. `options` is
 * the source of its `Course.start()` options. The server cuts heads after 1 s and requests
 * after 3 s, so clients that stop sending are let go within a test's time.
 */
export async function serveInChild(dir: string, options = '{}'): Promise<ChildServer> {
  writeFile(dir, 'child-server.ts', childSource(options));
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href,
      'child-server.ts',
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  let exit: { code: number | null; signal: string | null } | undefined;
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('exit', (code, signal) => (exit = { code, signal }));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', () => reject(new Error(`the app's server exited: ${stderr}`)));
  });
  return {
    port,
    exited: () => exit,
    stderr: () => stderr,
    heap: () => ask<HeapFigures>(child, 'heap'),
    connections: () => ask<number>(child, 'connections'),
    stop: () =>
      new Promise((resolve) => {
        if (exit) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** An app served both ways for the tests of a file: node:http in a child process, Fetch here. */
export interface ChildApp {
  dir: string;
  child: ChildServer;
  app: CourseApp;
  /** Both adapters, for `send`: the child's node:http server and this process's Fetch handler. */
  both: Served;
}

/** Writes and builds an app, serves it in a child and in this process; stops it after the tests. */
export function childApp(files: Record<string, string>): ChildApp {
  const state = {} as ChildApp;
  beforeAll(async () => {
    state.dir = writeApp(files);
    await buildApp(state.dir);
    state.child = await serveInChild(state.dir, '{ onError: () => {} }');
    state.app = Course.start(await importTable(state.dir), { onError: () => {} });
    state.both = {
      app: state.app,
      base: `http://127.0.0.1:${state.child.port}`,
      close: async () => {},
    };
  });
  afterAll(async () => {
    await state.child?.stop();
    if (state.dir) removeApp(state.dir);
  });
  return state;
}

/** What came back for bytes written on a socket: the answer, and how the connection ended. */
export interface RawAnswer {
  /** Everything the server wrote. */
  text: string;
  /** The status of the first response, 0 when none came. */
  status: number;
  /** The connection was reset rather than closed. */
  reset: boolean;
  /** The server had not closed the connection after `wait` ms: the client destroyed it. */
  timedOut: boolean;
}

/**
 * Writes `pieces` on a fresh connection, `gap` ms apart, half-closes it unless `keepOpen`, and
 * resolves when the server closes it (or `wait` ms passed, then it is destroyed).
 */
export function rawExchange(
  port: number,
  pieces: readonly (string | Uint8Array)[],
  { gap = 0, keepOpen = false, wait = 5000, abortAfter = -1 } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, wait);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({
        text,
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        reset,
        timedOut,
      });
    });
    socket.on('connect', async () => {
      for (let i = 0; i < pieces.length && !socket.destroyed; i++) {
        if (i === abortAfter) return void socket.destroy();
        if (gap > 0 && i > 0) await new Promise((r) => setTimeout(r, gap));
        if (!socket.destroyed && !socket.write(pieces[i]!)) {
          await new Promise((r) => socket.once('drain', r).once('close', r));
        }
      }
      if (abortAfter >= pieces.length) socket.destroy();
      else if (!keepOpen && !socket.destroyed) socket.end();
    });
  });
}

/** Asserts the child's server answers `GET /` with 200 and its process has not exited. */
export async function expectAlive(child: ChildServer, context = ''): Promise<void> {
  const home = await rawExchange(child.port, ['GET / HTTP/1.1\r\nHost: localhost\r\n\r\n']);
  expect(home.status, `${context} ${child.stderr()}`).toBe(200);
  expect(child.exited()).toBeUndefined();
}

/** The body of `GET target`, sent on a fresh connection. */
export async function getBody(port: number, target: string): Promise<string> {
  const answer = await rawExchange(port, [`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`]);
  return answer.text.split('\r\n\r\n').slice(1).join('\r\n\r\n');
}

/** Polls `read` until it gives `expected` (or 5 s pass) and asserts it. */
export async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  let value = await read();
  for (const start = Date.now(); Date.now() - start < 5000; value = await read()) {
    if (JSON.stringify(value) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(value).toEqual(expected);
}

// --- internal ---

function ask<T>(child: ChildProcess, question: string): Promise<T> {
  return new Promise((resolve) => {
    const listen = (message: { [key: string]: unknown }) => {
      if (!(question in message)) return;
      child.off('message', listen);
      resolve(message[question] as T);
    };
    child.on('message', listen);
    child.send(question);
  });
}

const childSource = (options: string) => `
import { createServer } from 'node:http';
import { Course } from 'course-router';
import table from './generated/routes.gen.js';

const app = Course.start(table, ${options});
const server = createServer(
  { headersTimeout: 1000, requestTimeout: 3000, connectionsCheckingInterval: 100 },
  app.handler,
);
const gc = (globalThis as { gc?: () => void }).gc!;
process.on('message', (question) => {
  if (question === 'heap') {
    gc();
    gc();
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send!({ heap: { heapUsed, external, arrayBuffers } });
  }
  if (question === 'connections') server.getConnections((_, count) => process.send!({ connections: count }));
});
// The test that started it has gone: nothing may outlive it.
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
`;
