import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedApp } from '../_utils.js';

// `Expect: 100-continue` over raw sockets: a client that waits for `100 Continue` is told to send
// its body only when the router reads it. A request refused before (CSRF, a declared length over
// the limit, a 404, a 405) gets its final answer alone, with `Connection: close`; another
// expectation is node's 417.
const state = servedApp(
  {
    'routes.ts': `
import { Course, request } from 'course-router';
Course.csrfVerifier('Security\\\\Verifier');
Course.post('/api/echo', async () => 'got ' + (await request().body()).byteLength + ' bytes');
Course.get('/api/page', () => 'page');
Course.post('/api/stream', async () => {
  let size = 0;
  for await (const chunk of request().raw as AsyncIterable<Uint8Array>) size += chunk.byteLength;
  return 'streamed ' + size + ' bytes';
});
Course.post('/form', () => 'created');
`,
    'app/Security/Verifier.ts': `
import { BaseCsrfVerifier } from 'course-router';
export class Verifier extends BaseCsrfVerifier {
  protected except = ['/api/*'];
}`,
  },
  { bodyLimit: 1000, secret: 'test-secret' },
);

/** What a client that waits for `100 Continue` before its body saw. */
interface Exchange {
  /** The server wrote `100 Continue` first. */
  interim: boolean;
  /** The final answer's status, its headers' text and body. */
  status: number;
  head: string;
  body: string;
  /** The server closed the connection after its answer. */
  closed: boolean;
  /** Everything the server wrote. */
  text: string;
}

/**
 * Writes `head` and sends `body` once `100 Continue` comes (or at once with `eager`), then
 * `after` (the next request on the connection); resolves once the server closes the connection,
 * or 6 s after its last byte.
 */
function exchange(
  port: number,
  head: string,
  body: string,
  { eager = false, after = '' } = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sent = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const interim = text.startsWith('HTTP/1.1 100 Continue\r\n\r\n');
      const final = interim ? text.slice('HTTP/1.1 100 Continue\r\n\r\n'.length) : text;
      const split = final.indexOf('\r\n\r\n');
      resolve({
        interim,
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(final)?.[1] ?? 0),
        head: final.slice(0, split),
        body: final.slice(split + 4),
        closed,
        text,
      });
    };
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), 6000);
    };
    const sendBody = () => {
      if (sent) return;
      sent = true;
      socket.write(body + after);
    };
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) sendBody();
      wait();
    });
    socket.on('connect', () => {
      socket.write(head);
      if (eager) sendBody();
      wait();
    });
  });
}

function post(
  path: string,
  length: number,
  extra = '',
  expect = '100-continue',
  type = 'application/json',
): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\n` +
    `Expect: ${expect}\r\n${extra}Content-Length: ${length}\r\n\r\n`
  );
}

// Forms, which may carry `_method`: read before the route is found, but only when a route could
// take them, and after the CSRF check.
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data; boundary=x';

const port = () => Number(new URL(state.served.base).port);

describe('Expect: 100-continue under listen()', () => {
  it('a body the route reads: 100 Continue, then the answer, on a connection kept alive', async () => {
    const next = 'GET /api/page HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';
    const got = await exchange(port(), post('/api/echo', 12), '{"a":"1234"}', { after: next });
    expect(got.interim).toBe(true);
    expect(got.status).toBe(200);
    expect(got.text).toContain('got 12 bytes');
    // The connection served the next request.
    expect(got.text).toMatch(/HTTP\/1\.1 200 OK[^]*\r\n\r\npage$/);
  });

  it('a body the route reads itself from request().raw: 100 Continue when it takes it', async () => {
    const head =
      'POST /api/stream HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n' +
      'Expect: 100-continue\r\nConnection: close\r\nContent-Length: 5000\r\n\r\n';
    const got = await exchange(port(), head, 'x'.repeat(5000));
    expect(got.interim).toBe(true);
    expect([got.status, got.body]).toEqual([200, 'streamed 5000 bytes']);
  });

  it('a refusal before the body (CSRF, declared length, 404, 405; JSON or a form): the answer alone, no 100; the connection closes', async () => {
    const cases = [
      [post('/form', 10, 'Sec-Fetch-Site: cross-site\r\n'), 403],
      [post('/api/echo', 5_000_000), 413],
      [post('/api/missing', 10), 404],
      [post('/api/page', 10), 405],
      [post('/form', 10, 'Sec-Fetch-Site: cross-site\r\n', '100-continue', FORM), 403],
      [post('/form', 9_000_000, 'Origin: http://evil.example\r\n', '100-continue', MULTIPART), 403],
      // Same-site, without the CSRF cookie: its token cannot match, whatever the form holds.
      [post('/form', 10, '', '100-continue', FORM), 403],
      [post('/api/missing', 10, '', '100-continue', FORM), 404],
      [post('/api/page', 9_000_000, '', '100-continue', MULTIPART), 405],
    ] as const;
    const answers = await Promise.all(cases.map(([head]) => exchange(port(), head, '{"a":"12"}')));
    for (const [i, got] of answers.entries()) {
      expect(got.interim).toBe(false);
      expect(got.status).toBe(cases[i]![1]);
      expect(got.head).toMatch(/\r\nConnection: close(?:\r\n|$)/i);
      // Closed by the server, with no body sent: within the 2 s a refused body's rest is awaited.
      expect(got.closed).toBe(true);
    }
  });

  it('a client that sends its body without waiting gets the refusal whole, and a close', async () => {
    const body = 'x'.repeat(200_000);
    const head = post('/form', body.length, 'Sec-Fetch-Site: cross-site\r\n');
    const got = await exchange(port(), head, body, { eager: true });
    expect(got.interim).toBe(false);
    expect(got.status).toBe(403);
    expect(got.body).toBe('Cross-origin request refused');
    expect(got.closed).toBe(true);
  });

  it('a body that grows past the limit after the 100 is a 413 that closes', async () => {
    const head =
      'POST /api/echo HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const got = await exchange(port(), head, `7d0\r\n${'x'.repeat(2000)}\r\n0\r\n\r\n`);
    expect(got.interim).toBe(true);
    expect(got.status).toBe(413);
    expect(got.closed).toBe(true);
  });

  it('another expectation: 417, the route not run', async () => {
    const got = await exchange(
      port(),
      post('/api/echo', 2, 'Connection: close\r\n', 'something-else'),
      '{}',
      {
        eager: true,
      },
    );
    expect(got.interim).toBe(false);
    expect(got.status).toBe(417);
    expect(got.text).not.toContain('got');
  });
});

describe("app.checkContinue on the user's own server", () => {
  let server: Server;
  let own: number;
  beforeAll(async () => {
    const app = state.served.app;
    server = createServer(app.handler).on('checkContinue', app.checkContinue);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    own = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('writes the 100 for a body read, none for a refusal', async () => {
    const read = await exchange(own, post('/api/echo', 2, 'Connection: close\r\n'), '{}');
    expect([read.interim, read.status]).toEqual([true, 200]);
    const refused = await exchange(own, post('/form', 2, 'Sec-Fetch-Site: cross-site\r\n'), '{}');
    expect([refused.interim, refused.status, refused.closed]).toEqual([false, 403, true]);
  });
});
