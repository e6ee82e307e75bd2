import { describe, expect, it, vi } from 'vitest';
import { clientAddress } from 'course-router';
import { httpRequest, send, servedApp } from '../_utils.js';

const ROUTES = `
import { clientAddress, Course, input, removeParam, request, requestLimit, requestRepeat, toRoute, url } from 'course-router';

Course.match(['get', 'post', 'put'], '/input', () => ({
  name: input('name', 'anonymous'),
  fromGet: input('name', null, 'get'),
  postWins: input('name', null, 'get', 'post'),
  nested: input('user'),
  list: input('tags'),
}));
Course.post('/upload', () => {
  const file = input('avatar', null, 'file') as { filename: string; type: string; size: number; data: Buffer };
  const many = input('docs', null, 'file') as unknown[];
  return { title: input('title'), filename: file.filename, type: file.type, size: file.size, text: file.data.toString(), docs: many.length };
});
Course.post('/json-shapes', () => ({ first: input('0'), value: input('value'), missing: input('nope'), isArray: Array.isArray(input().post) }));
Course.post('/proto', () => ({ polluted: ({} as Record<string, unknown>)['polluted'] ?? null, keys: Object.keys(input().post) }));

Course.get('/go', () => toRoute(String(input('to')), Number(input('code', 302))));
Course.get('/strip', () => (removeParam() ? undefined : 'no query'));
Course.get('/ip', () => [clientAddress(), clientAddress(request()), clientAddress(request(), 2), clientAddress(request(), 0) === (request().remoteAddress ?? '')]);
Course.get('/limit', async () => ((await requestLimit('api', 2, 60)) ? 'limited' : 'ok'));
Course.get('/repeat/{value}', async (value: string) => String(await requestRepeat('form', value)));
Course.get('/controller/{word}', 'Account@show');
Course.get('/named', () => url('named.target')).name('named.target');
Course.get('/query', () => input().get).name('query');
Course.get('/built', () => url('query', {}, {
  o: { k: 'v', n: { d: 1 } }, a: [1, 2], objs: [{ x: 'a' }, { x: 'b' }], flat: 'a b&c=', none: null,
}));
Course.get('/built-flat', () => url('query', {}, { q: 'a b', n: 2, none: undefined }));
`;

const FILES = {
  'routes.ts': ROUTES,
  'app/Components/Controller/Account.ts': `
import { Controller } from 'course-router';
export class Account extends Controller {
  async show(word: string) {
    const hash = await this.passHash(word);
    const info = await this.passHash(word, true);
    return { ok: await this.passVerify(word, hash), wrong: await this.passVerify(word + '!', hash), info,
      limited: await this.requestLimit('c', 1, 60), repeat: await this.requestRepeat('c', word), q: this.getRequestParams('q', 'none') };
  }
}`,
};

const app = servedApp(FILES, {
  bodyLimit: 2048,
  multipartLimit: 4096,
  trustProxy: 1,
});

const json = async (method: string, target: string, init?: Parameters<typeof send>[3]) =>
  JSON.parse((await send(app.served, method, target, init)).body) as Record<string, unknown>;

describe('input()', () => {
  it('a JSON body that is no object: an array is the body fields, any other value is `value`', async () => {
    const body = (value: unknown) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(value),
    });
    expect(await json('POST', '/json-shapes', body(['a', 'b']))).toEqual({
      first: 'a',
      value: null,
      missing: null,
      isArray: true,
    });
    expect(await json('POST', '/json-shapes', body('text'))).toEqual({
      first: null,
      value: 'text',
      missing: null,
      isArray: false,
    });
  });

  it('reads the query, with nested PHP-style fields, and gives the default for blank values', async () => {
    const answer = await json(
      'GET',
      '/input?name=%20%20&user[name]=ann&user[roles][]=a&user[roles][]=b&tags[]=x',
    );
    expect(answer).toEqual({
      name: 'anonymous',
      fromGet: null,
      postWins: null,
      nested: { name: 'ann', roles: ['a', 'b'] },
      list: ['x'],
    });
  });

  it('keeps every field as sent: an index where it was given; past 1000 fields a 413, not a cut', async () => {
    const sparse = await json('GET', '/input?tags[0]=x&tags[1]=y&tags[5]=z');
    // JSON writes the holes as null: `z` stays at index 5, as PHP keeps it.
    expect(sparse['list']).toEqual(['x', 'y', null, null, null, 'z']);
    // Mixed with `[]`, indexes follow qs rather than PHP: `[]` takes the first free index, and
    // an index sent twice keeps both values, the later appended (PHP keeps the last alone).
    const mixed = await json('GET', '/input?tags[5]=z&tags[]=y');
    expect(mixed['list']).toEqual(['y', null, null, null, null, 'z']);
    const twice = await json('GET', '/input?tags[]=a&tags[]=b&tags[0]=c');
    expect(twice['list']).toEqual(['a', 'b', 'c']);
    const fields = (count: number) => Array.from({ length: count }, () => 'x=1').join('&');
    const over = await send(app.served, 'GET', `/input?${fields(1001)}`);
    expect(over).toMatchObject({ status: 413, body: 'More than 1000 fields' });
    const under = await send(app.served, 'GET', `/input?${fields(999)}&name=last`);
    expect(under.status, under.body).toBe(200);
    expect(JSON.parse(under.body)).toMatchObject({ name: 'last' });
    // Empty fields are none: not counted, and not given to qs to count (it would cut the rest).
    for (const query of [
      `${'&'.repeat(3000)}name=last`,
      `${fields(999)}${'&'.repeat(3000)}name=last`,
      `x[a]=1${'&'.repeat(1500)}name=last&&`,
    ]) {
      const empty = await send(app.served, 'GET', `/input?${query}`);
      expect(empty.status, empty.body).toBe(200);
      expect(JSON.parse(empty.body)).toMatchObject({ name: 'last' });
    }
  });

  it('reads urlencoded and JSON bodies; listed sources override in order', async () => {
    const form = {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=posted&user[id]=7',
    };
    expect(await json('POST', '/input?name=queried', form)).toMatchObject({
      name: 'queried',
      fromGet: 'queried',
      postWins: 'posted',
      nested: { id: '7' },
    });
    const body = JSON.stringify({ name: 'jay', user: { deep: { x: 1 } }, tags: [1, 2] });
    expect(
      await json('PUT', '/input', { headers: { 'content-type': 'application/json' }, body }),
    ).toMatchObject({
      name: 'jay',
      nested: { deep: { x: 1 } },
      list: [1, 2],
    });
  });

  it('reads multipart forms with their files', async () => {
    const boundary = 'XyZ';
    const part = (headers: string, content: string) =>
      `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
    const body =
      part('Content-Disposition: form-data; name="title"', 'Holiday') +
      part(
        'Content-Disposition: form-data; name="avatar"; filename="me.txt"\r\nContent-Type: text/plain',
        'hello file',
      ) +
      part('Content-Disposition: form-data; name="docs[]"; filename="a.txt"', 'a') +
      part('Content-Disposition: form-data; name="docs[]"; filename="b.txt"', 'b') +
      `--${boundary}--\r\n`;
    const answer = await json('POST', '/upload', {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(answer).toEqual({
      title: 'Holiday',
      filename: 'me.txt',
      type: 'text/plain',
      size: 10,
      text: 'hello file',
      docs: 2,
    });
  });

  it('a body over the limit is a 413; malformed JSON a 400', async () => {
    const big = {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${'x'.repeat(3000)}`,
    };
    expect((await send(app.served, 'POST', '/input', big)).status).toBe(413);
    const bad = { headers: { 'content-type': 'application/json' }, body: '{"name":' };
    expect((await send(app.served, 'POST', '/input', bad)).status).toBe(400);
  });

  it('no field reaches an object prototype', async () => {
    const form = {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a=1',
    };
    expect((await json('POST', '/proto', form)).polluted).toBeNull();
    const body = '{"__proto__":{"polluted":"yes"},"a":1}';
    const answer = await json('POST', '/proto', {
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(answer.polluted).toBeNull();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('url() with a query', () => {
  it('writes nested objects and arrays PHP-style: what it writes reads back as the same value', async () => {
    const built = (await send(app.served, 'GET', '/built')).body;
    expect(built).toContain('o%5Bk%5D=v');
    expect(built).toContain('a%5B0%5D=1&a%5B1%5D=2');
    expect(built).not.toContain('object');
    expect(await json('GET', built)).toEqual({
      o: { k: 'v', n: { d: '1' } },
      a: ['1', '2'],
      objs: [{ x: 'a' }, { x: 'b' }],
      flat: 'a b&c=',
    });
    // A flat query is written as before.
    expect((await send(app.served, 'GET', '/built-flat')).body).toBe('/query?q=a+b&n=2');
  });
});

describe('redirects', () => {
  it('toRoute() redirects on site, 302 by default or the 3xx given', async () => {
    expect(await send(app.served, 'GET', '/go?to=/target')).toMatchObject({
      status: 302,
      headers: { location: '/target' },
    });
    expect((await send(app.served, 'GET', '/go?to=/target&code=307')).status).toBe(307);
  });

  it('toRoute() refuses off-site, protocol-relative, non-http and CR/LF targets, and non-3xx codes', async () => {
    for (const to of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\\\evil.example',
      'javascript:alert(1)',
      '/a\r\nSet-Cookie:x=1',
    ]) {
      expect((await send(app.served, 'GET', `/go?to=${encodeURIComponent(to)}`)).status, to).toBe(
        400,
      );
    }
    expect((await send(app.served, 'GET', '/go?to=/x&code=200')).status).toBe(500);
  });

  it('removeParam() redirects to the path without its query', async () => {
    expect(await send(app.served, 'GET', '/strip?a=1&b=2')).toMatchObject({
      status: 302,
      headers: { location: '/strip' },
    });
    expect((await send(app.served, 'GET', '/strip')).body).toBe('no query');
  });
});

// Installed before any request of this file: the warning below is said once per process.
const warn = vi.spyOn(console, 'warn');

describe('requestLimit and requestRepeat', () => {
  it('says once that a client with no address shares one limit with every other', async () => {
    // Through Fetch with no `remoteAddress` and no X-Forwarded-For: no address at all.
    for (let i = 0; i < 3; i++) await app.served.app.request('/limit');
    const said = warn.mock.calls.filter(([text]) => String(text).includes('no client address'));
    expect(said).toHaveLength(1);
    expect(said[0]![0]).toContain('app.fetch(request, { remoteAddress })');
  });

  it("clientAddress() is the request's client, as the app trusts its proxies unless told", async () => {
    const answer = await send(app.served, 'GET', '/ip', {
      headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' },
    });
    expect(JSON.parse(answer.body)).toEqual(['198.51.100.1', '198.51.100.1', '203.0.113.9', true]);
    expect(() => clientAddress()).toThrow(
      'course: clientAddress() is only available while a request is served',
    );
  });

  it('a proxy-reported address counts in one spelling; an entry that is no address is not believed', async () => {
    const seen = async (forwarded: string) =>
      JSON.parse(
        (
          await send(app.served, 'GET', '/ip', {
            headers: { 'x-forwarded-for': `203.0.113.9, ${forwarded}` },
          })
        ).body,
      )[0];
    for (const spelling of ['7.7.7.7', '007.7.7.7', '0x7.7.7.7', '7.7.7.7:5000', '::ffff:7.7.7.7'])
      expect(await seen(spelling), spelling).toBe('7.7.7.7');
    expect(await seen('[2001:DB8:0::0:1]:443')).toBe('2001:db8::1');
    // No address: the client is the connection's peer, the proxy.
    for (const garbage of ['unknown', 'example.com', '1.2.3.4/x', 'a@1.2.3.4', '256.1.1.1']) {
      const answer = await httpRequest(app.served.base, 'GET', '/ip', {
        'x-forwarded-for': `203.0.113.9, ${garbage}`,
      });
      expect(JSON.parse(answer.body)[0], garbage).toBe('127.0.0.1');
    }
  });

  it('the spellings of one address share its limit', async () => {
    const call = async (ip: string) =>
      (
        await app.served.app.fetch(
          new Request('http://localhost/limit', { headers: { 'x-forwarded-for': ip } }),
        )
      ).text();
    const answers = [];
    for (const ip of ['198.51.100.77', '0xc6.51.100.77', '[::ffff:c633:644d]:80'])
      answers.push(await call(ip));
    expect(answers).toEqual(['ok', 'ok', 'limited']);
  });

  it('limits per client: the 3rd call of one client is limited, another client is not', async () => {
    const call = async (ip: string) =>
      (
        await app.served.app.fetch(
          new Request('http://localhost/limit', { headers: { 'x-forwarded-for': ip } }),
        )
      ).text();
    const first = await Promise.all([1, 2, 3].map(() => call('203.0.113.7')));
    expect(first.sort()).toEqual(['limited', 'ok', 'ok']);
    expect(await call('198.51.100.1')).toBe('ok');
  });

  it('requestRepeat answers true for a value this client already sent', async () => {
    const client = { headers: { 'x-forwarded-for': '192.0.2.9' } };
    const a1 = await app.served.app.fetch(new Request('http://localhost/repeat/a', client));
    const a2 = await app.served.app.fetch(new Request('http://localhost/repeat/a', client));
    const b1 = await app.served.app.fetch(new Request('http://localhost/repeat/b', client));
    const b2 = await app.served.app.fetch(new Request('http://localhost/repeat/b', client));
    expect(await Promise.all([a1, a2, b1, b2].map((r) => r.text()))).toEqual([
      'false',
      'true',
      'false',
      'true',
    ]);
  });
});

describe('Controller', () => {
  it('has the spec helpers as methods', async () => {
    const response = await app.served.app.fetch(
      new Request('http://localhost/controller/word?q=query', {
        headers: { 'x-forwarded-for': '192.0.2.50' },
      }),
    );
    expect(await response.json()).toEqual({
      ok: true,
      wrong: false,
      info: { algo: '2y', algoName: 'bcrypt', options: { cost: 10 } },
      limited: false,
      repeat: false,
      q: 'query',
    });
  });
});
