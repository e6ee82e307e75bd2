import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A real `redis-server` on a free loopback port, for one test file. */
export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Starts `redis-server` (Debian's package; `.ci/run` installs it) with no persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const spawned = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = spawned;
      let failure: Error | undefined;
      spawned.once('error', (error: NodeJS.ErrnoException) => {
        failure = error.code === 'ENOENT' ? missingRedis() : error;
      });
      await waitForPing(port, () => failure);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.pid === undefined || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
  };
  await server.start();
  return server;
}

// --- internal ---

/**
 * A port nothing listens on now, on 127.0.0.1, below Linux's ephemeral range (32768–60999): a
 * port the system hands out could be taken by some test's outgoing connection before the child
 * that is given it listens.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** One line instead of `spawn redis-server ENOENT` traces. */
function missingRedis(): Error {
  const error = new Error(
    'redis-server is not on the PATH: the Redis tests need it (Debian/Ubuntu: apt-get install redis-server)',
  );
  error.stack = error.message;
  return error;
}

async function waitForPing(port: number, failed: () => Error | undefined): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const failure = failed();
    if (failure) throw failure;
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`redis-server did not start on port ${port}`);
}
