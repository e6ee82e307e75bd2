import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { send, servedApp } from '../_utils.js';

const ROUTES = `
import { Course } from 'course-router';
import { request } from 'course-router';
Course.group({ domain: '{sub}.example.com' }, () => {
  Course.get('/who', (sub: string) => 'sub:' + sub);
});
Course.group({ domain: 'admin.example.com' }, () => {
  Course.get('/panel', () => 'admin');
});
Course.get('/who', () => 'no domain');
Course.get('/panel', () => 'public');
Course.get('/host', () => request().getHost());
Course.get('/', () => 'home');
`;

const app = servedApp({ 'routes.ts': ROUTES });

const get = (target: string, host: string) =>
  send(app.served, 'GET', target, { headers: { host } });

describe('the Host rule (both adapters)', () => {
  it('two Host headers are a 400 (RFC 9112), over a raw socket and through Fetch', async () => {
    const twice =
      'GET /host HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n';
    expect(await rawStatus(app.served.base, twice)).toBe(400);
    const once = 'GET /host HTTP/1.1\r\nhost: localhost\r\nConnection: close\r\n\r\n';
    expect(await rawStatus(app.served.base, once)).toBe(200);
    const viaFetch = await app.served.app.fetch(
      new Request('http://localhost/host', {
        headers: [
          ['host', 'localhost'],
          ['host', 'evil.example'],
        ],
      }),
    );
    expect(viaFetch.status).toBe(400);
  });

  it('an underscore (a Docker service name) is a valid host', async () => {
    expect(await get('/host', 'my_service:3000')).toMatchObject({
      status: 200,
      body: 'my_service',
    });
  });

  it('a trailing dot, upper case and a port (also empty) are the same host for domain routes', async () => {
    for (const host of [
      'acme.example.com.',
      'ACME.Example.COM:8080',
      'acme.example.com.:80',
      'acme.example.com:',
    ]) {
      expect((await get('/who', host)).body, host).toBe('sub:acme');
      expect((await get('/host', host)).body, host).toBe('acme.example.com');
    }
    expect((await get('/panel', 'admin.example.com.')).body).toBe('admin');
    expect((await get('/panel', 'admin.example.com..')).status).toBe(400);
  });

  it('IP literals are hosts; brackets stay on IPv6', async () => {
    expect((await get('/host', '[::1]:3000')).body).toBe('[::1]');
    // As the URL parser writes an address, on every runtime (Bun's server writes it so itself).
    expect((await get('/host', '[0:0::1]:3000')).body).toBe('[::1]');
    expect((await get('/host', '[::FFFF:127.0.0.1]')).body).toBe('[::ffff:7f00:1]');
    expect((await get('/host', '127.0.0.1:3000')).body).toBe('127.0.0.1');
    expect((await get('/who', '[::1]')).body).toBe('no domain');
  });

  it('brackets holding no IPv6 address are a 400: Host (socket and Fetch) and absolute-form', async () => {
    const valid = ['[::1]', '[::]:80', '[1:2:3:4:5:6:7:8]', '[fe80::1]:'];
    const malformed = [
      '[:::]',
      '[1:2:3:4:5:6:7:8:9]',
      '[1::2::3]',
      '[12345::]',
      '[::1.2.3]',
      '[1:2:3:4:5:6:7]',
      '[.]',
      '[::1',
      '[v1.x]',
    ];
    // Each malformed host right after a valid one: the last valid host is remembered, not more.
    for (const [index, host] of malformed.entries()) {
      const before = valid[index % valid.length]!;
      expect((await get('/host', before)).status, before).toBe(200);
      expect((await get('/host', host)).status, host).toBe(400);
      const line = (target: string, header: string) =>
        rawAnswer(
          app.served.base,
          `GET ${target} HTTP/1.1\r\nHost: ${header}\r\nConnection: close\r\n\r\n`,
        );
      expect((await line('/host', host)).status, host).toBe(400);
      expect((await line(`http://${host}/host`, 'localhost')).status, host).toBe(400);
      expect(await line(`http://${before}/host`, 'localhost'), before).toMatchObject({
        status: 200,
      });
    }
    // Written as the URL parser writes it, on both adapters: `[::ffff:102:304]`.
    expect((await get('/host', '[::FFFF:1.2.3.4]')).body).toBe('[::ffff:102:304]');
  });

  it('a name ending in a number is a dotted-decimal IPv4 address, or a 400', async () => {
    for (const host of [
      '256.1.1.1',
      '1.2.3.4.5',
      '999999999999',
      'a.0x1',
      '1.2.3.09',
      '0x7f.1',
      '127.1',
      'example.123:80',
    ])
      expect((await get('/host', host)).status, host).toBe(400);
    for (const host of ['10.0.0.255:8080', '0.0.0.0', 'a1.example.com', 'v2.api', '1.2.3.4.'])
      expect((await get('/host', host)).status, host).toBe(200);
  });

  it('a malformed Host is a 400', async () => {
    for (const host of ['a b', 'evil.example/x', 'a@b', '.example.com', 'a..b', 'x:123456', '[zz]'])
      expect((await get('/host', host)).status, host).toBe(400);
  });

  it('a port over 65535, a label over 63 characters or a name over 255 is a 400', async () => {
    const label = 'a'.repeat(63);
    const long = `${label}.${label}.${label}.${label.slice(0, 59)}`;
    expect(long.length).toBe(251);
    for (const host of ['a:65535', `${label}.example.com`, long, `${long}.xyz`.slice(0, 255)])
      expect((await get('/host', host)).status, host).toBe(200);
    for (const host of [
      'a:65536',
      'a:99999',
      `a${label}.example.com`,
      `${long}.xyzw`,
      `${long}.xy.z`,
    ])
      expect((await get('/host', host)).status, host).toBe(400);
  });

  it('an absolute-form target is routed by its authority; Host is ignored but must be valid', async () => {
    const raw = (target: string, host = 'Host: acme.example.com\r\n') =>
      rawAnswer(app.served.base, `GET ${target} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    expect(await raw('http://ACME.example.com/who')).toMatchObject({
      status: 200,
      body: 'sub:acme',
    });
    // RFC 9112 §3.2.2: the target's authority wins over Host, compared as hosts are.
    expect(await raw('http://admin.example.com/panel')).toMatchObject({ body: 'admin' });
    expect(await raw('http://acme.example.com:80/who')).toMatchObject({ body: 'sub:acme' });
    expect(await raw('http://ACME.example.com./host', 'Host: other.example\r\n')).toMatchObject({
      body: 'acme.example.com',
    });
    expect(await raw('http://localhost')).toMatchObject({ status: 200, body: 'home' });
    expect(await raw('http://localhost?x=1')).toMatchObject({ status: 200, body: 'home' });
    // HTTP/1.1 needs a Host header all the same (RFC 9112 §3.2): node:http refuses one without.
    expect((await raw('http://acme.example.com/who', '')).status).toBe(400);
    // A malformed authority, and the Host rules that still hold.
    for (const target of ['http://a@b/who', 'http://x:99999/who', 'http:///who', 'http://a..b/'])
      expect((await raw(target)).status, target).toBe(400);
    expect((await raw('http://a/who', 'Host: a b\r\n')).status).toBe(400);
    expect((await raw('http://a/who', 'Host: a\r\nHost: b\r\n')).status).toBe(400);
    // Only an http(s) URL is absolute-form: another scheme picks no route, domain or not.
    for (const target of ['ftp://admin.example.com/panel', 'file://acme.example.com/who'])
      expect((await raw(target)).status, target).toBe(400);
    expect(await raw('HTTPS://admin.example.com/panel')).toMatchObject({ body: 'admin' });
  });

  it('Fetch routes by the URL, whatever Host says: it picks no domain route the URL does not name', async () => {
    const fetched = async (url: string, host: string) => {
      const response = await app.served.app.fetch(new Request(url, { headers: { host } }));
      return { status: response.status, body: await response.text() };
    };
    expect(await fetched('http://acme.example.com/panel', 'admin.example.com')).toEqual({
      status: 200,
      body: 'public',
    });
    expect(await fetched('http://acme.example.com/who', 'evil.example.com')).toEqual({
      status: 200,
      body: 'sub:acme',
    });
    expect(await fetched('http://admin.example.com/panel', 'evil.example.com')).toEqual({
      status: 200,
      body: 'admin',
    });
    expect((await fetched('http://acme.example.com/who', 'a b')).status).toBe(400);
    for (const url of [
      'ftp://admin.example.com/panel',
      'blob:http://admin.example.com/panel',
      'data:text/plain,panel',
    ])
      expect((await fetched(url, 'admin.example.com')).status, url).toBe(400);
  });
});

/** The status and body of a request written byte for byte on a socket. */
async function rawAnswer(base: string, request: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  const text = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  return {
    status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0),
    body: text.slice(text.indexOf('\r\n\r\n') + 4),
  };
}

/** The status of a request written byte for byte on a socket. */
function rawStatus(base: string, request: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('allowedHosts: the hosts the app answers for (both adapters)', () => {
  const guarded = servedApp(
    { 'routes.ts': ROUTES },
    { allowedHosts: ['Example.com.', '.shop.example', '127.0.0.1', '[::1]'] },
  );
  const status = async (host: string) =>
    (await send(guarded.served, 'GET', '/host', { headers: { host } })).status;

  it('serves a listed host, with any port, case or trailing dot, and the sub-domains of a .name', async () => {
    for (const host of [
      'example.com',
      'EXAMPLE.com:8080',
      'example.com.',
      'shop.example',
      'eu.shop.example:443',
      '127.0.0.1:3000',
      '[::1]:3000',
      '[0:0::1]:3000',
    ])
      expect(await status(host), host).toBe(200);
  });

  it('answers another host 400 before any route runs: a rebinding name, a look-alike', async () => {
    for (const host of [
      'attacker.example',
      'www.example.com',
      'evilshop.example',
      'shop.example.evil',
      '127.0.0.2',
    ]) {
      const answer = await send(guarded.served, 'GET', '/host', { headers: { host } });
      expect({ host, status: answer.status, body: answer.body }).toEqual({
        host,
        status: 400,
        body: 'Host not allowed',
      });
    }
  });

  it('answers a request naming no host 400 (HTTP/1.0 without Host)', async () => {
    const bare = 'GET /host HTTP/1.0\r\nConnection: close\r\n\r\n';
    expect(await rawStatus(guarded.served.base, bare)).toBe(400);
    const named = 'GET /host HTTP/1.0\r\nHost: example.com\r\nConnection: close\r\n\r\n';
    expect(await rawStatus(guarded.served.base, named)).toBe(200);
  });
});
