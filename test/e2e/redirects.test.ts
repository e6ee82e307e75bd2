import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartOptions } from 'course-router';
import { buildApp, importTable, removeApp, send, serve, writeApp, type Served } from '../_utils.js';

const ROUTES = `
import { Course, response, toRoute } from 'course-router';
import { request } from 'course-router';
const to = () => request().searchParams.get('to') ?? '';
Course.get('/go', () => toRoute(to()));
Course.get('/deep/page', () => toRoute(to()));
Course.get('/send', () => response().redirect(to()));
Course.get('/euro', () => toRoute('/€?q=ä'));
Course.get('/euro-send', () => response().redirect('/€'));
`;

// What an attacker puts in \`?next=\` (threat model, "Open redirect").
const ATTACKS = [
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  'http:evil.example',
  'http:/evil.example',
  'https:evil.example',
  'https:/evil.example',
  'ht\ttp://evil.example',
  '\n//evil.example',
  '/\t/evil.example',
  '//localhost@evil.example',
  'http://localhost@evil.example',
  '/%2F%2Fevil.example',
  '%2F%2Fevil.example',
  ' //evil.example',
  ' http://evil.example',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://evil.example/',
  '//evil.example:443',
  'http://evil.example\\@localhost/',
  '/.//evil.example',
];

let dir: string;
let plain: Served;
let proxied: Served;

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  const table = await importTable(dir);
  plain = await serve(table);
  const behindProxy: StartOptions = { trustProxy: 1, redirectHosts: ['accounts.example'] };
  proxied = await serve(table, behindProxy);
});

afterAll(async () => {
  await plain?.close();
  await proxied?.close();
  removeApp(dir);
});

/** Where a browser on `page` goes for the answer of `path?to=…`: 'refused' (400) or a URL. */
async function landing(served: Served, path: string, to: string, proto?: string) {
  const headers = proto ? { 'x-forwarded-proto': proto } : undefined;
  const answer = await send(served, 'GET', `${path}?to=${encodeURIComponent(to)}`, { headers });
  if (answer.status === 400) return 'refused';
  expect(answer.status, to).toBe(302);
  return answer.headers['location']!;
}

/** Whether `location` leaves localhost for a browser on an http or an https page. */
function offSite(location: string): boolean {
  return ['http://localhost/deep/page', 'https://localhost/deep/page'].some(
    (page) => new URL(location, page).origin !== new URL(page).origin,
  );
}

describe('toRoute() keeps browsers on the site (both adapters, WHATWG resolution)', () => {
  it('no attacker target sends a browser off the site, whatever the scheme of its page', async () => {
    for (const served of [plain, proxied])
      for (const path of ['/go', '/deep/page'])
        for (const proto of [undefined, 'https']) {
          for (const to of ATTACKS) {
            const where = await landing(served, path, to, proto);
            if (where !== 'refused') expect(offSite(where), `${to} -> ${where}`).toBe(false);
          }
        }
  });

  it('http:evil is a path on an http origin and off-site on a trusted https one', async () => {
    expect(await landing(plain, '/go', 'http:evil.example')).toBe('/evil.example');
    expect(await landing(plain, '/go', 'http:evil.example', 'https')).toBe('/evil.example');
    expect(await landing(proxied, '/go', 'http:evil.example', 'https')).toBe('refused');
    expect(await landing(proxied, '/go', 'https:evil.example', 'https')).toBe('/evil.example');
    // The Fetch adapter knows https from the request's URL, without any proxy header.
    const overTls = await plain.app.fetch(new Request('https://localhost/go?to=http:evil.example'));
    expect(overTls.status).toBe(400);
    for (const to of ['//evil.example', '/\\evil.example', 'javascript:alert(1)', 'ht\ttp://x'])
      expect(await landing(plain, '/go', to), to).toBe('refused');
  });

  it('on-site targets come back as paths; allowed hosts as absolute URLs', async () => {
    expect(await landing(plain, '/deep/page', 'other?x=1#top')).toBe('/deep/other?x=1#top');
    expect(await landing(plain, '/go', 'http://localhost/a b')).toBe('/a%20b');
    expect(await landing(plain, '/go', 'https://localhost/a')).toBe('refused');
    expect(await landing(proxied, '/go', 'https://localhost/a', 'https')).toBe('/a');
    expect(await landing(plain, '/go', '/.//evil.example')).toBe('/.//evil.example');
    expect(await landing(proxied, '/go', 'https://accounts.example/in?a=ä')).toBe(
      'https://accounts.example/in?a=%C3%A4',
    );
    expect(await landing(proxied, '/go', '//localhost@accounts.example')).toBe(
      'http://localhost@accounts.example/',
    );
  });
});

describe('Location is percent-encoded once and never crashes an adapter', () => {
  it("toRoute('/€?q=ä') and redirect('/€') send UTF-8 escapes, alike in both adapters", async () => {
    expect(await send(plain, 'GET', '/euro')).toMatchObject({
      status: 302,
      headers: { location: '/%E2%82%AC?q=%C3%A4' },
    });
    expect((await send(plain, 'GET', '/euro-send')).headers['location']).toBe('/%E2%82%AC');
    const head = await rawHead(plain.base, '/euro');
    expect(head).toMatch(/^HTTP\/1\.1 302 /);
    expect(head).toContain('\r\nlocation: /%E2%82%AC?q=%C3%A4\r\n');
  });

  it('redirect() goes where the app says, with escapes kept and the rest encoded', async () => {
    const location = async (to: string) =>
      (await send(plain, 'GET', `/send?to=${encodeURIComponent(to)}`)).headers['location'];
    expect(await location('https://other.example/ä b')).toBe('https://other.example/%C3%A4%20b');
    expect(await location('/a%20b%zz%E2%82%AC€')).toBe('/a%20b%25zz%E2%82%AC%E2%82%AC');
    expect(await location('/\\evil.example')).toBe('/%5Cevil.example');
    expect(offSite('/%5Cevil.example')).toBe(false);
  });

  it('redirect() refuses control characters as toRoute does: a 400, no header written', async () => {
    for (const to of ['/a\r\nSet-Cookie: x=1', '/a\0', 'ht\ttp://x']) {
      const answer = await send(plain, 'GET', `/send?to=${encodeURIComponent(to)}`);
      expect(answer).toMatchObject({ status: 400, body: 'Refused redirect target' });
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });
});

/** The response head of a GET written byte for byte on a socket, read as bytes (latin1). */
function rawHead(base: string, target: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text.slice(0, text.indexOf('\r\n\r\n') + 2)));
    socket.on('error', reject);
  });
}
