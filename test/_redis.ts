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

/** A port nothing listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
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
