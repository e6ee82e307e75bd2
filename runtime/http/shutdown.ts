import type { Server, ServerResponse } from 'node:http';

/** Longest time `close()` lets requests in flight run before it ends their connections, in ms. */
export const DEFAULT_GRACE = 10_000;

/**
 * Follows the requests a `node:http` server answers so that it can stop gracefully; returns
 * the function that stops it: no new connection is accepted, idle keep-alive connections close
 * at once, each request in flight finishes (its connection then closes rather than waiting for
 * another request), and whatever still runs after `grace` ms is cut. Resolves when the server
 * holds no connection.
 */
export function gracefulClose(server: Server): (grace?: number) => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  server.on('request', (_, res: ServerResponse) => {
    inFlight.add(res);
    // Answered while stopping: the client is told the connection ends with this response.
    if (closing) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  let closed: Promise<void> | undefined;
  return (grace = DEFAULT_GRACE) =>
    (closed ??= new Promise<void>((resolve, reject) => {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      const timer = setTimeout(() => server.closeAllConnections(), grace);
      server.close((error) => {
        clearTimeout(timer);
        if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING')
          reject(error);
        else resolve();
      });
      server.closeIdleConnections();
    }));
}
