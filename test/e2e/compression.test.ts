import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { rawHttp } from '../_raw-http.js';
import { servedApp } from '../_utils.js';

// Compression as the threat model's "Compression abuse" row attacks it: huge Accept-Encoding
// lists, already-encoded answers, HEAD, small bodies, no-transform; and a gzip request body,
// which is never inflated — over raw sockets to node:http, and through Fetch.
const PAGE = '<p>hello</p>'.repeat(500);
// A static file past the size read whole (256 KiB): streamed, with its length when sent as it is.
const files = mkdtempSync(path.join(os.tmpdir(), 'course-compress-'));
const BOOK = 'All work and no play. '.repeat(20_000);
writeFileSync(path.join(files, 'book.txt'), BOOK);
afterAll(() => rmSync(files, { recursive: true, force: true }));
const state = servedApp(
  {
    'routes.ts': `
import { Course, input, request, response } from 'course-router';
const PAGE = '<p>hello</p>'.repeat(500);
Course.get('/page', () => PAGE);
Course.get('/small', () => 'tiny');
Course.get('/json', () => ({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'item ' + i })) }));
Course.get('/binary', () => new Uint8Array(5000).fill(7));
Course.get('/encoded', () => { response().header('content-encoding', 'gzip').header('content-type', 'text/plain'); return new Uint8Array([1, 2, 3]).subarray(0) ; });
Course.get('/no-transform', () => { response().header('cache-control', 'public, no-transform'); return PAGE; });
Course.get('/etag', () => { response().header('etag', '"v1"').cookie('seen', '1'); return PAGE; });
Course.get('/stream', () => new Response(new ReadableStream({ start(c) { for (let i = 0; i < 50; i++) c.enqueue(new TextEncoder().encode(PAGE)); c.close(); } }), { headers: { 'content-type': 'text/plain; charset=utf-8' } }));
Course.get('/empty', () => response().httpCode(204));
Course.get('/events', () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('data: first\\n\\n')); setTimeout(() => { try { c.enqueue(new TextEncoder().encode('data: second\\n\\n')); c.close(); } catch { /* the client left */ } }, 300); } }), { headers: { 'content-type': 'text/event-stream' } }));
Course.post('/echo', async () => 'got ' + (await request().body()).byteLength + ' bytes');
Course.post('/fields', async () => ({ fields: Object.keys(input().post).length, bytes: (await request().body()).byteLength }));
Course.get('/files/{path?}', () => 'never').where('path', '.*').addMiddleware('Middleware\\\\Files');
`,
    'app/Middleware/Files.ts': `
import { ServeStatic } from 'course-router';
export class Files extends ServeStatic {
  protected override root = ${JSON.stringify(files)};
}`,
  },
  { compress: true },
);

const raw = (target: string, headers: Record<string, string> = {}, method = 'GET', body = '') =>
  rawHttp(
    Number(new URL(state.served.base).port),
    method,
    target,
    headers,
    body ? Buffer.from(body, 'latin1') : undefined,
  );

function decoded(answer: { headers: Record<string, string>; body: Buffer }): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  return answer.body.toString();
}

describe('compression', () => {
  it('a streamed static file: compressed without its length, else sent with it', async () => {
    const gz = await raw('/files/book.txt', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-length']).toBeUndefined();
    expect(decoded(gz)).toBe(BOOK);
    const plain = await raw('/files/book.txt');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(BOOK.length));
    expect(plain.body.toString()).toBe(BOOK);
    const fetched = await state.served.app.request('/files/book.txt', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(fetched.headers.get('content-encoding')).toBe('br');
    expect(fetched.headers.get('content-length')).toBeNull();
    expect(brotliDecompressSync(Buffer.from(await fetched.arrayBuffer())).toString()).toBe(BOOK);
  });

  it('brotli first, gzip when only it is accepted; Vary: Accept-Encoding; no Content-Length', async () => {
    const br = await raw('/page', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-length']).toBeUndefined();
    expect(br.body.length).toBeLessThan(PAGE.length / 10);
    expect(decoded(br)).toBe(PAGE);
    const gz = await raw('/page', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(PAGE);
    const none = await raw('/page');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers['vary']).toBe('Accept-Encoding');
    expect(none.body.toString()).toBe(PAGE);
    const refused = await raw('/page', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    // The weight's name in any case (RFC 9110 §5.6.6); a weight that is no qvalue accepts nothing.
    // Spaced around its `=` (`br ; q = 0`), it is read all the same.
    for (const header of [
      'br;Q=0, gzip;Q=0',
      'br;q=1e-10, gzip;q=2',
      'gzip; q=0.0001',
      'br ; q = 0, gzip ;q= 0',
    ])
      expect(
        (await raw('/page', { 'accept-encoding': header })).headers,
        header,
      ).not.toHaveProperty('content-encoding');
    const weighed = await raw('/page', { 'accept-encoding': 'br;Q=0, gzip; q=0.001' });
    expect(weighed.headers['content-encoding']).toBe('gzip');
    // The client's weights choose; br, the server's first, among equals.
    for (const [header, encoding] of [
      ['gzip, br;q=0.5', 'gzip'],
      ['br;q=0.2, gzip;q=0.9', 'gzip'],
      ['gzip, br', 'br'],
      ['gzip;q=0.5, *', 'br'],
    ])
      expect((await raw('/page', { 'accept-encoding': header! })).headers['content-encoding']).toBe(
        encoding,
      );
    const json = await raw('/json', { 'accept-encoding': 'gzip' });
    expect(JSON.parse(decoded(json)).items).toHaveLength(300);
  });

  it('through Fetch alike; a stream is compressed as it comes', async () => {
    const fetched = await state.served.app.request('/page', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(fetched.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await fetched.arrayBuffer())).toString()).toBe(PAGE);
    const stream = await raw('/stream', { 'accept-encoding': 'gzip' });
    expect(stream.headers['content-encoding']).toBe('gzip');
    expect(decoded(stream)).toBe(PAGE.repeat(50));
  });

  it('never for small bodies, other types, encoded answers, no-transform, 204', async () => {
    const ae = { 'accept-encoding': 'br, gzip' };
    const small = await raw('/small', ae);
    expect([small.headers['content-encoding'], small.body.toString()]).toEqual([undefined, 'tiny']);
    expect((await raw('/binary', ae)).headers['content-encoding']).toBeUndefined();
    const encoded = await raw('/encoded', ae);
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect([...encoded.body]).toEqual([1, 2, 3]);
    const kept = await raw('/no-transform', ae);
    expect(kept.headers['content-encoding']).toBeUndefined();
    expect(kept.body.toString()).toBe(PAGE);
    expect((await raw('/empty', ae)).status).toBe(204);
  });

  it('a HEAD has the headers the GET has (RFC 9110 §9.3.2), and no body', async () => {
    // Framing aside: node:http sends no `Transfer-Encoding` for a HEAD, as RFC 9112 §6.1 allows.
    const headers = (answer: { headers: Record<string, string> }) =>
      Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !/^(date|transfer-encoding)$/.test(name)),
      );
    for (const [target, ae] of [
      ['/page', 'br, gzip'],
      ['/page', 'gzip'],
      ['/page', 'identity'],
      ['/small', 'br'],
      ['/etag', 'gzip'],
      ['/stream', 'gzip'],
      ['/binary', 'br'],
    ] as const) {
      const get = await raw(target, { 'accept-encoding': ae });
      const head = await raw(target, { 'accept-encoding': ae }, 'HEAD');
      expect(headers(head), `${target} ${ae}`).toEqual(headers(get));
      expect(head.body.length).toBe(0);
      const fetched = await state.served.app.request(target, {
        method: 'HEAD',
        headers: { 'accept-encoding': ae },
      });
      expect(fetched.headers.get('vary'), `${target} ${ae}`).toBe(get.headers['vary'] ?? null);
      expect(fetched.headers.get('content-encoding')).toBe(get.headers['content-encoding'] ?? null);
      expect(fetched.headers.get('etag')).toBe(get.headers['etag'] ?? null);
      expect(await fetched.text()).toBe('');
    }
  });

  it('never for server-sent events: each event reaches the client as it is sent', async () => {
    const events = await state.served.app.request('/events', {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(events.headers.get('content-encoding')).toBeNull();
    const reader = events.body!.getReader();
    // The first event arrives before the second is written, not held in a compressor's block.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    await reader.cancel();
    const sent = await raw('/events', { 'accept-encoding': 'gzip' });
    expect([sent.headers['content-encoding'], sent.body.toString()]).toEqual([
      undefined,
      'data: first\n\ndata: second\n\n',
    ]);
  });

  it('a strong ETag becomes weak; cookies are kept', async () => {
    const answer = await raw('/etag', { 'accept-encoding': 'gzip' });
    expect(answer.headers['etag']).toBe('W/"v1"');
    expect(answer.headers['set-cookie']).toBe('seen=1');
    expect(decoded(answer)).toBe(PAGE);
  });

  it('a huge Accept-Encoding is read only in its first entries', async () => {
    const junk = Array.from({ length: 2000 }, (_, i) => `x${i}`).join(',');
    const overSocket = await raw('/page', { 'accept-encoding': `${junk}, gzip` });
    expect(overSocket.status).toBe(200);
    expect(overSocket.headers['content-encoding']).toBeUndefined();
    const many = Array.from({ length: 10_000 }, () => 'gzip;q=0.5').join(', ');
    const viaFetch = await state.served.app.request('/page', {
      headers: { 'accept-encoding': many },
    });
    expect(viaFetch.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await viaFetch.arrayBuffer())).toString()).toBe(PAGE);
  });

  it('a gzip request body is never inflated: a bomb is read as the bytes it is', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    const answer = await raw(
      '/echo',
      {
        'content-type': 'application/octet-stream',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      },
      'POST',
      bomb.toString('latin1'),
    );
    expect(answer.status).toBe(200);
    expect(decoded(answer)).toBe(`got ${bomb.length} bytes`);
  });

  it('a form or JSON body in a content coding is not parsed: the route reads it as sent', async () => {
    const json = gzipSync('{"a":1,"b":2}');
    const coded = await raw(
      '/fields',
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(json.length),
      },
      'POST',
      json.toString('latin1'),
    );
    expect([coded.status, JSON.parse(decoded(coded))]).toEqual([
      200,
      { fields: 0, bytes: json.length },
    ]);
    // Through Fetch: what `/fields` saw of a body in `type` and `coding`.
    const fetched = async (type: string, coding: string, body: string) =>
      (
        await state.served.app.fetch(
          new Request('http://localhost/fields', {
            method: 'POST',
            headers: { 'content-type': type, 'content-encoding': coding },
            body,
          }),
        )
      ).json();
    expect(await fetched('application/x-www-form-urlencoded', 'br', 'a=1')).toEqual({
      fields: 0,
      bytes: 3,
    });
    // `identity` is no coding: the body is parsed.
    expect(await fetched('application/json', 'Identity', '{"a":1}')).toEqual({
      fields: 1,
      bytes: 7,
    });
  });
});
