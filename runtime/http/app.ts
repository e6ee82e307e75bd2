import { createServer, type Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { createFetchHandler, type FetchInfo } from './adapters/fetch.js';
import { createNodeHandler } from './adapters/node.js';
import { continueListener } from './continue.js';
import type { StartOptions } from './dispatch.js';
import { checkOptions } from './options.js';
import type { RouteTable } from '../types.js';
import { activeTable } from '../matching/url.js';
import { DEFAULT_REQUEST_TIMEOUT } from './body.js';
import { gracefulClose } from './shutdown.js';

/** Longest time a request head may take to arrive under `listen()`, in ms. */
const HEADERS_TIMEOUT = 15_000;

/** The origin of `app.request()`'s relative paths. */
const TEST_ORIGIN = 'http://localhost';

/** A running Course application: one table, two adapters. */
export interface CourseApp {
  readonly table: RouteTable;
  /** Fetch API: Bun, Deno, workers, tests. */
  readonly fetch: (request: Request, info?: FetchInfo) => Promise<Response>;
  /**
   * Test client: serves `path` (`'/users/5?tab=1'`, or a full URL) through `fetch`, with no
   * server or port. `init` is the `Request`'s (method, headers, body).
   */
  readonly request: (path: string | URL, init?: RequestInit) => Promise<Response>;
  /** Request listener of `node:http`, `node:https` and `node:http2` (compatibility API). */
  readonly handler: (
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ) => void;
  /**
   * The `checkContinue` listener of a `node:http` server of your own that serves `handler`
   * (`server.on('checkContinue', app.checkContinue)`): a client that sends
   * `Expect: 100-continue` is told to send its body only when the router reads it, and a request
   * refused before (CSRF, a limit, a 404) gets its answer alone. `listen()` adds it itself.
   */
  readonly checkContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** Starts a `node:http` server (port `PORT` or 3000, host 127.0.0.1 by default). */
  readonly listen: (port?: number, host?: string) => Promise<Server>;
  /**
   * Stops the servers `listen()` started: no new connection, idle keep-alive connections
   * closed, requests in flight finished (cut after `grace` ms, 10 s by default); resolves then.
   */
  readonly close: (grace?: number) => Promise<void>;
}

/** Creates the app for a compiled table; does no work proportional to the number of routes. */
export function startApp(table: RouteTable | undefined, options: StartOptions = {}): CourseApp {
  checkOptions(options);
  const routes = table ?? activeTable();
  if (!routes) {
    throw new Error(
      'course: Course.start() needs the generated table (import generated/routes.gen.ts)',
    );
  }
  const handler = createNodeHandler(routes, options);
  const checkContinue = continueListener(handler);
  const closers: ((grace?: number) => Promise<void>)[] = [];
  const fetch = createFetchHandler(routes, options);
  return {
    table: routes,
    fetch,
    request: (path, init) => fetch(new Request(new URL(path, TEST_ORIGIN), init)),
    // HTTP/2's compatibility objects offer what the adapter reads of `node:http`'s.
    handler: handler as CourseApp['handler'],
    checkContinue,
    listen: (port = Number(process.env['PORT'] ?? 3000), host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        // Slow or endless request heads and bodies are cut off (slowloris); heads are at most
        // Node's 16 KiB. Node looks for connections past their time every
        // `connectionsCheckingInterval` (30 s by default, which would let a 15 s limit run to
        // 45 s): each second, the limits hold within one.
        const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
        const server = createServer(
          {
            headersTimeout: Math.min(HEADERS_TIMEOUT, requestTimeout),
            requestTimeout,
            connectionsCheckingInterval: 1000,
          },
          handler,
        );
        server.on('checkContinue', checkContinue);
        closers.push(gracefulClose(server));
        server.once('error', (error) => reject(listenError(error, port, host)));
        server.listen(port, host, () => resolve(server));
      }),
    close: async (grace) => void (await Promise.all(closers.map((close) => close(grace)))),
  };
}

/**
 * `listen()`'s error, saying what to do when the port is taken or may not be used; its `code`
 * (`EADDRINUSE`, `EACCES`) kept.
 */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const fix =
    error.code === 'EADDRINUSE'
      ? `another server listens on ${host}:${port}: stop it, or listen on another port (PORT=…)`
      : error.code === 'EACCES'
        ? `this user may not listen on port ${port}: take one above 1023 (PORT=…)`
        : undefined;
  if (fix === undefined) return error;
  return Object.assign(new Error(`course: ${fix} (${error.code})`, { cause: error }), {
    code: error.code,
  });
}
