import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  childApp,
  eventually,
  expectAlive,
  getBody,
  rawExchange,
  type RawAnswer,
} from '../_child.js';
import { send } from '../_utils.js';

// Request bodies that break or overflow, through both adapters: node:http served by a child
// process (a crash is seen as its exit) over raw sockets, and Fetch with `Request` objects in
// this process.

const FILES = {
  'routes.ts': `
import { Course, input, request } from 'course-router';
import { Log } from './app/Components/Controller/Log.js';

Course.get('/', () => 'home');
Course.post('/echo', () => ({ fields: Object.keys(input().post).length, files: Object.keys(input().file).length }));
Course.get('/log', [Log, 'show']);
Course.get('/authorization', () => request().getHeader('authorization') ?? 'none');
Course.post('/bytes', async () => ({ post: input().post, bytes: Buffer.from(await request().body()).toString('hex') }));
Course.post('/field', () => Object.entries(input().post).map(([k, v]) => k.length + ':' + String(v).length).join(','));
Course.group({ prefix: '/seen', exceptionHandler: 'Handlers\\\\Recorder' }, () => {
  Course.post('/echo', () => 'read');
});
// Under the group's prefix, not inside the group.
Course.post('/seen/beside', () => input().post);
Course.get('/seen/beside', () => input().get);
`,
  'app/Components/Controller/Log.ts': `
export class Log {
  static statuses: number[] = [];
  show() { return Log.statuses; }
}`,
  'app/Handlers/Recorder.ts': `
import { response, type CourseRequest } from 'course-router';
import { Log } from '../Components/Controller/Log.js';
/** Records the status of each error it is given, and answers it itself. */
export class Recorder {
  handleError(_request: CourseRequest, error: Error & { status?: number }) {
    const status = error.status ?? 500;
    Log.statuses.push(status);
    return response().httpCode(status).json({ recorded: status });
  }
}`,
};

const MiB = 1024 * 1024;
const served = childApp(FILES);

/** A request head for raw bytes; `length` a Content-Length, or `chunked`. */
const head = (target: string, type: string, length: number | 'chunked') =>
  `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\n` +
  (length === 'chunked'
    ? 'Transfer-Encoding: chunked\r\n\r\n'
    : `Content-Length: ${length}\r\n\r\n`);

/** `size` bytes of `fill` as chunked framing, 64 KiB a chunk, with the last chunk. */
function chunked(size: number, fill = 'a'): Buffer[] {
  const pieces: Buffer[] = [];
  for (let left = size; left > 0; left -= 64 * 1024) {
    const length = Math.min(left, 64 * 1024);
    pieces.push(Buffer.from(`${length.toString(16)}\r\n${fill.repeat(length)}\r\n`));
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return pieces;
}

const headerOf = (answer: RawAnswer, name: string) =>
  new RegExp(`\r\n${name}: ([^\r]*)\r\n`, 'i').exec(answer.text.split('\r\n\r\n')[0] + '\r\n')?.[1];

/** A Fetch `Request` whose body is `pieces`, then, with `fail`, an error instead of its end. */
function streamed(target: string, pieces: Uint8Array[], init: RequestInit & { fail?: boolean }) {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at < pieces.length) controller.enqueue(pieces[at++]!);
      else if (init.fail) controller.error(new Error('the client went'));
      else controller.close();
    },
  });
  return new Request(`http://localhost${target}`, {
    method: 'POST',
    ...init,
    body,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Writes `pieces` and leaves the connection open; resolves with what came back, when its first
 * byte came and when the server closed the connection (ms after connecting).
 */
function stalledUpload(port: number, pieces: (string | Buffer)[]) {
  return new Promise<{ text: string; answeredAfter: number; closedAfter: number }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const started = Date.now();
    let answeredAfter = -1;
    socket.on('data', (chunk: Buffer) => {
      if (chunks.push(chunk) === 1) answeredAfter = Date.now() - started;
    });
    socket.on('error', () => {});
    socket.on('close', () =>
      resolve({
        text: Buffer.concat(chunks).toString('latin1'),
        answeredAfter,
        closedAfter: Date.now() - started,
      }),
    );
    socket.on('connect', async () => {
      for (const piece of pieces)
        if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r));
    });
  });
}

const UNCLOSED_FILE =
  '--XX\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n' +
  'Content-Type: text/plain\r\n\r\nhello';

describe('a request body that breaks is a 4xx for that request; the process lives', () => {
  it('a multipart file part with no closing boundary is a 400 on a route; off one, a 404 unread', async () => {
    for (const [target, status] of [
      ['/no/such/route', 404],
      ['/echo', 400],
    ] as const) {
      const answer = await rawExchange(served.child.port, [
        head(target, 'multipart/form-data; boundary=XX', UNCLOSED_FILE.length) + UNCLOSED_FILE,
      ]);
      expect(answer.status, served.child.stderr()).toBe(status);
      await expectAlive(served.child);
      const viaFetch = await served.app.fetch(
        new Request(`http://localhost${target}`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=XX' },
          body: UNCLOSED_FILE,
        }),
      );
      expect(viaFetch.status).toBe(status);
    }
  });

  it('a client that leaves, a body shorter than its Content-Length, broken chunked framing: a 400 reaches the handlers', async () => {
    const form = 'application/x-www-form-urlencoded';
    // The client leaves after 10 of 100 bytes.
    await rawExchange(served.child.port, [head('/seen/echo', form, 100), 'a=1&b=2&c='], {
      abortAfter: 2,
    });
    // The client sends 3 of 500 bytes and closes its side.
    const short = await rawExchange(served.child.port, [head('/seen/echo', form, 500) + 'a=1']);
    // A chunk size that is not hexadecimal, after a first good chunk.
    const framing = await rawExchange(served.child.port, [
      head('/seen/echo', form, 'chunked') + '3\r\na=1\r\n',
      'zz\r\nb=2\r\n0\r\n\r\n',
    ]);
    // Node answers the broken framing itself; the router's answer to a gone client goes nowhere.
    expect([short.status, framing.status]).toEqual([400, 400]);
    await eventually(
      async () => JSON.parse(await getBody(served.child.port, '/log')) as number[],
      [400, 400, 400],
    );
    await expectAlive(served.child);
  });

  it('Fetch: a body stream that errors, ends before its Content-Length or carries no bytes is a 400', async () => {
    const bytes = new TextEncoder().encode('a=1&b=2');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const errors = await served.app.fetch(
      streamed('/echo', [bytes], { headers: form, fail: true }),
    );
    const early = await served.app.fetch(
      streamed('/echo', [bytes], { headers: { ...form, 'content-length': '500' } }),
    );
    const notBytes = await served.app.fetch(
      streamed('/echo', ['a=1' as unknown as Uint8Array], { headers: form }),
    );
    const whole = await served.app.fetch(
      streamed('/echo', [bytes], { headers: { ...form, 'content-length': '7' } }),
    );
    expect([errors.status, early.status, notBytes.status, whole.status]).toEqual([
      400, 400, 400, 200,
    ]);
    expect(await whole.json()).toEqual({ fields: 2, files: 0 });
  });

  it('Fetch: a form or JSON body is read as its text, held to its Content-Length; its bytes stay the same', async () => {
    const json = { 'content-type': 'application/json' };
    const post = (bytes: Uint8Array, length: number, headers: Record<string, string> = json) =>
      served.app.fetch(
        streamed('/bytes', [bytes], {
          headers: { ...headers, 'content-length': String(length) },
        }),
      );
    const text = (value: string) => new TextEncoder().encode(value);
    const joined = (...parts: number[][]) => Uint8Array.from(parts.flat());
    // Characters of 2, 3 and 4 bytes: the fields, and the bytes as sent.
    const wide = text('{"name":"Zoë ☃ 😀"}');
    const answer = await post(wide, wide.byteLength);
    expect(await answer.json()).toEqual({
      post: { name: 'Zoë ☃ 😀' },
      bytes: Buffer.from(wide).toString('hex'),
    });
    // A byte order mark is dropped; a malformed byte is a U+FFFD. Read as text by the runtime,
    // the body's bytes are then the text's; node:http reads the bytes, and keeps them.
    const marked = joined([0xef, 0xbb, 0xbf], [...text('{"a":"')], [0xff], [...text('"}')]);
    const read = await post(marked, marked.byteLength);
    expect(await read.json()).toEqual({
      post: { a: '\ufffd' },
      bytes: Buffer.from('{"a":"\ufffd"}').toString('hex'),
    });
    const overNode = await fetch(`http://127.0.0.1:${served.child.port}/bytes`, {
      method: 'POST',
      headers: json,
      body: marked,
    });
    expect(await overNode.json()).toEqual({
      post: { a: '\ufffd' },
      bytes: Buffer.from(marked).toString('hex'),
    });
    // One byte short of its length, or over it in characters of 2 bytes: 400.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const statuses = await Promise.all([
      post(text('a=1&b=2'), 8, form),
      post(text('a=1&b=2'), 6, form),
      post(text('a=éé'), 4, form),
      post(text('a=éé'), 6, form),
      // A character of 4 bytes, one short of it, and a U+FFFD sent as itself (3 bytes).
      post(text('a=😀'), 6, form),
      post(text('a=😀'), 7, form),
      post(text('a=\ufffd'), 5, form),
    ]);
    expect(statuses.map((r) => r.status)).toEqual([400, 400, 400, 200, 200, 400, 200]);
    // Past 16 KiB, read from its stream: whole, its bytes as sent, one byte off its length a 400.
    const large = text(`{"name":"${'Zoë ☃ 😀 '.repeat(1500)}"}`);
    expect(large.byteLength).toBeGreaterThan(16 * 1024);
    const split = (bytes: Uint8Array) =>
      served.app.fetch(
        streamed(
          '/bytes',
          // Cut inside a character of 4 bytes, then of 2.
          [bytes.subarray(0, 9008), bytes.subarray(9008, 9014), bytes.subarray(9014)],
          { headers: { ...json, 'content-length': String(large.byteLength) } },
        ),
      );
    expect(await (await split(large)).json()).toEqual({
      post: { name: 'Zoë ☃ 😀 '.repeat(1500) },
      bytes: Buffer.from(large).toString('hex'),
    });
    const more = Uint8Array.from([...large, 0x20]);
    const less = large.subarray(0, large.byteLength - 1);
    expect([(await split(more)).status, (await split(less)).status]).toEqual([400, 400]);
  });

  it('Fetch: a Content-Length repeated with one value is that length; a malformed one is a 400', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const send = (length: string) =>
      served.app.fetch(
        new Request('http://localhost/echo', {
          method: 'POST',
          headers: { ...form, 'content-length': length },
          body: 'a=1&b=2',
        }),
      );
    const twice = await send('7, 7');
    expect([twice.status, await twice.json()]).toEqual([200, { fields: 2, files: 0 }]);
    for (const length of ['7, 8', '1e1', '0x7', '+7', 'seven']) {
      const answer = await send(length);
      expect([length, answer.status, await answer.text()]).toEqual([
        length,
        400,
        'Malformed Content-Length',
      ]);
    }
  });
});

describe('a JSON body nested past its bound', () => {
  it('is a 400 at 257 levels and at 100,000, whatever the stack; 256 levels are read', async () => {
    const nested = (depth: number) => ({
      headers: { 'content-type': 'application/json' },
      body: '['.repeat(depth) + ']'.repeat(depth),
    });
    expect((await send(served.both, 'POST', '/echo', nested(256))).body).toBe(
      '{"fields":1,"files":0}',
    );
    expect(await send(served.both, 'POST', '/echo', nested(257))).toMatchObject({
      status: 400,
      body: 'JSON nested deeper than 256',
    });
    expect((await send(served.both, 'POST', '/echo', nested(100_000))).status).toBe(400);
  });

  it('a long body is measured before it is parsed: brackets in its strings do not count', async () => {
    // Over 16 KiB: 256 levels around strings full of brackets and escaped quotes are read.
    const strings = JSON.stringify(Array(40).fill('[{"\\'.repeat(100)));
    const around = (depth: number) => ({
      headers: { 'content-type': 'application/json' },
      body: `${'[ '.repeat(depth - 1)}${strings}${' ]'.repeat(depth - 1)}`,
    });
    expect(around(256).body.length).toBeGreaterThan(16 * 1024);
    expect((await send(served.both, 'POST', '/echo', around(256))).body).toBe(
      '{"fields":1,"files":0}',
    );
    expect(await send(served.both, 'POST', '/echo', around(257))).toMatchObject({
      status: 400,
      body: 'JSON nested deeper than 256',
    });
    // A megabyte of `[` and spaces: refused unparsed.
    const bomb = { headers: { 'content-type': 'application/json' }, body: '[ '.repeat(500_000) };
    expect(await send(served.both, 'POST', '/echo', bomb)).toMatchObject({
      status: 400,
      body: 'JSON nested deeper than 256',
    });
  });
});

describe('a form or JSON body in another charset than UTF-8', () => {
  it('is a 415, read as UTF-8 it would be another value; UTF-8 by any spelling is read', async () => {
    const body = (type: string, text: string) => ({
      headers: { 'content-type': type },
      body: text,
    });
    for (const type of [
      'application/json; charset=utf-16',
      'application/json;charset="x-foo"',
      'application/x-www-form-urlencoded; charset=ISO-8859-1',
    ]) {
      const text = type.includes('json') ? '{"a":1}' : 'a=1';
      expect(await send(served.both, 'POST', '/echo', body(type, text)), type).toMatchObject({
        status: 415,
        body: `Unsupported charset: ${type.split('=')[1]!.replaceAll('"', '').toLowerCase()}`,
      });
    }
    // Parameters read as RFC 9110 writes them: a quoted `;` is no parameter's end.
    for (const [type, message] of [
      ['application/json; x=";charset=utf-8;"; charset=latin1', 'Unsupported charset: latin1'],
      [
        'application/json; charset=utf-8; charset=iso-8859-1',
        'Two charset parameters in Content-Type',
      ],
      ['application/json; charset=utf-8, text/plain', 'Unreadable Content-Type parameters'],
    ]) {
      const sent = body(type!, '{"a":1}');
      expect(await send(served.both, 'POST', '/echo', sent), type).toMatchObject({
        status: 415,
        body: message,
      });
    }
    for (const type of [
      'application/json; foo="a;charset=latin1"',
      'application/json;',
      'application/json; charset=UTF-8',
      'application/json; charset="utf8"',
      'application/x-www-form-urlencoded;charset=utf-8',
    ]) {
      const text = type.includes('json') ? '{"a":1}' : 'a=1';
      expect((await send(served.both, 'POST', '/echo', body(type, text))).body, type).toBe(
        '{"fields":1,"files":0}',
      );
    }
  });
});

describe("a body's media type, read whole", () => {
  it('names JSON or a form exactly; another type, or two joined, is no format read', async () => {
    const echo = (type: string, text: string) =>
      send(served.both, 'POST', '/echo', { headers: { 'content-type': type }, body: text });
    for (const type of ['application/json', ' Application/JSON ', 'application/problem+json'])
      expect((await echo(type, '{"a":1}')).body, type).toBe('{"fields":1,"files":0}');
    for (const type of [
      'application/jsonp',
      'application/json-seq',
      'application/json, text/plain',
      'text/plain, application/json',
      'application/x-www-form-urlencodedx',
      'text/plain',
    ]) {
      const text = type.includes('json') ? '{"a":1}' : 'a=1';
      expect((await echo(type, text)).body, type).toBe('{"fields":0,"files":0}');
    }
  });

  it('two Content-Type or Authorization lines are read joined by node:http as by Fetch', async () => {
    const body = '{"a":1}';
    const answer = await rawExchange(served.child.port, [
      `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(answer.text.split('\r\n\r\n')[1]).toBe('{"fields":0,"files":0}');
    // A middleware comparing a token sees both, as on Bun and Deno, not the first alone.
    const twice = await rawExchange(served.child.port, [
      `GET /authorization HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer secret\r\n` +
        `authorization: Bearer other\r\nConnection: close\r\n\r\n`,
    ]);
    expect(twice.text.split('\r\n\r\n')[1]).toBe('Bearer secret, Bearer other');
    const headers = new Headers([
      ['content-type', 'application/json'],
      ['content-type', 'text/plain'],
    ]);
    const fetched = await served.app.request('/echo', { method: 'POST', headers, body });
    expect(await fetched.text()).toBe('{"fields":0,"files":0}');
  });
});

describe('a body over its limit: the client receives the 413, then the connection closes', () => {
  it('a 2 MiB chunked JSON body', async () => {
    const answer = await rawExchange(served.child.port, [
      head('/echo', 'application/json', 'chunked'),
      ...chunked(2 * MiB),
    ]);
    expect(answer.status, answer.text.slice(0, 200)).toBe(413);
    expect(headerOf(answer, 'connection')).toBe('close');
    const viaFetch = await served.app.fetch(
      streamed(
        '/echo',
        Array.from({ length: 32 }, () => new Uint8Array(64 * 1024)),
        {
          headers: { 'content-type': 'application/json' },
        },
      ),
    );
    expect([viaFetch.status, viaFetch.headers.get('connection')]).toEqual([413, 'close']);
    await expectAlive(served.child);
  });

  it('a declared Content-Length over the limit: the 413 once the upload is in, no other request on that connection', async () => {
    // A request written after the body would be answered on a connection kept alive.
    const answer = await rawExchange(served.child.port, [
      head('/echo', 'application/x-www-form-urlencoded', 2 * MiB),
      Buffer.alloc(2 * MiB, 'a'),
      'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n',
    ]);
    expect(answer.status, JSON.stringify(answer).slice(0, 200)).toBe(413);
    expect(headerOf(answer, 'connection')).toBe('close');
    expect(answer.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const viaFetch = await served.app.fetch(
      new Request('http://localhost/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * MiB) },
        body: 'x',
      }),
    );
    expect([viaFetch.status, viaFetch.headers.get('connection')]).toEqual([413, 'close']);
  });

  it('an upload over the limit gets its 413 at once, far over it or stalled; the rest is read for 2 s, then the connection closes', async () => {
    for (const pieces of [
      [head('/echo', 'application/json', 1024 * MiB), Buffer.alloc(64 * 1024)],
      [head('/echo', 'application/json', 'chunked'), ...chunked(MiB + 1024).slice(0, -1)],
    ]) {
      const { text, answeredAfter, closedAfter } = await stalledUpload(served.child.port, pieces);
      // The router's answer, not the 408 of the server's 3-second request timeout.
      expect(text).toMatch(/^HTTP\/1\.1 413 [^]*\r\nconnection: close\r\n/i);
      expect(answeredAfter).toBeLessThan(1000);
      expect(closedAfter).toBeGreaterThan(1900);
    }
  });

  it('an exception handler that answers the 413 itself: the connection still closes', async () => {
    // 10 MiB is more than the router drains: the rest stays unread, and the connection closes.
    const answer = await rawExchange(
      served.child.port,
      [head('/seen/echo', 'application/json', 'chunked'), ...chunked(10 * MiB)],
      { keepOpen: true },
    );
    expect(answer.text).toContain('{"recorded":413}');
    expect(headerOf(answer, 'connection')).toBe('close');
  });

  it('regression: a multipart field of 2 MiB and a name of 300 bytes arrive whole', async () => {
    const name = 'n'.repeat(300);
    const body = `--XX\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${'v'.repeat(2 * MiB)}\r\n--XX--\r\n`;
    const init = { headers: { 'content-type': 'multipart/form-data; boundary=XX' }, body };
    expect((await send(served.both, 'POST', '/field', init)).body).toBe(`300:${2 * MiB}`);
  });

  it("multipart fields nest, repeat and keep their names' characters; a large value arrives whole", async () => {
    const part = (name: string, value: string) =>
      `--XX\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body =
      part('a&b=c+d%', 'v1 + % & =') +
      part('list[]', 'x') +
      part('list[]', 'y') +
      part('user[name]', 'Ada') +
      part('user[tags][]', 't1') +
      part('dup', '1') +
      part('dup', '2') +
      '--XX--\r\n';
    const init = (text: string) => ({
      headers: { 'content-type': 'multipart/form-data; boundary=XX' },
      body: text,
    });
    expect(JSON.parse((await send(served.both, 'POST', '/seen/beside', init(body))).body)).toEqual({
      'a&b=c+d%': 'v1 + % & =',
      list: ['x', 'y'],
      user: { name: 'Ada', tags: ['t1'] },
      dup: ['1', '2'],
    });
    // Not escaped and read back (U+FFFD is nine characters escaped).
    const big = part('big', '\ufffd'.repeat(MiB)) + '--XX--\r\n';
    expect((await send(served.both, 'POST', '/field', init(big))).body).toBe(`3:${MiB}`);
  });

  it('multipart: more parts than fields and files may be, or a part naming 65 parameters, is refused before it is read', async () => {
    const type = { 'content-type': 'multipart/form-data; boundary=XX' };
    const empty = '--XX\r\n\r\n\r\n'.repeat(1200) + '--XX--\r\n';
    expect((await send(served.both, 'POST', '/echo', { headers: type, body: empty })).status).toBe(
      413,
    );
    const many = Array.from({ length: 65 }, (_, i) => `; p${i}=v`).join('');
    const wide = `--XX\r\nContent-Disposition: form-data; name="a"${many}\r\n\r\nx\r\n--XX--\r\n`;
    expect((await send(served.both, 'POST', '/echo', { headers: type, body: wide })).status).toBe(
      400,
    );
    await expectAlive(served.child);
  });

  it('multipart: over 10 MiB, over 20 files or over 1,000 fields', async () => {
    const type = 'multipart/form-data; boundary=XX';
    const part = (name: string, file = false) =>
      `--XX\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.txt"' : ''}\r\n\r\nx\r\n`;
    const files = Array.from({ length: 21 }, (_, i) => part(`f${i}`, true)).join('') + '--XX--\r\n';
    const fields = Array.from({ length: 1001 }, (_, i) => part(`v${i}`)).join('') + '--XX--\r\n';
    const init = (body: string) => ({ headers: { 'content-type': type }, body });
    expect((await send(served.both, 'POST', '/echo', init(files))).status).toBe(413);
    expect((await send(served.both, 'POST', '/echo', init(fields))).status).toBe(413);
    const big = `--XX\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n`;
    const answer = await rawExchange(served.child.port, [
      head('/echo', type, 'chunked') + `${big.length.toString(16)}\r\n${big}\r\n`,
      ...chunked(11 * MiB),
    ]);
    expect([answer.status, headerOf(answer, 'connection')]).toEqual([413, 'close']);
    const viaFetch = await served.app.fetch(
      streamed('/echo', [new TextEncoder().encode(big), new Uint8Array(11 * MiB)], {
        headers: { 'content-type': type },
      }),
    );
    expect(viaFetch.status).toBe(413);
    await expectAlive(served.child);
  });
});

describe('a multipart part with no name', () => {
  it('is dropped, field or file, with name="" or none: no "undefined" or "" key', async () => {
    const part = (disposition: string, file = false) =>
      `--XX\r\nContent-Disposition: form-data${disposition}${file ? '; filename="a.txt"' : ''}\r\n\r\nx\r\n`;
    const body =
      part('; name=""') +
      part('') +
      part('; name=""', true) +
      part('', true) +
      part('; name="a"') +
      '--XX--\r\n';
    const init = { headers: { 'content-type': 'multipart/form-data; boundary=XX' }, body };
    expect((await send(served.both, 'POST', '/echo', init)).body).toBe('{"fields":1,"files":0}');
    expect((await send(served.both, 'POST', '/seen/beside', init)).body).toBe('{"a":"x"}');
  });
});

describe('a body or query the router refuses goes to the handlers of the groups it is under', () => {
  // A route beside the group, under its prefix: a 405 or a malformed form there reached the
  // group's handler (found before the route), and a refused JSON body or query now does too.
  const json = (body: string) => ({ headers: { 'content-type': 'application/json' }, body });
  const many = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');

  it.each([
    ['malformed JSON', 'POST', '/seen/beside', json('{"a":'), 400],
    ['JSON nested 257 deep', 'POST', '/seen/beside', json('['.repeat(257) + ']'.repeat(257)), 400],
    ['a JSON body over bodyLimit', 'POST', '/seen/beside', json(`"${'a'.repeat(MiB)}"`), 413],
    ['a query of 1,001 fields', 'GET', `/seen/beside?${many}`, {}, 413],
    [
      'a malformed multipart form',
      'POST',
      '/seen/beside',
      { headers: { 'content-type': 'multipart/form-data; boundary=XX' }, body: '--XX\r\nbroken' },
      400,
    ],
  ] as const)('%s: the handler answers its JSON', async (_, method, target, init, status) => {
    const answer = await send(served.both, method, target, init);
    expect([answer.status, answer.body]).toEqual([status, JSON.stringify({ recorded: status })]);
  });

  it('beside no group with a handler, the router answers itself', async () => {
    const answer = await send(served.both, 'POST', '/echo', json('{"a":'));
    expect([answer.status, answer.body]).toEqual([400, 'Malformed JSON body']);
  });
});
