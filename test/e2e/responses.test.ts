import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUrl, type RouteTable } from 'course-router/internal';
import { buildApp, importTable, removeApp, send, serve, writeApp, type Served } from '../_utils.js';

const ROUTES = `
import { Course, HttpException, response } from 'course-router';
import { request } from 'course-router';
const value = () => request().searchParams.get('v') ?? '';
Course.get('/header', () => { response().header('x-test', value()); return 'set'; });
Course.get('/written', () => { response().headers['x-test'] = value(); return 'written'; });
Course.get('/exception-header', () => { throw new HttpException(401, 'who?', { 'x-test': value() }); });
// A handler sees the errors of the requests under its group's prefix: these only.
Course.group({ prefix: '/caught', exceptionHandler: 'Handlers\\\\Caught' }, () => {
  Course.get('/', () => { response().header('x-test', value()); return 'set'; });
});
Course.get('/fail', () => { throw new HttpException(503, 'db password is hunter2'); });
Course.get('/informational', () => response().httpCode(101));
Course.get('/nothing', () => response().httpCode(204).write(''));
Course.get('/empty', () => '');
Course.get('/code/{code}', (code: string) => { throw new HttpException(Number(code), 'odd'); });
Course.get('/used', async () => { const answer = new Response('x'); await answer.text(); return answer; });
Course.get('/locked', () => { const answer = new Response('x'); answer.body!.getReader(); return answer; });
Course.get('/teapot', () => { throw new HttpException(418, 'short and stout'); });
// Any value, a decoded \`%2F\` (a slash) and line breaks too: what the log must still write on one line.
Course.get('/boom/{x}', (x: string) => { throw new Error('bad ' + x); }).where('x', '[^]+');
// \`.+\`: a value may hold a slash (\`a/..\`, sent as \`a%2F..\`), which \`[^/]+\` refuses decoded.
Course.get('/file/{name}', (name: string) => 'file:' + name).name('file').where('name', '.+');
Course.get('/word/{name}', (name) => 'word:' + name).name('word');
Course.get('/num/{n}/{rest?}', (n, rest) => n + (rest ?? '')).name('num').where({ n: '[0-9]+', rest: '[^/]+' });
`;

const FILES = {
  'routes.ts': ROUTES,
  'app/Handlers/Caught.ts': `
export class Caught {
  handleError(_request: unknown, error: Error) { return 'caught: ' + error.message; }
}`,
};

let dir: string;
let table: RouteTable;
let served: Served;
let debug: Served;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  table = await importTable(dir);
  served = await serve(table, { onError: undefined });
  debug = await serve(table, { debug: true });
});

afterAll(async () => {
  await served?.close();
  await debug?.close();
  removeApp(dir);
});

const get = (target: string, on = served) => send(on, 'GET', target);

describe('header values HTTP cannot carry (both adapters alike)', () => {
  it('header() throws at the call: an unhandled 500 without the message, or the handler sees it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const v of ['€', 'é', 'a\r\nset-cookie: x=1', 'a\0', 'a\x01', 'a\x7f']) {
      const query = `?v=${encodeURIComponent(v)}`;
      expect(await get(`/header${query}`), v).toMatchObject({
        status: 500,
        body: 'Internal Server Error',
      });
      const caught = await get(`/caught${query}`);
      expect(caught.body, v).toMatch(/^caught: course: refused header "x-test": its value holds/);
    }
    expect(await get('/header?v=a%09b%20~')).toMatchObject({
      status: 200,
      headers: { 'x-test': 'a\tb ~' },
    });
    vi.restoreAllMocks();
  });

  it('an HttpException with such a header, or a header written past header(), is a 500, not a crash', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await get('/exception-header?v=%E2%82%AC')).toMatchObject({
      status: 500,
      body: 'Internal Server Error',
    });
    expect(await get('/exception-header?v=ok')).toMatchObject({ status: 401, body: 'who?' });
    expect(await get('/written?v=%E2%82%AC')).toMatchObject({
      status: 500,
      body: 'Internal Server Error',
    });
    expect(errors.mock.calls.flat().join(' ')).toContain('course: response failed:');
    vi.restoreAllMocks();
  });
});

describe('errors and logs', () => {
  it('a 5xx HttpException shows its status text, not its message, unless debug; a 4xx its message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await get('/fail')).toMatchObject({ status: 503, body: 'Service Unavailable' });
    expect(await get('/teapot')).toMatchObject({ status: 418, body: 'short and stout' });
    expect((await get('/fail', debug)).body).toBe('db password is hunter2');
    vi.restoreAllMocks();
  });

  it('an empty body has no content type: a 204 written empty, a route that returns ""', async () => {
    const nothing = await send(served, 'GET', '/nothing');
    expect([nothing.status, nothing.headers['content-type']]).toEqual([204, undefined]);
    const empty = await send(served, 'GET', '/empty');
    expect([empty.status, empty.body, empty.headers['content-type']]).toEqual([200, '', undefined]);
    expect((await send(served, 'GET', '/header?v=1')).headers['content-type']).toMatch(
      /text\/html/,
    );
  });

  it('regression: a 1xx status, which no final response can carry, is a 500 in both adapters', async () => {
    expect(await send(served, 'GET', '/informational')).toMatchObject({ status: 500 });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const code of ['100', '101', '103', '600', '999', 'NaN'])
      expect(await send(served, 'GET', `/code/${code}`), code).toMatchObject({
        status: 500,
        body: 'Internal Server Error',
      });
    vi.restoreAllMocks();
  });

  it('a returned Response whose body was read or locked is a 500 in both adapters, not a rejection', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const target of ['/used', '/locked'])
      expect(await send(served, 'GET', target), target).toMatchObject({
        status: 500,
        body: 'Internal Server Error',
      });
    vi.restoreAllMocks();
  });

  it('an HttpException of status 101, pipelined: each request gets its own final response', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { hostname, port } = new URL(served.base);
    const text = await new Promise<string>((resolve, reject) => {
      let out = '';
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          'GET /code/101 HTTP/1.1\r\nHost: a\r\n\r\nGET /teapot HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
        ),
      );
      socket.on('data', (chunk: Buffer) => (out += chunk.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
    vi.restoreAllMocks();
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 500', 'HTTP/1.1 418']);
  });

  it('a path with %0a or an escape sequence cannot forge a log line', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await get('/boom/x%0aGET%20%2Fadmin%20200%0d%1b[31m');
    await get('/fail');
    const lines = errors.mock.calls
      .map((call) => call.join(' '))
      .join('\n')
      .split('\n');
    vi.restoreAllMocks();
    // Each entry is one line with the message, then the stack frames that V8 wrote.
    for (const line of lines) expect(line, line).toMatch(/^(?:course: | {4}at )/);
    for (const raw of ['\r', '\u001b']) expect(lines.join('')).not.toContain(raw);
    // The closure's frame names its route, not its number in the closures module.
    expect(lines[1]).toMatch(/^ {4}at GET \/boom\/\{x\} \(.*routes\.closures\.gen\.ts:\d+:\d+\)$/);
    const heads = lines.filter((line) => line.startsWith('course: '));
    expect(heads[0]).toBe(
      'course: GET /boom/x\\nGET %2Fadmin 200\\r\\u001b[31m failed: Error: bad x\\nGET /admin 200\\r\\u001b[31m',
    );
    // Two adapters, two requests; a 5xx HttpException's message goes to the log, not the client.
    expect(heads).toHaveLength(4);
    expect(heads[2]).toBe('course: GET /fail failed: HttpException: db password is hunter2');
  });
});

describe("url() and the route's regexes", () => {
  it("refuses a value the parameter's regex would not match: the URL would not reach the route", async () => {
    expect(() => buildUrl(table, 'word', { name: 'a/b' })).toThrow(
      'course: url("word") gives "name" the value "a/b", which its route does not match (\\w+): the URL would not reach the route',
    );
    expect(() => buildUrl(table, 'num', ['x'])).toThrow(/gives "n" the value "x"/);
    expect(() => buildUrl(table, 'num', [1, 'a/b'])).toThrow(/gives "rest" the value "a\/b"/);
    expect(() => buildUrl(table, 'num', [1, '50%'])).not.toThrow();
  });

  it('a value it accepts reaches the route, as the value given', async () => {
    for (const [name, params, body] of [
      ['word', { name: 'abc_1' }, 'word:abc_1'],
      ['num', [42], '42'],
      ['num', [42, '50%'], '4250%'],
      ['file', { name: 'a/b' }, 'file:a/b'],
    ] as const)
      expect((await get(buildUrl(table, name, params))).body, name).toBe(body);
  });
});

describe("url() and a parameter's slashes", () => {
  it('keeps them as separators when the regex takes them so, else writes %2F', async () => {
    expect(buildUrl(table, 'file', { name: 'css/site.css' })).toBe('/file/css/site.css');
    expect(buildUrl(table, 'file', { name: 'a b/c%d' })).toBe('/file/a%20b/c%25d');
    // A segment that would be empty, `.` or `..` keeps the slashes encoded.
    for (const [name, built] of [
      ['a//b', '/file/a%2F%2Fb'],
      ['a/..', '/file/a%2F..'],
      ['/a', '/file/%2Fa'],
    ])
      expect(buildUrl(table, 'file', { name }), name).toBe(built);
    for (const name of ['css/site.css', 'a b/c%d', 'a//b', '/a', 'a/./b'])
      expect((await get(buildUrl(table, 'file', { name }))).body, name).toBe(`file:${name}`);
  });
});

describe('url() and dot segments', () => {
  it('refuses "." and ".." as a whole segment, which every client resolves away', async () => {
    expect(() => buildUrl(table, 'file', { name: '..' })).toThrow(
      'course: url("file") would build "/file/..", whose "." or ".." segment a client resolves away',
    );
    expect(() => buildUrl(table, 'file', ['.'])).toThrow(/"\/file\/\."/);
    expect(new URL('/file/%2E%2E', 'http://localhost/').pathname).toBe('/');
  });

  it('values with dots that are not dot segments round-trip to the parameter', async () => {
    for (const name of ['...', '.a', 'a/..', '%2E%2E', '.. '])
      expect((await get(buildUrl(table, 'file', { name }))).body, name).toBe(`file:${name}`);
    // A dot segment however written: `/file`, which no route takes.
    expect(await get('/file/%2E%2E')).toMatchObject({ status: 404, body: 'Not Found' });
  });
});
