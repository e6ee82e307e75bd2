import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseApp } from 'course-router';
import { Course } from 'course-router';
import {
  eventually,
  expectAlive,
  getBody,
  rawExchange,
  serveInChild,
  type ChildServer,
} from '../_child.js';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';

// Streamed response bodies (a route returning a Fetch `Response` with a stream) whose source
// fails, whose client leaves, or that a HEAD request does not send: node:http served by a child
// process over raw sockets, and Fetch in this process.

const FILES = {
  'routes.ts': `
import { Course } from 'course-router';
import { Streams } from './app/Components/Controller/Streams.js';

Course.get('/', () => 'home');
Course.get('/stream/broken', [Streams, 'broken']);
Course.get('/stream/endless', [Streams, 'endless']);
Course.get('/stream/count', [Streams, 'count']);
`,
  'app/Components/Controller/Streams.ts': `
export class Streams {
  static cancelled = 0;
  broken() {
    let sent = false;
    return new Response(new ReadableStream({
      pull(controller) {
        if (sent) throw new Error('source failed');
        sent = true;
        controller.enqueue(new TextEncoder().encode('first part '));
      },
    }));
  }
  endless() {
    return new Response(new ReadableStream({
      pull(controller) { controller.enqueue(new Uint8Array(16 * 1024)); },
      cancel() { Streams.cancelled++; },
    }), { headers: { 'content-type': 'application/octet-stream' } });
  }
  count() { return String(Streams.cancelled); }
}`,
};

let dir: string;
let child: ChildServer;
let app: CourseApp;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  child = await serveInChild(dir, '{ onError: () => {} }');
  app = Course.start(await importTable(dir), { onError: () => {} });
});

afterAll(async () => {
  await child?.stop();
  if (dir) removeApp(dir);
});

describe('a response body that breaks or is left', () => {
  it('a streamed body whose source throws after the answer started: that connection is cut, the process lives', async () => {
    const answer = await rawExchange(child.port, [
      'GET /stream/broken HTTP/1.1\r\nHost: localhost\r\n\r\n',
    ]);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('first part ');
    // Cut, not ended: the last chunk of the chunked framing never came.
    expect(answer.text.endsWith('0\r\n\r\n')).toBe(false);
    await expectAlive(child);
  });

  it("a client that leaves mid-response, or a HEAD request, stops the stream's source", async () => {
    await eventually(() => getBody(child.port, '/stream/count'), '0');
    // The client reads the first bytes and goes.
    await new Promise<void>((resolve) => {
      const socket = connect(child.port, '127.0.0.1', () =>
        socket.write('GET /stream/endless HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      );
      socket.once('data', () => socket.destroy());
      socket.on('close', () => resolve());
    });
    await eventually(() => getBody(child.port, '/stream/count'), '1');
    await rawExchange(child.port, ['HEAD /stream/endless HTTP/1.1\r\nHost: localhost\r\n\r\n'], {
      wait: 300,
    });
    await eventually(() => getBody(child.port, '/stream/count'), '2');
    const fetchCount = async () =>
      (await app.fetch(new Request('http://localhost/stream/count'))).text();
    await (await app.fetch(new Request('http://localhost/stream/endless'))).body!.cancel();
    await app.fetch(new Request('http://localhost/stream/endless', { method: 'HEAD' }));
    await eventually(fetchCount, '2');
    await expectAlive(child);
  });
});
