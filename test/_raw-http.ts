import { rawExchange } from './_child.js';

/** An answer read off a raw socket: its status, headers (lower-case, repeats joined) and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, de-chunked. */
  body: Buffer;
}

/**
 * Sends one request, as written, on a fresh connection with `Connection: close`, and reads the
 * answer. The connection is kept open until the server closes it after its answer.
 */
export async function rawHttp(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
): Promise<RawAnswer> {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  const head = `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`;
  const answer = await rawExchange(port, body ? [head, body] : [head], { keepOpen: true });
  const bytes = Buffer.from(answer.text, 'latin1');
  const split = bytes.indexOf('\r\n\r\n');
  const out: RawAnswer = { status: answer.status, headers: {}, body: bytes.subarray(split + 4) };
  for (const line of bytes.subarray(0, split).toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    out.headers[name] = out.headers[name] === undefined ? value : `${out.headers[name]}, ${value}`;
  }
  if (out.headers['transfer-encoding'] === 'chunked') out.body = unchunk(out.body);
  return out;
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, eol).toString(), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
