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

/** Status and body of `bytes` posted to /echo: over a raw socket, and to `app.fetch`. */
async function post(bytes: Buffer): Promise<{ http: [number, string]; fetch: [number, string] }> {
  const head =
    `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${TYPE}\r\n` +
    `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  const raw = await rawExchange(served.child.port, [Buffer.concat([Buffer.from(head), bytes])]);
  const text = Buffer.from(raw.text, 'latin1').toString('utf8');
  const answer = await served.app.fetch(
    new Request('http://localhost/echo', {
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
