import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import { connect, createSecureServer, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, type CourseApp } from 'course-router';
import { startServer } from '../_install.js';
import { deployFile } from '../_readme.js';
import { freePort } from '../_redis.js';
import { buildApp, importTable, removeApp, ROOT, writeApp } from '../_utils.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

// HTTPS and HTTP/2 are Node's servers with the app's `handler`: a self-signed certificate for
// 127.0.0.1 is made here with the openssl command (Debian's; `.ci/run` installs it).
const ROUTES = `import { Course, input, request, url } from 'course-router';
Course.get('/user/{id}', (id: string) => ({ id, self: url('user', { id }), tls: request().tls })).name('user');
Course.post('/echo', () => ({ name: input('name') }));
Course.group({ domain: '{account}.example.test' }, () => {
  Course.get('/who', (account: string) => account);
});
`;

let dir: string;
let certDir: string;
let tls: { key: string; cert: string };
let app: CourseApp;
beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  app = Course.start(await importTable(dir));
  certDir = mkdtempSync(path.join(os.tmpdir(), 'course-cert-'));
  const [key, cert] = [path.join(certDir, 'key.pem'), path.join(certDir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  tls = { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
});
afterAll(() => {
  if (dir) removeApp(dir);
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe('node:https with the handler', () => {
  it('answers routes, bodies and domains, and knows the request is secure', async () => {
    const server = createHttpsServer(tls, app.handler);
    const port = await listening(server);
    try {
      await expectAnswers((...args) => overHttps(port, ...args));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("README's https.ts", () => {
  it('serves HTTP/2 with the certificate', async () => {
    writeFileSync(path.join(dir, 'key.pem'), tls.key);
    writeFileSync(path.join(dir, 'cert.pem'), tls.cert);
    writeFileSync(path.join(dir, 'https.ts'), deployFile(README, 'https.ts'));
    const port = await freePort();
    const server = await startServer(process.execPath, [TSX, 'https.ts'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      port,
    });
    const session = connect(`https://127.0.0.1:${port}`, { ca: tls.cert });
    try {
      expect(await overHttp2(session, 'GET', '/user/9')).toEqual({
        status: 200,
        body: '{"id":"9","self":"/user/9","tls":true}',
      });
    } finally {
      session.close();
      await server.stop();
    }
  }, 30_000);
});

describe('node:http2 (the compatibility API) with the handler', () => {
  it('answers the same over HTTP/2, and HTTP/1.1 on the same port', async () => {
    const server = createSecureServer({ ...tls, allowHTTP1: true }, app.handler);
    const port = await listening(server);
    const session = connect(`https://127.0.0.1:${port}`, { ca: tls.cert });
    try {
      await expectAnswers((...args) => overHttp2(session, ...args));
      expect((await overHttp2(session, 'GET', '/nothing')).status).toBe(404);
      expect(await overHttps(port, 'GET', '/user/8')).toMatchObject({ status: 200 });
    } finally {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a Host header naming another host than :authority (RFC 9113 §8.3.1)', async () => {
    const server = createSecureServer(tls, app.handler);
    const port = await listening(server);
    const session = connect(`https://127.0.0.1:${port}`, { ca: tls.cert });
    const ask = (host: string) =>
      overHttp2(session, 'GET', '/who', undefined, 'acme.example.test', { host });
    try {
      expect(await ask('evil.example.test')).toEqual({ status: 400, body: 'Bad Host header' });
      // The same host in another case, with its port or a trailing dot, is the same host.
      expect(await ask('ACME.example.test:443')).toEqual({ status: 200, body: 'acme' });
      expect(await ask('acme.example.test.')).toEqual({ status: 200, body: 'acme' });
    } finally {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// --- internal ---

interface Answer {
  status: number;
  body: string;
}

type Ask = (method: string, target: string, body?: string, host?: string) => Promise<Answer>;

/** A route with parameters and `url()`, a JSON body and a domain route, secure. */
async function expectAnswers(ask: Ask): Promise<void> {
  expect(await ask('GET', '/user/7')).toEqual({
    status: 200,
    body: '{"id":"7","self":"/user/7","tls":true}',
  });
  expect(await ask('POST', '/echo', '{"name":"ann"}')).toEqual({
    status: 200,
    body: '{"name":"ann"}',
  });
  expect(await ask('GET', '/who', undefined, 'acme.example.test')).toEqual({
    status: 200,
    body: 'acme',
  });
}

function listening(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function overHttps(
  port: number,
  method: string,
  target: string,
  body?: string,
  host?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        port,
        host: '127.0.0.1',
        method,
        path: target,
        ca: tls.cert,
        servername: 'localhost',
        agent: false,
        headers: {
          ...(host ? { host } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function overHttp2(
  session: ClientHttp2Session,
  method: string,
  target: string,
  body?: string,
  authority?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ...headers,
      ':method': method,
      ':path': target,
      ...(authority ? { ':authority': authority } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    });
    let status = 0;
    let text = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    stream.on('end', () => resolve({ status, body: text }));
    stream.on('error', reject);
    stream.end(body);
  });
}
