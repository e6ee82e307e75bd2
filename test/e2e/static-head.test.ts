import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawHttp } from '../_raw-http.js';
import { servedApp } from '../_utils.js';

// A HEAD gets the headers its GET gets, bodies aside (RFC 9110 §9.3.2), with `compress` on:
// static files read whole (up to 256 KiB) and streamed (larger), compressible and not, with and
// without Accept-Encoding; and a route's answer. Over raw sockets to node:http, and through Fetch.
const base = mkdtempSync(path.join(os.tmpdir(), 'course-static-head-'));
const root = path.join(base, 'public');
mkdirSync(root, { recursive: true });
const TEXT = 'All work and no play makes Jack a dull boy.\n';
writeFileSync(path.join(root, 'small.txt'), TEXT.repeat(50));
writeFileSync(path.join(root, 'big.txt'), TEXT.repeat(10_000));
writeFileSync(
  path.join(root, 'small.png'),
  new Uint8Array(3000).map((_, i) => i % 251),
);
writeFileSync(
  path.join(root, 'big.png'),
  new Uint8Array(600_000).map((_, i) => i % 251),
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const state = servedApp(
  {
    'routes.ts': `
import { Course } from 'course-router';
Course.get('/assets/{path?}', () => 'never').where('path', '.*').addMiddleware('Middleware\\\\Assets');
Course.get('/page', () => ${JSON.stringify(TEXT.repeat(100))});
`,
    'app/Middleware/Assets.ts': `
import { ServeStatic } from 'course-router';
export class Assets extends ServeStatic {
  protected override root = ${JSON.stringify(root)};
}`,
  },
  { compress: true },
);

const TARGETS = [
  '/assets/small.txt',
  '/assets/big.txt',
  '/assets/small.png',
  '/assets/big.png',
  '/page',
];
const ACCEPTS: Record<string, string>[] = [
  {},
  { 'accept-encoding': 'gzip' },
  { 'accept-encoding': 'br, gzip' },
];
// Written by node:http as it sends, or by the clock: not the representation's.
const FRAMING = new Set(['date', 'transfer-encoding', 'connection']);

function comparable(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) if (!FRAMING.has(name)) out[name] = value;
  return out;
}

describe('HEAD and GET of static files and routes, compress on', () => {
  it.each(TARGETS)('node:http, raw socket: %s', async (target) => {
    const port = Number(new URL(state.served.base).port);
    for (const accept of ACCEPTS) {
      const get = await rawHttp(port, 'GET', target, accept);
      const head = await rawHttp(port, 'HEAD', target, accept);
      expect(get.status).toBe(200);
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(comparable(Object.entries(head.headers)), JSON.stringify(accept)).toEqual(
        comparable(Object.entries(get.headers)),
      );
    }
  });

  it.each(TARGETS)('Fetch adapter: %s', async (target) => {
    for (const accept of ACCEPTS) {
      const get = await state.served.app.request(target, { headers: accept });
      const head = await state.served.app.request(target, { method: 'HEAD', headers: accept });
      const bytes = (await get.arrayBuffer()).byteLength;
      expect(head.status).toBe(200);
      expect(head.body === null || (await head.arrayBuffer()).byteLength === 0).toBe(true);
      const { 'content-length': length, ...rest } = comparable(head.headers.entries());
      const { 'content-length': getLength, ...getRest } = comparable(get.headers.entries());
      expect(rest, JSON.stringify(accept)).toEqual(getRest);
      // The runtime writes a GET's Content-Length from a body it holds whole; a HEAD has no body
      // to write it from, so it carries it: the length of the bytes the GET sends.
      if (getLength !== undefined) expect(length).toBe(getLength);
      if (length !== undefined)
        expect([length, rest['content-encoding']]).toEqual([`${bytes}`, undefined]);
    }
  });

  it('a large text file is compressed for a client that accepts it, and its HEAD says so', async () => {
    const port = Number(new URL(state.served.base).port);
    const accept = { 'accept-encoding': 'gzip' };
    const head = await rawHttp(port, 'HEAD', '/assets/big.txt', accept);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['vary']).toBe('Accept-Encoding');
    const fetched = await state.served.app.request('/assets/big.txt', {
      method: 'HEAD',
      headers: accept,
    });
    expect(fetched.headers.get('content-encoding')).toBe('gzip');
  });
});
