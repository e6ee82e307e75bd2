import { describe, expect, it } from 'vitest';
import { childApp, expectAlive, rawExchange } from '../_child.js';

// A multipart field declaring its charset (`Content-Type: text/plain; charset=…`): decoded with
// it when `TextDecoder` knows it, a 400 when not, never the text "undefined". Raw bytes over a
// socket to node:http (a child process), and Fetch `Request`s in this process.

const served = childApp({
  'routes.ts': `
import { Course, input } from 'course-router';

Course.get('/', () => 'home');
Course.post('/echo', () => ({ a: input('a') }));
Course.post('/names', () => ({
  fields: Object.keys(input().post),
  filename: (input('file') as { filename: string } | undefined)?.filename,
}));
`,
});

const TYPE = 'multipart/form-data; boundary=B';

/** A multipart body of one field `a` of `value`'s bytes, its part's charset `charset`. */
function body(charset: string, value: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="a"\r\n' +
        `Content-Type: text/plain; charset=${charset}\r\n\r\n`,
    ),
    value,
    Buffer.from('\r\n--B--\r\n'),
  ]);
}

/** Status and body of `bytes` posted to `path`: over a raw socket, and to `app.fetch`. */
async function post(
  bytes: Buffer,
  path = '/echo',
): Promise<{ http: [number, string]; fetch: [number, string] }> {
  const head =
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${TYPE}\r\n` +
    `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  const raw = await rawExchange(served.child.port, [Buffer.concat([Buffer.from(head), bytes])]);
  const text = Buffer.from(raw.text, 'latin1').toString('utf8');
  const answer = await served.app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': TYPE },
      body: bytes,
    }),
  );
  return {
    http: [raw.status, text.slice(text.indexOf('\r\n\r\n') + 4)],
    fetch: [answer.status, await answer.text()],
  };
}

const json = (a: string) => JSON.stringify({ a });

describe('a multipart field with a charset', () => {
  it.each([
    ['utf-8', Buffer.from('héllo'), 'héllo'],
    ['latin1', Buffer.from('héllo', 'latin1'), 'héllo'],
    ['UTF-16LE', Buffer.from('héllo', 'utf16le'), 'héllo'],
    // Not among busboy's own decoders: `TextDecoder` decodes them.
    ['utf-16', Buffer.from('héllo', 'utf16le'), 'héllo'],
    ['utf-16be', Buffer.from('héllo', 'utf16le').swap16(), 'héllo'],
    ['iso-8859-2', Buffer.from([0x62, 0xb3, 0x61]), 'bła'],
    ['shift_jis', Buffer.from([0x82, 0xa0]), 'あ'],
  ])('%s is decoded with it', async (charset, value, text) => {
    const answer = await post(body(charset, value));
    expect(answer).toEqual({ http: [200, json(text)], fetch: [200, json(text)] });
  });

  it.each(['utf-7', 'x-foo', 'base64', 'unknown-8bit'])(
    '%s, which TextDecoder does not know, is a 400, not "undefined"',
    async (charset) => {
      const answer = await post(body(charset, Buffer.from('hello')));
      expect(answer.http[0]).toBe(400);
      expect(answer.fetch[0]).toBe(400);
      expect(answer.http[1]).toContain('unknown charset');
      expect(answer.http[1]).not.toContain('undefined');
      await expectAlive(served.child);
    },
  );
});

describe("a part's name and file name", () => {
  it('are read as UTF-8, the bytes browsers send', async () => {
    const bytes = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="prénom"\r\n\r\nAda\r\n' +
        '--B\r\nContent-Disposition: form-data; name="file"; filename="naïve café ☃.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nhi\r\n--B--\r\n',
    );
    const names = JSON.stringify({ fields: ['prénom'], filename: 'naïve café ☃.txt' });
    expect(await post(bytes, '/names')).toEqual({ http: [200, names], fetch: [200, names] });
  });

  it('an RFC 5987 filename* is read in the charset it names', async () => {
    const bytes = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8\'\'na%C3%AFve.txt\r\n' +
        'Content-Type: text/plain\r\n\r\nhi\r\n--B--\r\n',
    );
    const names = JSON.stringify({ fields: [], filename: 'naïve.txt' });
    expect(await post(bytes, '/names')).toEqual({ http: [200, names], fetch: [200, names] });
  });
});

describe('a multipart body read one way by busboy and another by a proxy', () => {
  it.each([
    // busboy keeps the first charset or Content-Type; a proxy may read the last.
    ['utf-8; charset=x-foo', 'Two charset parameters in Content-Type'],
    ['x-foo; charset=utf-8', 'Two charset parameters in Content-Type'],
    ['utf-8; foo', 'Unreadable Content-Type parameters'],
    ['"utf-8', 'Unreadable Content-Type parameters'],
    ['utf-8, x-foo', 'Unreadable Content-Type parameters'],
    ['', 'Multipart field in an unknown charset'],
  ])('a part whose charset is %j is a 400', async (charset, message) => {
    const answer = await post(body(charset, Buffer.from('hello')));
    expect(answer).toEqual({ http: [400, message], fetch: [400, message] });
  });

  it('a part with two Content-Type lines is a 400; the same charset twice is read', async () => {
    const twice = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=utf-8\r\n' +
        'Content-Type: text/plain; charset=latin1\r\n\r\nhello\r\n--B--\r\n',
    );
    const message = 'Two Content-Type lines in a multipart part';
    expect(await post(twice)).toEqual({ http: [400, message], fetch: [400, message] });
    const same = await post(body('utf-8; CHARSET="UTF-8"', Buffer.from('héllo')));
    expect(same).toEqual({ http: [200, json('héllo')], fetch: [200, json('héllo')] });
    // A part's content that looks like headers is content.
    const content = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n' +
        'x\r\nContent-Type: a; charset=b; charset=c\r\n\r\ny\r\n--B--\r\n',
    );
    const text = 'x\r\nContent-Type: a; charset=b; charset=c\r\n\r\ny';
    expect(await post(content)).toEqual({ http: [200, json(text)], fetch: [200, json(text)] });
  });

  it.each([
    [
      'two Content-Disposition lines',
      'Content-Disposition: form-data; name="b"\r\nContent-Disposition: form-data; name="a"',
      'Two Content-Disposition lines in a multipart part',
    ],
    [
      'two names',
      'Content-Disposition: form-data; name="a"; name="b"',
      'Two name parameters in a multipart part',
    ],
    [
      'two file names',
      'Content-Disposition: form-data; name="a"; filename="x.php"; filename="x.txt"',
      'Two filename parameters in a multipart part',
    ],
  ])('a part with %s is a 400', async (_, disposition, message) => {
    const bytes = Buffer.from(`--B\r\n${disposition}\r\n\r\nhello\r\n--B--\r\n`);
    expect(await post(bytes)).toEqual({ http: [400, message], fetch: [400, message] });
  });

  it('a part naming its name twice with one value is read', async () => {
    const same = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="a"; NAME=a\r\n\r\nhello\r\n--B--\r\n',
    );
    expect(await post(same)).toEqual({ http: [200, json('hello')], fetch: [200, json('hello')] });
  });

  it('two boundary parameters are a 400', async () => {
    const bytes = body('utf-8', Buffer.from('hello'));
    const head =
      `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=B; boundary=C\r\n` +
      `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
    const raw = await rawExchange(served.child.port, [Buffer.concat([Buffer.from(head), bytes])]);
    expect(raw.status).toBe(400);
    expect(raw.text).toContain('Two boundary parameters in Content-Type');
  });
});
