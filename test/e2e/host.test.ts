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
    expect((await get('/host', '127.0.0.1:3000')).body).toBe('127.0.0.1');
    expect((await get('/who', '[::1]')).body).toBe('no domain');
  });

  it('a malformed Host is a 400', async () => {
    for (const host of ['a b', 'evil.example/x', 'a@b', '.example.com', 'a..b', 'x:123456', '[zz]'])
      expect((await get('/host', host)).status, host).toBe(400);
  });

  it('an absolute-form target must name the Host header (case-insensitive), else 400', async () => {
    const raw = (target: string) =>
      rawStatus(
        app.served.base,
        `GET ${target} HTTP/1.1\r\nHost: acme.example.com\r\nConnection: close\r\n\r\n`,
      );
    expect(await raw('http://ACME.example.com/who')).toBe(200);
    expect(await raw('http://admin.example.com/panel')).toBe(400);
    expect(await raw('http://acme.example.com:80/who')).toBe(400);
  });
});

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
