import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { expect } from 'vitest';

/**
 * Sends `child`, a server on `port`, SIGTERM while an idle keep-alive connection is open and a
 * GET of `slow` is in flight (its handler has printed `handling /slow`, read from `output`); requires the idle connection closed, a new connection refused and
 * the process to exit 0. Resolves to the slow request's answer, for the caller to check.
 */
export async function stopsGracefully(
  child: ChildProcess,
  port: number,
  slow: string,
  output: () => string,
): Promise<Response> {
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const idle = await keepAliveConnection(port);
  const inFlight = fetch(`http://127.0.0.1:${port}${slow}`).catch((error: Error) => error);
  await handling(slow, output);
  child.kill('SIGTERM');

  await idle.closed;
  await new Promise((resolve) => setTimeout(resolve, 100));
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
    cause: { code: 'ECONNREFUSED' },
  });
  const answer = await inFlight;
  if (answer instanceof Error)
    throw new Error(`GET ${slow} failed: ${String(answer)}\n${output()}`);
  expect(await exit, output()).toBe(0);
  return answer;
}

/**
 * Sends `child`, a server on `port`, SIGTERM while a GET of `stuck` (a route that never answers
 * and keeps a timer running) is in flight (its handler has printed `handling /stuck`); requires the request cut and the process to exit 0
 * once the 10 s grace is over, not before, and not much after.
 */
export async function cutsAfterGrace(
  child: ChildProcess,
  port: number,
  stuck: string,
  output: () => string,
): Promise<void> {
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const inFlight = fetch(`http://127.0.0.1:${port}${stuck}`).catch((error: Error) => error);
  await handling(stuck, output);
  const start = Date.now();
  child.kill('SIGTERM');
  expect(await exit, output()).toBe(0);
  const waited = Date.now() - start;
  expect(waited, output()).toBeGreaterThanOrEqual(9_000);
  expect(waited, output()).toBeLessThan(14_000);
  expect(await inFlight, output()).toBeInstanceOf(Error);
}

// --- internal ---

/**
 * Waits until the server's handler of `route` has begun (it prints `handling <route>`): a request
 * still in the listen queue when SIGTERM comes is not in flight, and a loaded machine may hold it
 * there longer than any fixed pause.
 */
async function handling(route: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!output().includes(`handling ${route}`)) {
    if (Date.now() > deadline) throw new Error(`${route} never reached its handler\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A connection that asked for `/` with keep-alive and now waits, idle. */
async function keepAliveConnection(port: number): Promise<{ closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  });
  return { closed };
}
