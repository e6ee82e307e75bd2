import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heapMB } from '../_heap.js';
import { servedApp } from '../_utils.js';

// A client that writes many requests on one connection, reads none of the answers and leaves:
// node:http queues an answer behind the one being sent, and a queued answer gets no `close` when
// the connection goes. Whatever the server keeps of such answers (their bodies, their files)
// would stay for good, and a few such connections would end the process.
const base = mkdtempSync(path.join(os.tmpdir(), 'course-pipelined-'));
writeFileSync(path.join(base, 'big.txt'), 'abcdefgh\n'.repeat(60_000));
writeFileSync(path.join(base, 'small.txt'), 'abcdefgh\n'.repeat(10_000));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const state = servedApp(
  {
    'routes.ts': `
import { Course } from 'course-router';
Course.get('/big', () => 'x'.repeat(5000));
Course.get('/ok', () => 'ok');
Course.get('/assets/{path?}', () => 'never').where('path', '.*').addMiddleware('Middleware\\\\Assets');
`,
    'app/Middleware/Assets.ts': `
import { ServeStatic } from 'course-router';
export class Assets extends ServeStatic {
  protected override root = ${JSON.stringify(base)};
}`,
  },
  { compress: { threshold: 16 } },
);

/**
 * `count` requests for `target` in one write on one connection, none read; cut after `ms`, once
 * `during()` (when given) has run while the connection is still open.
 */
function pipelineAndLeave(
  target: string,
  count: number,
  headers = '',
  ms = 1000,
  during?: () => void,
): Promise<void> {
  const port = Number(new URL(state.served.base).port);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`.repeat(count));
      socket.pause();
      setTimeout(() => {
        during?.();
        socket.destroy();
      }, ms);
    });
  });
}

/** How long a request from another client takes to be answered, in ms. */
async function answeredIn(): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${state.served.base}/ok`, { signal: AbortSignal.timeout(20_000) });
  expect(await answer.text()).toBe('ok');
  return performance.now() - started;
}

const openFiles = () => readdirSync('/proc/self/fd').length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('answers a client never reads, on a connection it leaves', () => {
  it('are let go: the heap after a forced collection is where it was', async () => {
    // Warm-up: the code paths, the buffers node:http keeps.
    await pipelineAndLeave('/big', 200, '', 300);
    await settle();
    const before = heapMB();
    await pipelineAndLeave('/big', 1500);
    await pipelineAndLeave('/big', 1500, 'Accept-Encoding: gzip\r\n');
    await settle();
    // 1,500 answers of 5 KB each way: 7.5 MB and more when kept.
    expect(heapMB() - before).toBeLessThan(3);
  }, 30_000);

  it('close the files they were streaming', async () => {
    await pipelineAndLeave('/assets/big.txt', 5, '', 300);
    await settle();
    const before = openFiles();
    await pipelineAndLeave('/assets/big.txt', 40);
    await pipelineAndLeave('/assets/big.txt', 40, 'Accept-Encoding: gzip\r\n');
    let open = openFiles();
    for (let tries = 0; tries < 20 && open > before; tries++) {
      await settle();
      open = openFiles();
    }
    expect(open - before).toBeLessThanOrEqual(0);
  }, 30_000);

  it('are served one at a time: the files open and the answers built stay few while it waits', async () => {
    await pipelineAndLeave('/assets/small.txt', 5, '', 300);
    await settle();
    const before = openFiles();
    let most = 0;
    const count = () => void (most = Math.max(most, openFiles() - before));
    // A file read whole (under 256 KiB) and one streamed: 2,000 requests each, none read.
    await pipelineAndLeave('/assets/small.txt', 2000, '', 800, count);
    await pipelineAndLeave('/assets/big.txt', 2000, '', 800, count);
    expect(most).toBeLessThan(10);
  }, 30_000);

  it('are not read past a few while they wait: a flood holds little memory, and leaving stalls nothing', async () => {
    await pipelineAndLeave('/ok', 200, '', 300);
    await settle();
    const before = heapMB();
    let held = 0;
    let slowest = 0;
    // 200,000 requests (6 MB) in one write: node:http stops reading the connection while the
    // answers queue, as it does for answers that wait to be written.
    await pipelineAndLeave('/ok', 200_000, '', 1500, () => void (held = heapMB() - before));
    slowest = Math.max(slowest, await answeredIn());
    await settle();
    slowest = Math.max(slowest, await answeredIn());
    // Each request node:http reads is an object pair of a few KB: 200,000 of them, hundreds of MB.
    expect(held).toBeLessThan(20);
    expect(slowest).toBeLessThan(2000);
  }, 60_000);

  it('a client that reads gets every answer, in order, however many it sends at once', async () => {
    const port = Number(new URL(state.served.base).port);
    const count = 5000;
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('error', reject);
      socket.on('data', (chunk: string) => {
        text += chunk;
        // The last request is for `/ok`: its body ends the last answer.
        if (text.endsWith('\r\n\r\nok') && text.split('HTTP/1.1 200 OK').length > count) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('connect', () => {
        let requests = '';
        for (let i = 0; i < count; i++)
          requests += `GET ${i % 2 ? '/ok' : '/big'} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
        socket.write(requests);
      });
    });
    // Each answer's body follows its head: the first two bytes of each, in the order asked.
    const starts = received
      .split('\r\n\r\n')
      .slice(1)
      .map((part) => part.slice(0, 2));
    expect(starts).toEqual(Array.from({ length: count }, (_, i) => (i % 2 ? 'ok' : 'xx')));
  }, 60_000);
});
