import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import {
  expectAlive,
  rawExchange,
  serveInChild,
  type ChildServer,
  type RawAnswer,
} from '../_child.js';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';
import {
  bodyCaseArb,
  describeCase,
  expectedOf,
  intact,
  LIMITS,
  piecesOf,
  ROUTES,
  wireBytes,
  type BodyCase,
} from './_bodies.js';

// Every request body the generators make — whole, cut, malformed, oversized, broken framing,
// slow, aborted, stalled — sent over raw sockets to a server in a child process, and as Fetch
// `Request`s in this process. The server must live, answer each request below 500 (exactly as
// the model says when the body arrives whole), close only the connections whose framing broke,
// and hold no more memory or connections after the run than before it.

const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1);
const RUNS = 150 * SCALE;
/** Growth of the child's heap over the run, after forced collections, that counts as a leak. */
const HEAP_SLACK = 2 * 1024 * 1024;

let dir: string;
let child: ChildServer;
let app: CourseApp;
const fetchErrors: unknown[] = [];

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  // Anything that becomes a 5xx is written to the child's stderr, which must stay empty.
  const options = JSON.stringify(LIMITS).replace(
    /\}$/,
    ", onError: (e) => console.error('5xx', e) }",
  );
  child = await serveInChild(dir, options);
  app = Course.start(await importTable(dir), {
    ...LIMITS,
    onError: (error) => fetchErrors.push(error),
  });
});

afterAll(async () => {
  await child?.stop();
  if (dir) removeApp(dir);
});

/** The status of every response the server wrote on the connection. */
const statusesOf = (answer: RawAnswer) =>
  [...answer.text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** The head and body of the first response. */
function firstResponse(answer: RawAnswer): { head: string; body: string } {
  const split = answer.text.indexOf('\r\n\r\n');
  const head = answer.text.slice(0, split);
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
  return { head, body: answer.text.slice(split + 4, split + 4 + length) };
}

/** Sends a case over a raw socket; a stalled one is left to the server's timeouts. */
async function sendRaw(c: BodyCase, stalled: Promise<[BodyCase, RawAnswer]>[]): Promise<void> {
  const bytes = wireBytes(c);
  const { splits, gap, end, at } = c.delivery;
  if (end === 'stop') {
    const prefix = bytes.subarray(0, 1 + Math.floor(at * (bytes.length - 1)));
    const answer = rawExchange(child.port, piecesOf(prefix, splits), {
      gap,
      keepOpen: true,
      wait: 10_000,
    });
    stalled.push(answer.then((a) => [c, a]));
    return;
  }
  if (end === 'abort') {
    const pieces = piecesOf(bytes.subarray(0, Math.floor(at * bytes.length)), splits);
    await rawExchange(child.port, pieces, { gap, abortAfter: pieces.length });
    return;
  }
  const answer = await rawExchange(child.port, piecesOf(bytes, splits), { gap, wait: 10_000 });
  const what = `${describeCase(c)} → ${answer.text.slice(0, 300)}`;
  // The server ended the connection: it answered, or refused broken framing.
  expect(answer.timedOut, what).toBe(false);
  const statuses = statusesOf(answer);
  expect(statuses.length, what).toBeGreaterThan(0);
  const expected = expectedOf(c);
  if (intact(c)) {
    expect(expected.statuses, what).toContain(statuses[0]);
    const { head, body } = firstResponse(answer);
    if (statuses[0] === 200 && expected.echo) expect(JSON.parse(body), what).toEqual(expected.echo);
    if (expected.close) expect(head, what).toMatch(/\r\nconnection: close/i);
  } else {
    for (const status of statuses) expect(status, what).toBeLessThan(500);
  }
}

describe('property: no request body crashes the server, gets a 5xx or leaks', () => {
  it(
    `node:http in a child process over raw sockets: ${RUNS} random requests`,
    { timeout: 120_000 * SCALE },
    async () => {
      const stalled: Promise<[BodyCase, RawAnswer]>[] = [];
      // Warm-up: parsers loaded, code compiled and caches filled before the heap is measured.
      for (const c of fc.sample(bodyCaseArb, { numRuns: 200, seed: 1 })) {
        if (c.delivery.end === 'close')
          await sendRaw({ ...c, delivery: { ...c.delivery, gap: 0 } }, stalled);
      }
      const before = await child.heap();
      await fc.assert(
        fc.asyncProperty(bodyCaseArb, async (c) => {
          await sendRaw(c, stalled);
          await expectAlive(child, `after ${describeCase(c)}:`);
        }),
        { numRuns: RUNS, seed: 23 },
      );
      // A client that stops sending is let go by the server: answered (408, or the 413 of a
      // refused upload) and its connection closed, well before the test would give up.
      for (const [c, answer] of await Promise.all(stalled)) {
        const what = `${describeCase(c)} → ${answer.text.slice(0, 200)}`;
        expect(answer.timedOut, what).toBe(false);
        for (const status of statusesOf(answer)) expect(status, what).toBeLessThan(500);
      }
      let open = await child.connections();
      for (const start = Date.now(); open > 0 && Date.now() - start < 5000;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        open = await child.connections();
      }
      expect(open, 'connections left open').toBe(0);
      const after = await child.heap();
      const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
      console.log(
        `bodies over raw sockets: ${RUNS} requests (${stalled.length} stalled); child heap after GC ` +
          `${mb(before.heapUsed)} → ${mb(after.heapUsed)} MiB, external ` +
          `${mb(before.external)} → ${mb(after.external)} MiB`,
      );
      expect(after.heapUsed - before.heapUsed).toBeLessThan(HEAP_SLACK);
      expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(HEAP_SLACK);
      expect(child.stderr()).toBe('');
      expect(child.exited()).toBeUndefined();
    },
  );

  it(`Fetch in process: ${RUNS * 2} random requests`, { timeout: 60_000 * SCALE }, async () => {
    await fc.assert(
      fc.asyncProperty(bodyCaseArb, async (c) => {
        const response = await app.fetch(requestOf(c));
        const what = describeCase(c);
        const expected = expectedOf(c);
        if (intact(c)) {
          expect(expected.statuses, what).toContain(response.status);
          if (response.status === 200 && expected.echo)
            expect(await response.json(), what).toEqual(expected.echo);
          if (expected.close) expect(response.headers.get('connection'), what).toBe('close');
        } else {
          // A body that ends early, errors or overflows: a 400 or a 413, unless it was not read.
          expect([...expected.statuses, 400, 413], what).toContain(response.status);
        }
      }),
      { numRuns: RUNS * 2, seed: 29 },
    );
    expect(fetchErrors).toEqual([]);
  });
});

/** The case as a Fetch `Request`: its body a stream of the pieces, erroring where it breaks. */
function requestOf(c: BodyCase): Request {
  const { body, type } = c.content;
  const headers: Record<string, string> = {};
  if (type !== undefined) headers['content-type'] = type;
  if (c.framing === 'length') headers['content-length'] = String(body.length);
  if (c.framing === 'short') headers['content-length'] = String(body.length + 1 + c.mutation);
  if (c.framing === 'long')
    headers['content-length'] = String(Math.max(0, body.length - 1 - c.mutation));
  const breaks = c.delivery.end !== 'close' || c.framing === 'chunked-broken';
  const sent = breaks ? body.subarray(0, Math.floor(c.delivery.at * body.length)) : body;
  const pieces = piecesOf(sent, c.delivery.splits);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece) controller.enqueue(new Uint8Array(piece));
      else if (breaks) controller.error(new Error('the client went'));
      else controller.close();
    },
  });
  return new Request(`http://localhost${c.target}`, {
    method: c.method,
    headers,
    body: stream,
    duplex: 'half',
  } as RequestInit);
}
