import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Longest time `close()` lets requests in flight run before it ends their connections, in ms. */
export const DEFAULT_GRACE = 10_000;

/**
 * Follows the connections of a `node:http` server so that it can stop gracefully; returns the
 * function that stops it: no new connection is accepted, idle keep-alive connections close at
 * once, each request in flight finishes (its connection then closes rather than waiting for
 * another request), and whatever still runs after `grace` ms is cut. Resolves when the server
 * holds no connection.
 *
 * Connections are followed, not responses: a connection always ends with `close`, where a
 * response queued behind another (a client that sends requests without reading the answers,
 * then leaves) never does, and a set of responses would keep every such one, and its body, for
 * good. Nothing is done a request but noting it as its connection's latest.
 */
export function gracefulClose(server: Server): (grace?: number) => Promise<void> {
  const connections = new Set<Socket>();
  // The latest response of each connection: the one its next request would wait for.
  const latest = new WeakMap<Socket, ServerResponse>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res: ServerResponse) => {
    latest.set(req.socket, res);
    // Answered while stopping: the client is told the connection ends with this response.
    if (closing) res.shouldKeepAlive = false;
  });
  const closeIdle = () => setImmediate(() => server.closeIdleConnections());
  let closed: Promise<void> | undefined;
  return (grace = DEFAULT_GRACE) =>
    (closed ??= new Promise<void>((resolve, reject) => {
      closing = true;
      for (const socket of connections) {
        const res = latest.get(socket);
        if (res === undefined || res.writableFinished) continue;
        if (!res.headersSent) res.shouldKeepAlive = false;
        // Its head said keep-alive: once it is sent, the connection is idle, and closed.
        else res.once('finish', closeIdle);
      }
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
