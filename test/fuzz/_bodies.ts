import fc from 'fast-check';
import {
  fraction,
  jsonArb,
  jsonOversizedArb,
  otherArb,
  urlencodedArb,
  type Content,
  type Expected,
} from './_contents.js';
import { multipartArb } from './_multipart.js';

// A request of the properties: a random body (./_contents.ts), framed whole or broken, and
// delivered at once, in slow pieces, aborted or stalled; with what the app below must answer.
// Shared by the raw-socket and Fetch properties.

export { LIMITS } from './_contents.js';

/** The routes the bodies are sent to: `/echo` reads them; any other path is a 404. */
export const ROUTES = `
import { Course, input } from 'course-router';
Course.get('/', () => 'home');
Course.match(['post', 'put'], '/echo', () => {
  const { post, file } = input();
  const files = Object.entries(file).map(([name, f]) => name + ':' + (f as { filename: string }).filename + ':' + (f as { size: number }).size);
  return { fields: Object.keys(post).sort(), files: files.sort() };
});
`;

/** How the body is framed on the wire. */
export type Framing = 'length' | 'chunked' | 'short' | 'long' | 'chunked-broken';

/** How the client sends it: in pieces `gap` ms apart, then closes, aborts, or stalls. */
export interface Delivery {
  /** Where the bytes are cut into pieces, as fractions of their length. */
  splits: number[];
  gap: number;
  end: 'close' | 'abort' | 'stop';
  /** Where an abort or a stall happens, as a fraction of the bytes. */
  at: number;
}

/** One request of the property. */
export interface BodyCase {
  method: 'POST' | 'PUT';
  target: string;
  content: Content;
  framing: Framing;
  /** The chunk sizes of chunked framing; the mutation of broken framing. */
  chunks: number[];
  mutation: number;
  delivery: Delivery;
}
// --- the case ---

export const bodyCaseArb: fc.Arbitrary<BodyCase> = fc.record({
  method: fc.constantFrom('POST', 'POST', 'PUT'),
  target: fc.constantFrom('/echo', '/echo', '/echo', '/no/such/route'),
  content: fc.oneof(
    { arbitrary: multipartArb, weight: 4 },
    { arbitrary: urlencodedArb, weight: 3 },
    { arbitrary: jsonArb, weight: 3 },
    { arbitrary: jsonOversizedArb, weight: 1 },
    { arbitrary: otherArb, weight: 1 },
  ),
  framing: fc.constantFrom<Framing>(
    'length',
    'length',
    'length',
    'chunked',
    'chunked',
    'short',
    'long',
    'chunked-broken',
  ),
  chunks: fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 4 }),
  mutation: fc.nat({ max: 5 }),
  delivery: fc.record({
    splits: fc.array(fraction, { maxLength: 3 }),
    gap: fc.constantFrom(0, 0, 0, 1, 5, 10),
    end: fc.constantFrom<Delivery['end']>(
      'close',
      'close',
      'close',
      'close',
      'close',
      'close',
      'abort',
      'stop',
    ),
    at: fraction,
  }),
});

/** What the router must answer when the whole body arrives as framed. */
export function expectedOf(c: BodyCase): Expected {
  const routed = c.target === '/echo';
  // Off a route, no body is read, not even a POSTed form's (for `_method`): no route could take it.
  if (!routed) return { statuses: [404] };
  return c.content.expected;
}

/** The body arrives whole and as framed, and the client waits for the answer. */
export const intact = (c: BodyCase) =>
  (c.framing === 'length' || c.framing === 'chunked') && c.delivery.end === 'close';

/** The request's bytes on the wire, as framed (broken framing included). */
export function wireBytes(c: BodyCase): Buffer {
  const { body, type } = c.content;
  let head = `${c.method} ${c.target} HTTP/1.1\r\nHost: localhost\r\n`;
  if (type !== undefined) head += `Content-Type: ${type}\r\n`;
  switch (c.framing) {
    case 'length':
      return Buffer.concat([Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`), body]);
    case 'short':
      return Buffer.concat([
        Buffer.from(`${head}Content-Length: ${body.length + 1 + c.mutation}\r\n\r\n`),
        body,
      ]);
    case 'long':
      return Buffer.concat([
        Buffer.from(`${head}Content-Length: ${Math.max(0, body.length - 1 - c.mutation)}\r\n\r\n`),
        body,
      ]);
    default:
      return Buffer.concat([
        Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n`),
        chunked(body, c.chunks, c.framing === 'chunked-broken' ? c.mutation : -1),
      ]);
  }
}

/** The body in chunked framing, with `mutation` (0–5) breaking it, or none (-1). */
function chunked(body: Buffer, sizes: number[], mutation: number): Buffer {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < body.length; i++) {
    const piece = body.subarray(at, at + sizes[i % sizes.length]!);
    at += piece.length;
    out.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  const middle = Math.floor(out.length / 3) * 3;
  const broken: Record<number, () => void> = {
    0: () => out.splice(middle, 0, Buffer.from('zz\r\n')), // a size that is not hexadecimal
    1: () => out.splice(middle, 0, Buffer.from('ffffffffffffffffff\r\n')), // a size past any limit
    2: () => out.push(Buffer.from('5\r\nab')), // a chunk shorter than its size, then the end
    3: () => out.splice(middle, 0, Buffer.from('1\r\nxy\r\n')), // data past its chunk
    4: () => out.splice(middle, 0, Buffer.from('-1\r\n')), // a negative size
    5: () => out.splice(middle, 0, Buffer.from('3\nabc\n')), // bare LF line ends
  };
  if (mutation >= 0) broken[mutation]!();
  if (mutation !== 2) out.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(out);
}

/** `bytes` cut into pieces at `splits` (fractions of their length). */
export function piecesOf(bytes: Buffer, splits: number[]): Buffer[] {
  const cuts = splits.map((at) => Math.floor(at * bytes.length)).sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(from, cut));
    from = cut;
  }
  return pieces.filter((p) => p.length > 0);
}

/** A short description of a case for a failure message. */
export function describeCase(c: BodyCase): string {
  return `${c.method} ${c.target} ${c.content.label} (${c.content.type ?? 'no type'}, ${c.content.body.length} B) ${c.framing} ${JSON.stringify(c.delivery)}`;
}
