import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, CourseResponse, type CourseApp, type RouteTable } from 'course-router';
import { rawExchange } from '../_child.js';
import { buildApp, importTable, removeApp, serve, writeApp, type Served } from '../_utils.js';

// Cookies as an attacker sends them (threat model, "Cookie tampering"): values with `;`, `,`,
// CR/LF and non-ASCII written, signed cookies with another signature, another name or an old
// key, thousands of cookies and one 8 KB cookie read — over raw sockets and through Fetch.
const ROUTES = `
import { Course, request, response } from 'course-router';
const v = () => request().searchParams.get('v') ?? '';
Course.get('/read', () => ({ theme: request().cookie('theme') ?? null, dup: request().cookieValues('dup'), last: request().getCookie('c1999') ?? null }));
Course.get('/set', () => {
  response().cookie('theme', v(), { httpOnly: true, secure: true, sameSite: 'strict', maxAge: 3600, path: '/app', domain: 'example.com', partitioned: true });
  return 'set';
});
Course.get('/expires', () => { response().cookie('t', 'x', { expires: new Date(Date.UTC(2030, 0, 1)) }); return 'ok'; });
Course.get('/clear', () => { response().clearCookie('theme', { path: '/app' }); return 'cleared'; });
Course.get('/sign', () => { response().cookie('user', v(), { signed: true, httpOnly: true }); return 'signed'; });
Course.get('/whoami', () => request().signedCookie('user') ?? 'nobody');
Course.get('/bad-name', () => { response().cookie(v(), 'x'); return 'no'; });
`;

let dir: string;
let table: RouteTable;
let served: Served;

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  table = await importTable(dir);
  served = await serve(table, { secret: 'old-key' });
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

/** One request over a raw socket: the status, the `Set-Cookie` lines and the body. */
async function raw(target: string, headers = '') {
  const port = Number(new URL(served.base).port);
  const answer = await rawExchange(port, [
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`,
  ]);
  const [head = '', ...rest] = answer.text.split('\r\n\r\n');
  const cookies = [...head.matchAll(/^set-cookie: (.*)$/gim)].map((m) => m[1]!);
  const body = Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8');
  return { status: answer.status, cookies, body, head };
}

describe('response().cookie() and clearCookie()', () => {
  it('writes every attribute, through both adapters alike', async () => {
    const expected =
      'theme=dark; Max-Age=3600; Domain=example.com; Path=/app; HttpOnly; Secure; Partitioned; SameSite=Strict';
    expect((await raw('/set?v=dark')).cookies).toEqual([expected]);
    const fetched = await served.app.request('/set?v=dark');
    expect(fetched.headers.getSetCookie()).toEqual([expected]);
    expect((await raw('/expires')).cookies).toEqual(['t=x; Expires=Tue, 01 Jan 2030 00:00:00 GMT']);
    expect((await raw('/clear')).cookies).toEqual([
      'theme=; Max-Age=0; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ]);
  });

  it('encodes `;`, `,`, CR, LF, NUL and non-ASCII in a value: no attribute or header is injected', async () => {
    const value = encodeURIComponent('a; Domain=evil.com,\r\nSet-Cookie: admin=1\0é');
    const answer = await raw(`/set?v=${value}`);
    expect(answer.status).toBe(200);
    expect(answer.cookies).toHaveLength(1);
    expect(answer.cookies[0]).toMatch(
      /^theme=a%3B%20Domain%3Devil\.com%2C%0D%0ASet-Cookie%3A%20admin%3D1%00%C3%A9; Max-Age/,
    );
    expect(answer.head).not.toMatch(/^set-cookie: admin/im);
    // And it reads back as it was set.
    const back = await raw('/read', `Cookie: ${answer.cookies[0]!.split(';')[0]}\r\n`);
    expect(JSON.parse(back.body).theme).toBe('a; Domain=evil.com,\r\nSet-Cookie: admin=1\0é');
  });

  it('a name a header cannot carry is an error of the request (500), not a broken header', async () => {
    for (const name of ['a;b', 'a b', 'a\r\nb', 'é']) {
      const answer = await raw(`/bad-name?v=${encodeURIComponent(name)}`);
      expect(answer.status, name).toBe(500);
      expect(answer.cookies, name).toEqual([]);
    }
    expect((await served.app.request('/bad-name?v=a%3Bb')).status).toBe(500);
  });
});

describe('a cookie browsers would drop without a word', () => {
  it('is an error naming what it needs; a __Host- cookie gets the Path=/ it must carry', () => {
    const set =
      (...args: Parameters<CourseResponse['cookie']>) =>
      () =>
        new CourseResponse().cookie(...args);
    const drop = '(browsers drop it otherwise)';
    expect(set('a', 'b', { sameSite: 'none' })).toThrow(
      `course: cookie "a": sameSite: 'none' needs secure: true ${drop}`,
    );
    expect(set('a', 'b', { sameSite: 'None' as 'none' })).toThrow(
      `sameSite: 'none' needs secure: true ${drop}`,
    );
    expect(set('a', 'b', { partitioned: true })).toThrow(`partitioned needs secure: true ${drop}`);
    expect(set('__Host-a', 'b')).toThrow(`a __Host- cookie needs secure: true ${drop}`);
    expect(set('__secure-a', 'b')).toThrow(`a __secure- cookie needs secure: true ${drop}`);
    expect(set('__Host-a', 'b', { secure: true, path: '/x' })).toThrow(
      `a __Host- cookie's path is '/' ${drop}`,
    );
    expect(set('__Host-a', 'b', { secure: true, domain: 'example.com' })).toThrow(
      `a __Host- cookie may not have a domain ${drop}`,
    );
    expect(set('a', 'b', { maxAge: 1.5 })).toThrow(
      'course: cookie "a": maxAge is a whole number of seconds, not 1.5',
    );
    expect(new CourseResponse().cookie('__Host-a', 'b', { secure: true }).cookies).toEqual([
      '__Host-a=b; Path=/; Secure',
    ]);
    expect(
      new CourseResponse().cookie('a', 'b', { secure: true, sameSite: 'none', partitioned: true })
        .cookies,
    ).toEqual(['a=b; Secure; Partitioned; SameSite=None']);
  });
});

describe('request().cookie()', () => {
  it('decodes values; a value that does not decode (or quotes) stays as sent; duplicates are kept in order', async () => {
    const answer = await raw('/read', 'Cookie: theme=caf%C3%A9; dup=1; dup=%ZZ\r\n');
    expect(JSON.parse(answer.body)).toEqual({ theme: 'café', dup: ['1', '%ZZ'], last: null });
    const fetched = await served.app.request('/read', { headers: { cookie: 'theme="dark"' } });
    expect(((await fetched.json()) as { theme: string }).theme).toBe('"dark"');
  });

  it('reads at most 256 cookies of thousands; one 8 KB cookie is read whole', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `c${i}=${i}`).join('; ');
    const answer = await served.app.request('/read', { headers: { cookie: `theme=a; ${many}` } });
    expect(await answer.json()).toEqual({ theme: 'a', dup: [], last: null });
    const big = 'x'.repeat(8192);
    const one = await raw('/read', `Cookie: theme=${big}\r\n`);
    expect(JSON.parse(one.body).theme).toBe(big);
  });

  it('a `__proto__` or `constructor` cookie is a name like any other', async () => {
    const answer = await raw('/read', 'Cookie: __proto__=x; constructor=y; theme=z\r\n');
    expect(JSON.parse(answer.body).theme).toBe('z');
  });
});

describe('signed cookies', () => {
  async function signed(value: string): Promise<string> {
    const answer = await raw(`/sign?v=${encodeURIComponent(value)}`);
    return answer.cookies[0]!.split(';')[0]!;
  }

  it('round-trip: the value reads back; another signature, value or name does not', async () => {
    const cookie = await signed('ada');
    expect(cookie).toMatch(/^user=ada\.[\w-]{43}$/);
    expect((await raw('/whoami', `Cookie: ${cookie}\r\n`)).body).toBe('ada');
    const sig = cookie.slice(cookie.indexOf('.') + 1);
    const forged = [
      `user=admin.${sig}`,
      `user=ada.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `user=ada.`,
      `user=ada`,
      `user=.${sig}`,
      `user=ada.${sig}x`,
    ];
    for (const text of forged)
      expect((await raw('/whoami', `Cookie: ${text}\r\n`)).body, text).toBe('nobody');
  });

  it('a value signed for one cookie is refused under another name', async () => {
    const other = await served.app.request('/sign?v=ada');
    const cookie = other.headers.getSetCookie()[0]!.split(';')[0]!;
    // The same signature, moved into `theme`, then back under `user` from another name's value.
    expect(cookie.startsWith('user=')).toBe(true);
    const app = Course.start(table, { secret: 'old-key' });
    const moved = cookie.replace('user=', 'theme=');
    expect(await (await app.request('/whoami', { headers: { cookie: moved } })).text()).toBe(
      'nobody',
    );
  });

  it('key rotation: a list of secrets signs with the first and verifies with each', async () => {
    const old = await signed('ada');
    const rotated: CourseApp = Course.start(table, { secret: ['new-key', 'old-key'] });
    const ask = async (app: CourseApp, cookie: string) =>
      (await app.request('/whoami', { headers: { cookie } })).text();
    expect(await ask(rotated, old)).toBe('ada');
    const fresh = (await rotated.request('/sign?v=bob')).headers.getSetCookie()[0]!.split(';')[0]!;
    expect(await ask(rotated, fresh)).toBe('bob');
    expect(await ask(served.app, fresh)).toBe('nobody');
    const retired = Course.start(table, { secret: ['new-key'] });
    expect(await ask(retired, old)).toBe('nobody');
    expect(() => Course.start(table, { secret: [] })).toThrow(/"secret" must be/);
  });
});
