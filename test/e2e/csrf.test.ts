import { request as httpRequestRaw, type ClientRequest } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp, type RouteTable } from 'course-router';
import {
  buildApp,
  httpRequest,
  importTable,
  removeApp,
  serve,
  writeApp,
  type Served,
} from '../_utils.js';

// CSRF as an attacker tries it: a cookie tossed from a sibling sub-domain, requests from another
// site or origin, and verbs other than POST, PUT, PATCH and DELETE — through both adapters.
const FILES = {
  'routes.ts': `
import { Course, csrfToken, request } from 'course-router';

Course.csrfVerifier('Security\\\\Verifier');
Course.get('/token', () => csrfToken());
Course.post('/items', () => 'created');
Course.any('/dav', () => 'dav ' + request().method);
Course.post('/webhook', () => 'hook');
Course.post('/api/open', () => 'open');
Course.post('/api/secure', () => 'secure');
`,
  'app/Security/Verifier.ts': `
import { BaseCsrfVerifier } from 'course-router';
export class Verifier extends BaseCsrfVerifier {
  protected except = ['/webhook', '/api/*'];
  protected include = ['/api/secure'];
}`,
};

const UNUSUAL = ['PROPFIND', 'PROPPATCH', 'LOCK', 'MKCOL', 'PURGE', 'SEARCH', 'REPORT'];
const FORM = 'application/x-www-form-urlencoded';
const HTTPS = { 'x-forwarded-proto': 'https' };

let dir: string;
let table: RouteTable;
let served: Served;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  table = await importTable(dir);
  served = await serve(table, { secret: 'test-secret', trustProxy: 1 });
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

describe('the cookie: __Host- on https', () => {
  it('http gets CSRF-TOKEN; https (a trusted X-Forwarded-Proto) gets __Host-CSRF-TOKEN; Secure', async () => {
    expect((await session()).setCookie).toMatch(
      /^CSRF-TOKEN=[0-9a-f]{64}\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect((await session(HTTPS)).setCookie).toMatch(
      /^__Host-CSRF-TOKEN=[0-9a-f]{64}\.[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('X-Forwarded-Proto is not believed without trustProxy', async () => {
    const untrusting = await serve(table, { secret: 'test-secret' });
    try {
      expect((await both(untrusting, 'GET', '/token', HTTPS)).setCookie).toMatch(
        /^CSRF-TOKEN=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
      );
    } finally {
      await untrusting.close();
    }
  });

  it('a TLS connection gets the __Host- cookie, and a POST on it needs that cookie', async () => {
    const app = Course.start(table, { secret: 'test-secret', onError: () => {} });
    const tls = await listenTls(app);
    try {
      const token = await viaTls(tls.port, 'GET', '/token', {});
      expect(token.setCookie).toMatch(/^__Host-CSRF-TOKEN=.*; Secure; SameSite=Lax$/);
      const fetched = await app.fetch(new Request('https://localhost/token'));
      expect(fetched.headers.get('set-cookie')).toMatch(
        /^__Host-CSRF-TOKEN=.*; Secure; SameSite=Lax$/,
      );
      const cookie = token.setCookie.split(';')[0]!;
      const post = (headers: Record<string, string>) => viaTls(tls.port, 'POST', '/items', headers);
      expect((await post({ cookie, 'x-csrf-token': token.body })).body).toBe('created');
      const plain = cookie.replace('__Host-', '');
      expect((await post({ cookie: plain, 'x-csrf-token': token.body })).status).toBe(403);
    } finally {
      await tls.close();
    }
  });
});

describe('the token a page holds is masked anew for each response (BREACH)', () => {
  it('differs on every page, never is the cookie token, and each one passes', async () => {
    const { cookie, token } = await session();
    const raw = cookie.slice(cookie.indexOf('=') + 1, cookie.lastIndexOf('.'));
    const pages = [token];
    for (let i = 0; i < 10; i++) pages.push((await both(served, 'GET', '/token', { cookie })).body);
    expect(new Set(pages).size).toBe(pages.length);
    for (const page of pages) {
      expect(page).toMatch(/^[\w-]{86}$/);
      expect(page).not.toContain(raw);
      const answer = await both(served, 'POST', '/items', { cookie, 'x-csrf-token': page });
      expect(answer.body).toBe('created');
    }
  });

  it('the unmasked token (pages made before masking) passes; a token altered anywhere does not', async () => {
    const { cookie, token } = await session();
    const raw = cookie.slice(cookie.indexOf('=') + 1, cookie.lastIndexOf('.'));
    expect(raw).toMatch(/^[0-9a-f]{64}$/);
    const post = (given: string) =>
      both(served, 'POST', '/items', { cookie, 'x-csrf-token': given });
    expect((await post(raw)).body).toBe('created');
    for (const at of [0, 42, 84, 85]) {
      const altered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect((await post(altered)).status).toBe(403);
    }
    // Its last character's spare bits set: the same bytes, another spelling, refused too.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1)!);
    for (let spare = 1; spare < 16; spare++)
      expect((await post(token.slice(0, -1) + alphabet[last ^ spare]!)).status).toBe(403);
    for (const wrong of [token.slice(1), `${token}A`, raw.toUpperCase(), `${raw}0`, ''])
      expect((await post(wrong)).status).toBe(403);
  });
});

describe('legitimate requests pass', () => {
  it('a same-origin form post with the token, and the X-CSRF-TOKEN header', async () => {
    const { cookie, token } = await session();
    const sameOrigin = { cookie, 'sec-fetch-site': 'same-origin', origin: 'http://localhost' };
    const form = await both(
      served,
      'POST',
      '/items',
      { ...sameOrigin, 'content-type': FORM },
      `csrf_token=${token}`,
    );
    expect(form).toMatchObject({ status: 200, body: 'created' });
    const header = await both(served, 'POST', '/items', { ...sameOrigin, 'x-csrf-token': token });
    expect(header.body).toBe('created');
    // A request the user made (a bookmark, the address bar), and a client that is no browser.
    for (const extra of [{ 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const answer = await both(served, 'POST', '/items', {
        cookie,
        'x-csrf-token': token,
        ...extra,
      });
      expect(answer.body).toBe('created');
    }
  });

  it('an Origin naming the Host passes without Sec-Fetch-Site (an older browser)', async () => {
    const { cookie, token } = await session();
    for (const origin of ['http://localhost', 'http://localhost:80']) {
      const answer = await both(served, 'POST', '/items', {
        cookie,
        'x-csrf-token': token,
        origin,
      });
      expect(answer.body, origin).toBe('created');
    }
    const secure = await session(HTTPS);
    const answer = await both(served, 'POST', '/items', {
      ...HTTPS,
      cookie: secure.cookie,
      'x-csrf-token': secure.token,
      origin: 'https://localhost:443',
    });
    expect(answer.body).toBe('created');
  });

  it('on https, a form post with the __Host- cookie and its token', async () => {
    const { cookie, token } = await session(HTTPS);
    const headers = { ...HTTPS, cookie, 'content-type': FORM, 'sec-fetch-site': 'same-origin' };
    const answer = await both(served, 'POST', '/items', headers, `csrf_token=${token}`);
    expect(answer).toMatchObject({ status: 200, body: 'created' });
  });
});

describe('attacks are refused (403)', () => {
  it('cookie tossing: a validly signed CSRF-TOKEN of the attacker sent before the victim cookie', async () => {
    const attacker = await session(); // a cookie the attacker got from the site itself
    const victim = await session(HTTPS);
    expect(
      (
        await both(served, 'POST', '/items', {
          cookie: attacker.cookie,
          'x-csrf-token': attacker.token,
        })
      ).body,
      'the attacker pair is valid on its own',
    ).toBe('created');
    const tossed = {
      ...HTTPS,
      cookie: `${attacker.cookie}; ${victim.cookie}`,
      'content-type': FORM,
    };
    const answer = await both(served, 'POST', '/items', tossed, `csrf_token=${attacker.token}`);
    expect(answer.status).toBe(403);
    // On https only the __Host- cookie counts: the victim's own token still works.
    const own = await both(served, 'POST', '/items', tossed, `csrf_token=${victim.token}`);
    expect(own.body).toBe('created');
  });

  it('over plain http, two CSRF-TOKEN cookies (the attacker first) are refused whatever the token', async () => {
    const attacker = await session();
    const victim = await session();
    const cookie = `${attacker.cookie}; ${victim.cookie}`;
    for (const token of [attacker.token, victim.token]) {
      const answer = await both(
        served,
        'POST',
        '/items',
        { cookie, 'content-type': FORM },
        `csrf_token=${token}`,
      );
      expect(answer.status).toBe(403);
    }
  });

  it('the second CSRF-TOKEN is refused past the 256 cookies read too, however many come before it', async () => {
    const victim = await session();
    const other = await session();
    for (const [fillers, status] of [
      [254, 403], // the second one is the 256th cookie: read
      [255, 403], // the 257th: past the cookies read, found all the same
      [400, 403],
    ] as const) {
      const filler = Array.from({ length: fillers }, (_, i) => `f${i}=1`).join('; ');
      const cookie = `${victim.cookie}; ${filler}; ${other.cookie}`;
      const answer = await both(served, 'POST', '/items', { cookie, 'x-csrf-token': victim.token });
      expect(answer.status, `${fillers} cookies between`).toBe(status);
    }
    const many = Array.from({ length: 400 }, (_, i) => `f${i}=1`).join('; ');
    const alone = await both(served, 'POST', '/items', {
      cookie: `${victim.cookie}; ${many}`,
      'x-csrf-token': victim.token,
    });
    expect(alone.body, 'one CSRF-TOKEN among 401 cookies').toBe('created');
  });

  it('Sec-Fetch-Site cross-site or same-site, even with a valid token', async () => {
    const { cookie, token } = await session();
    for (const site of ['cross-site', 'same-site']) {
      const answer = await both(served, 'POST', '/items', {
        cookie,
        'x-csrf-token': token,
        'sec-fetch-site': site,
      });
      expect(answer, site).toMatchObject({ status: 403, body: 'Cross-origin request refused' });
    }
  });

  it('a foreign or opaque Origin without Sec-Fetch-Site, even with a valid token', async () => {
    const { cookie, token } = await session();
    for (const origin of [
      'http://evil.example',
      'http://localhost.evil.example',
      'http://localhost:8080',
      'null',
      // No browser writes an origin so; the URL parser would make each `http://localhost`.
      'http://localhost/x',
      'http://localhost/',
      'http://evil@localhost',
      'http://localhost.',
      'http://127.0.0.1.',
      'HTTP://localhost',
      'http://LOCALHOST',
    ]) {
      const answer = await both(served, 'POST', '/items', {
        cookie,
        'x-csrf-token': token,
        origin,
      });
      expect(answer.status, origin).toBe(403);
    }
  });

  it('an Origin of the other scheme: https on http, http on https', async () => {
    const plain = await session();
    const onHttp = await both(served, 'POST', '/items', {
      cookie: plain.cookie,
      'x-csrf-token': plain.token,
      origin: 'https://localhost',
    });
    expect(onHttp).toMatchObject({ status: 403, body: 'Cross-origin request refused' });
    const secure = await session(HTTPS);
    const onHttps = await both(served, 'POST', '/items', {
      ...HTTPS,
      cookie: secure.cookie,
      'x-csrf-token': secure.token,
      origin: 'http://localhost',
    });
    expect(onHttps).toMatchObject({ status: 403, body: 'Cross-origin request refused' });
  });

  it('a request refused for its origin, cookie or header token is answered before its body comes', async () => {
    const { cookie, token } = await session();
    const refusals: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', cookie, 'x-csrf-token': token },
      { origin: 'http://evil.example', cookie, 'x-csrf-token': token },
      { 'x-csrf-token': token },
      { cookie, 'x-csrf-token': 'wrong' },
    ];
    for (const headers of refusals) {
      const label = Object.keys(headers).join(' ');
      expect(await stalledPost(served, '/items', headers), label).toEqual([403, 403]);
    }
    // The token in the header lets the request through: the route then waits for its body.
    expect(await stalledPost(served, '/items', { cookie, 'x-csrf-token': token })).toEqual([0, 0]);
  });

  it('each unusual verb without a token on a Course.any route; with one it passes', async () => {
    const { cookie, token } = await session();
    for (const method of UNUSUAL) {
      expect((await both(served, method, '/dav', { cookie })).status, method).toBe(403);
      expect((await both(served, method, '/dav', { 'sec-fetch-site': 'cross-site' })).status).toBe(
        403,
      );
      const passed = await both(served, method, '/dav', { cookie, 'x-csrf-token': token });
      expect(passed.body, method).toBe(`dav ${method}`);
    }
    for (const method of ['GET', 'OPTIONS'])
      expect((await both(served, method, '/dav', { 'sec-fetch-site': 'cross-site' })).body).toBe(
        `dav ${method}`,
      );
    // Fetch refuses to make a TRACE request: over the socket only.
    const trace = await httpRequest(served.base, 'TRACE', '/dav', { host: 'localhost' });
    expect(trace.body).toBe('dav TRACE');
  });
});

describe('except and include', () => {
  it('an excepted path is checked for nothing; an included one for everything', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site' };
    expect((await both(served, 'POST', '/webhook', crossSite)).body).toBe('hook');
    expect((await both(served, 'POST', '/api/open', crossSite)).body).toBe('open');
    expect((await both(served, 'POST', '/api/secure', crossSite)).status).toBe(403);
    expect((await both(served, 'POST', '/api/secure', {})).status).toBe(403);
    const { cookie, token } = await session();
    const headers = { cookie, 'x-csrf-token': token, 'sec-fetch-site': 'same-origin' };
    expect((await both(served, 'POST', '/api/secure', headers)).body).toBe('secure');
  });
});

// --- helpers ---

interface Reply {
  status: number;
  body: string;
  setCookie: string;
}

/** A fresh token and its cookie (`name=value`), as a browser gets them from a page. */
async function session(headers: Record<string, string> = {}) {
  const reply = await both(served, 'GET', '/token', headers);
  return { token: reply.body, cookie: reply.setCookie.split(';')[0]!, setCookie: reply.setCookie };
}

/**
 * Sends the request through the Fetch adapter and over a socket to the node:http one, asserts
 * both answer alike (a new token aside), and returns the socket's answer.
 */
async function both(
  app: Served,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  const response = await app.app.fetch(
    new Request(`http://localhost${path}`, { method, headers, body }),
  );
  const viaFetch = {
    status: response.status,
    body: await response.text(),
    setCookie: response.headers.get('set-cookie') ?? '',
  };
  const { hostname, port } = new URL(app.base);
  const viaHttp = await reply(
    httpRequestRaw({ hostname, port, method, path, headers: { host: 'localhost', ...headers } }),
    body,
  );
  const shape = (reply: Reply) => ({
    status: reply.status,
    body: path === '/token' ? reply.body.length : reply.body,
    cookie: reply.setCookie.replace(/=[^;]*/, ''),
  });
  expect(shape(viaHttp), `${method} ${path}: node:http and fetch differ`).toEqual(shape(viaFetch));
  return viaHttp;
}

/**
 * The status of a JSON POST whose body never comes, within 1.5 s, through both adapters
 * (node:http over a raw socket, then Fetch with a stream that never ends); 0 for no answer.
 */
async function stalledPost(
  app: Served,
  path: string,
  headers: Record<string, string>,
): Promise<[number, number]> {
  const { port } = new URL(app.base);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
    `Content-Length: 100000\r\n${lines.join('')}\r\n`;
  const viaHttp = await new Promise<number>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    const done = (status: number) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    };
    const timer = setTimeout(() => done(0), 1500);
    socket.once('data', (chunk: Buffer) =>
      done(Number(/^HTTP\/1\.1 (\d+)/.exec(String(chunk))?.[1])),
    );
    socket.on('error', () => done(0));
  });
  const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
  const controller = new AbortController();
  const response = app.app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: stalled,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit),
  );
  const viaFetch = await Promise.race([
    response.then((r) => r.status),
    new Promise<number>((resolve) => setTimeout(() => resolve(0), 1500)),
  ]);
  controller.abort();
  return [viaHttp, viaFetch];
}

/** Sends `req` with `body` and collects its answer. */
function reply(req: ClientRequest, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          setCookie: res.headers['set-cookie']?.join(', ') ?? '',
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A self-signed certificate for localhost (P-256, valid until 2126), for this test only.
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgR2iLTlETYEHlFR02
+JsbfFiiLBb4zEvJVKJKko/lZW2hRANCAARoQdQRXTQlCuGEAQUoAdoedAAVORZ4
jot5WaRb7+JbZTyq+FLadC0cL/vyIYqHSLBzNK+5gxkpwD7E3hFMx9rs
-----END PRIVATE KEY-----`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBfjCCASWgAwIBAgIUOT4zMeFUnLcBx/V0tsUBmgcgQRUwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNTEzNTgzMFoYDzIxMjYxMTAx
MTM1ODMwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARoQdQRXTQlCuGEAQUoAdoedAAVORZ4jot5WaRb7+JbZTyq+FLadC0c
L/vyIYqHSLBzNK+5gxkpwD7E3hFMx9rso1MwUTAdBgNVHQ4EFgQUi2rTufkTI02t
1T1jTpmz7qIabtAwHwYDVR0jBBgwFoAUi2rTufkTI02t1T1jTpmz7qIabtAwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiAJx6KfZcbmMCjFPEBj/k5B
t3qp8TnLErAmqmYHqDLRqgIgAa13fDoCyNOhnnMIVDYsUZRcMXfBedGDKQs4Xszj
sI0=
-----END CERTIFICATE-----`;

/** The app's node:http handler behind a real TLS server on 127.0.0.1. */
async function listenTls(app: CourseApp): Promise<{ port: number; close(): Promise<void> }> {
  const server = createHttpsServer({ key: TLS_KEY, cert: TLS_CERT }, app.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function viaTls(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<Reply> {
  const options = { hostname: '127.0.0.1', port, method, path, rejectUnauthorized: false };
  return reply(httpsRequest({ ...options, headers: { host: 'localhost', ...headers } }));
}
