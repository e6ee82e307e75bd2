import { describe, expect, it, vi } from 'vitest';
import { childApp, rawExchange } from '../_child.js';
import { send } from '../_utils.js';

// The adapters own the message framing: an app cannot set Content-Length, Transfer-Encoding,
// Connection… (a 500 at the call, through the error path), and a `Response` a route returns
// has them dropped. Bytes over raw sockets to node:http in a child process, where a wrong
// Content-Length would swallow the next response on the connection; Fetch in this process.
const FILES = {
  'routes.ts': `
import { Course, HttpException, response, request, url } from 'course-router';
const q = (name: string) => request().searchParams.get(name) ?? '';

Course.get('/', () => 'home');
Course.get('/set', () => response().header(q('n'), q('v')).write('ok'));
Course.get('/direct', () => { response().headers[q('n')] = q('v'); return 'ok'; });
Course.get('/thrown', () => { throw new HttpException(400, 'no', { [q('n')]: q('v') }); });
Course.get('/returned', () => new Response('ok', {
  headers: { 'content-length': '40', 'transfer-encoding': 'chunked', connection: 'upgrade',
    'keep-alive': 'timeout=99', upgrade: 'h2c', trailer: 'x', te: 'trailers', 'x-test': 'kept' },
}));
Course.get('/written', () => response().write('<b>hi</b>'));
Course.get('/written-typed', () => response().header('Content-Type', 'text/plain').write('plain'));
Course.get('/current', () => url());
Course.get('/cur/{x}', () => url()).where('x', '.*');
Course.post('/echo', () => ({ ok: true }));
`,
};

const FRAMING = [
  ['Content-Length', '40'],
  ['Content-Length', '0'],
  ['content-length', 'abc'],
  ['Transfer-Encoding', 'chunked'],
  ['Connection', 'close'],
  ['Keep-Alive', 'timeout=99'],
  ['Upgrade', 'websocket'],
  ['TE', 'trailers'],
  ['Trailer', 'Expires'],
  ['Proxy-Connection', 'keep-alive'],
] as const;

const served = childApp(FILES);

/** Two pipelined requests on one connection: `target`, then `GET /`. Their statuses and bodies. */
async function pipelined(target: string): Promise<string[]> {
  const answer = await rawExchange(served.child.port, [
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n` +
      'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
  ]);
  return answer.text
    .split(/(?=HTTP\/1\.1 )/)
    .map((part) => `${part.slice(9, 12)} ${part.slice(part.indexOf('\r\n\r\n') + 4)}`);
}

describe('framing headers are the adapters’ own', () => {
  it('response().header() refuses each at the call: a 500, and the next response is intact', async () => {
    for (const [name, value] of FRAMING) {
      const target = `/set?n=${name}&v=${encodeURIComponent(value)}`;
      expect(await pipelined(target), name).toEqual(['500 Internal Server Error', '200 home']);
      expect((await send(served.both, 'GET', target)).status, name).toBe(500);
    }
  });

  it('HttpException refuses them too; one written into the record past header() is a 500', async () => {
    // The Fetch adapter logs the header it could not send.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [name, value] of FRAMING) {
      const query = `?n=${name.toLowerCase()}&v=${encodeURIComponent(value)}`;
      expect((await send(served.both, 'GET', `/thrown${query}`)).status, name).toBe(500);
      // A Content-Length written past header() is replaced by the body's own; `Connection:
      // close`, which the router itself sends with a refused upload, closes the connection.
      const direct = await pipelined(`/direct${query}`);
      const expected = {
        'content-length': ['200 ok', '200 home'],
        connection: value === 'close' ? ['200 ok'] : undefined,
      }[name.toLowerCase()] ?? ['500 Internal Server Error', '200 home'];
      expect(direct, name).toEqual(expected);
      expect((await send(served.both, 'GET', `/direct${query}`)).status, name).toBe(
        direct[0] === '200 ok' ? 200 : 500,
      );
    }
  });

  it('a Response a route returns loses them: its body is framed by what is sent', async () => {
    const answer = await rawExchange(served.child.port, [
      'GET /returned HTTP/1.1\r\nHost: localhost\r\n\r\n' +
        'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    ]);
    const [first, second] = answer.text.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nx-test: kept\r\n/);
    expect(first).not.toMatch(/content-length: 40|keep-alive: timeout=99|upgrade|trailer|\r\nte:/i);
    expect(first).toMatch(/\r\nConnection: keep-alive\r\n/);
    expect(second).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\nhome$/);
    const fetched = await served.app.fetch(new Request('http://localhost/returned'));
    expect(await fetched.text()).toBe('ok');
    expect(fetched.headers.get('x-test')).toBe('kept');
    for (const name of [
      'content-length',
      'transfer-encoding',
      'connection',
      'keep-alive',
      'upgrade',
      'trailer',
      'te',
    ])
      expect(fetched.headers.get(name), name).toBeNull();
    const head = await served.app.fetch(
      new Request('http://localhost/returned', { method: 'HEAD' }),
    );
    expect([head.headers.get('content-length'), head.headers.get('x-test')]).toEqual([
      null,
      'kept',
    ]);
  });
});

describe('response().write()', () => {
  it('sends HTML unless a content type was set, in both adapters', async () => {
    expect(await send(served.both, 'GET', '/written')).toMatchObject({
      body: '<b>hi</b>',
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    expect((await send(served.both, 'GET', '/written-typed')).headers['content-type']).toBe(
      'text/plain',
    );
  });
});

describe('url() of the current request', () => {
  it('is percent-encoded as the URL parser encodes a path and a query, in both adapters', async () => {
    for (const target of [
      '/current?a="><script>',
      "/current?q=`{}|^'<>",
      '/cur/a"b',
      "/cur/a`{}|^<>'",
      '/cur/%22a"?x="',
    ]) {
      const { pathname, search } = new URL(target, 'http://localhost');
      const answer = await send(served.both, 'GET', target);
      // The URL standard encodes `^` in a path since 2023 (Bun's parser does; Node 20's not yet).
      expect(answer.body, target).toBe(pathname.replaceAll('^', '%5E') + search);
      expect(answer.body, target).not.toMatch(/["<>]/);
    }
  });
});

describe('a request answered before its body arrived, whose client then breaks the body off', () => {
  // The answer is written first (the gap), then the client half-closes mid-body: node:http
  // reads the broken body as a malformed request, and by default writes a 400 after the answer.
  it.each([
    ['405', 'POST /', '20', 405],
    ['404', 'POST /nothing', '20', 404],
    ['413, the body over the limit', 'POST /echo', String(5 * 1024 * 1024), 413],
  ])('%s: one answer on the connection, then it closes', async (_, line, length, status) => {
    const head =
      `${line} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${length}\r\n\r\n{`;
    const answer = await rawExchange(served.child.port, [head, ''], { gap: 300 });
    expect(answer.status).toBe(status);
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
    expect(answer.timedOut).toBe(false);
  });

  it('a malformed request on a fresh connection still gets its 400', async () => {
    const answer = await rawExchange(served.child.port, [
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    ]);
    expect(answer.text).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
});
