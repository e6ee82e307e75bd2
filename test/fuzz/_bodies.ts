import fc from 'fast-check';

// Random request bodies of every content type the router reads — whole, cut, malformed and
// oversized — framed whole or broken, and delivered at once, in slow pieces, aborted or stalled;
// with what the app below must answer. Shared by the raw-socket and Fetch properties.

/** The limits the property's app is served with: small, so oversized bodies stay cheap. */
export const LIMITS = { bodyLimit: 16 * 1024, multipartLimit: 256 * 1024 };

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

/** What `/echo` answers for a body it read: the field names and the files, sorted. */
export interface Echo {
  fields: string[];
  files: string[];
}

/** The statuses a body may get, its echo when one is certain, whether the 413 closes. */
export interface Expected {
  statuses: number[];
  echo?: Echo;
  close?: boolean;
}

/** A body with its content type; `form`: read for `_method` on any POST, not only on a route. */
export interface Content {
  label: string;
  type: string | undefined;
  body: Buffer;
  form: boolean;
  expected: Expected;
}

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

const EMPTY: Echo = { fields: [], files: [] };
const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const nameArb = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const textArb = fc.oneof(printable, fc.string({ maxLength: 20, unit: 'grapheme' }));

// --- multipart ---

const BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?";
const boundaryArb = fc.string({ unit: fc.constantFrom(...BCHARS), minLength: 1, maxLength: 70 });

const CRLF = Buffer.from('\r\n');

interface Part {
  name: string;
  file?: string;
  type?: string;
  value: Buffer;
}

function partText(boundary: string, part: Part): Buffer {
  const disposition = `form-data; name="${part.name}"${part.file ? `; filename="${part.file}"` : ''}`;
  // busboy takes an application/octet-stream part for a file: only files have a type here.
  const type = part.file && part.type ? `Content-Type: ${part.type}\r\n` : '';
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
    part.value,
    Buffer.from('\r\n'),
  ]);
}

const partsArb = (boundary: string) =>
  fc.uniqueArray(
    fc.record({
      name: nameArb,
      file: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}\.txt$/), { nil: undefined }),
      type: fc.option(fc.constantFrom('text/plain', 'application/octet-stream'), {
        nil: undefined,
      }),
      value: fc
        .oneof(
          printable.map((s) => Buffer.from(s)),
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
        )
        .filter((value) => !Buffer.concat([CRLF, value, CRLF]).includes(`\r\n--${boundary}`)),
    }),
    { selector: (part) => part.name, maxLength: 6 },
  );

function echoOf(parts: Part[]): Echo {
  return {
    fields: parts
      .filter((p) => !p.file)
      .map((p) => p.name)
      .sort(),
    files: parts
      .filter((p) => p.file)
      .map((p) => `${p.name}:${p.file}:${p.value.length}`)
      .sort(),
  };
}

const multipartArb: fc.Arbitrary<Content> = fc
  .tuple(boundaryArb, fc.boolean())
  .chain(([boundary, quoted]) =>
    fc.tuple(
      fc.constant(boundary),
      fc.constant(
        `multipart/form-data; boundary=${quoted || /[^\w'+.-]/.test(boundary) ? `"${boundary}"` : boundary}`,
      ),
      partsArb(boundary),
      fc.constantFrom(
        'whole',
        'whole',
        'cut',
        'cut',
        'malformed',
        'no-boundary',
        'files',
        'fields',
        'oversized',
      ),
      fraction,
      fc.constantFrom('', '\r\n', '\r\nepilogue'),
    ),
  )
  .map(([boundary, type, parts, variant, at, epilogue]): Content => {
    const close = Buffer.from(`--${boundary}--`);
    const whole = (list: Part[]) =>
      Buffer.concat([...list.map((p) => partText(boundary, p)), close]);
    const body = whole(parts);
    const label = `multipart ${variant}`;
    switch (variant) {
      case 'cut':
        // Any end before the close delimiter's last byte is a form cut short.
        return {
          label,
          type,
          body: body.subarray(0, Math.floor(at * body.length)),
          form: true,
          expected: { statuses: [400] },
        };
      case 'malformed': {
        const junk = [
          `--${boundary}\r\nno colon here\r\n\r\nx\r\n`,
          `--${boundary}\r\nX-Other: 1\r\n\r\nx\r\n`,
          'junk\r\n',
        ];
        const at2 = Math.floor(at * junk.length);
        const bad = Buffer.concat([Buffer.from(junk[at2]!), body]);
        return { label, type, body: bad, form: true, expected: { statuses: [200, 400] } };
      }
      case 'no-boundary':
        return {
          label,
          type: 'multipart/form-data',
          body,
          form: true,
          expected: { statuses: [400] },
        };
      case 'files': {
        const many = Array.from({ length: 21 }, (_, i) => ({
          name: `f${i}`,
          file: 'a.txt',
          value: Buffer.from('x'),
        }));
        return { label, type, body: whole(many), form: true, expected: { statuses: [413] } };
      }
      case 'fields': {
        const many = Array.from({ length: 1001 }, (_, i) => ({
          name: `v${i}`,
          value: Buffer.from('x'),
        }));
        return { label, type, body: whole(many), form: true, expected: { statuses: [413] } };
      }
      case 'oversized': {
        const big = {
          name: 'big',
          file: 'big.txt',
          value: Buffer.alloc(LIMITS.multipartLimit + Math.floor(at * LIMITS.multipartLimit), 'a'),
        };
        return {
          label,
          type,
          body: whole([big]),
          form: true,
          expected: { statuses: [413], close: true },
        };
      }
      default:
        return {
          label,
          type,
          body: Buffer.concat([body, Buffer.from(epilogue)]),
          form: true,
          expected: { statuses: [200], echo: echoOf(parts) },
        };
    }
  });

// --- urlencoded ---

const FORM = 'application/x-www-form-urlencoded';
const junkArb = fc.string({
  unit: fc.constantFrom(...'ab=&%ZZ2F[]+.é\u0000;'.split('')),
  maxLength: 200,
});

const urlencodedArb: fc.Arbitrary<Content> = fc.oneof(
  fc
    .uniqueArray(fc.tuple(nameArb, textArb), { selector: ([name]) => name, maxLength: 8 })
    .map((fields): Content => ({
      label: 'urlencoded whole',
      type: FORM,
      body: Buffer.from(fields.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&')),
      form: true,
      expected: { statuses: [200], echo: { fields: fields.map(([n]) => n).sort(), files: [] } },
    })),
  junkArb.map((text): Content => ({
    label: 'urlencoded junk',
    type: FORM,
    body: Buffer.from(text),
    form: true,
    expected: { statuses: [200] },
  })),
  fc.integer({ min: 1001, max: 1500 }).map((count): Content => ({
    label: 'urlencoded fields',
    type: FORM,
    body: Buffer.from(Array.from({ length: count }, () => 'a=1').join('&')),
    form: true,
    expected: { statuses: [413] },
  })),
  fc.integer({ min: 1, max: 3 * LIMITS.bodyLimit }).map((extra): Content => ({
    label: 'urlencoded oversized',
    type: FORM,
    body: Buffer.from(`a=${'x'.repeat(LIMITS.bodyLimit + extra)}`),
    form: true,
    expected: { statuses: [413], close: true },
  })),
);

// --- JSON ---

/** What `/echo` answers for JSON text: its keys, or a 400 when it does not parse. */
function jsonExpected(text: string): Expected {
  if (text.trim() === '') return { statuses: [200], echo: EMPTY };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { statuses: [400] };
  }
  // Nesting past the router's bound is refused.
  if (depthOf(value) > 256) return { statuses: [400] };
  const fields =
    typeof value === 'object' && value !== null ? Object.keys(value).sort() : ['value'];
  return { statuses: [200], echo: { fields, files: [] } };
}

/** How deeply arrays and objects nest in a parsed JSON value (walked without recursion). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const jsonTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
);
const jsonArb: fc.Arbitrary<Content> = fc
  .tuple(
    jsonTypeArb,
    fc.oneof(
      fc.json().map((text) => ['json whole', text] as const),
      fc
        .tuple(fc.json(), fraction)
        .map(([text, at]) => ['json cut', text.slice(0, Math.floor(at * text.length))] as const),
      junkArb.map((text) => ['json junk', text] as const),
      fc
        .integer({ min: 1, max: 4000 })
        .map((depth) => ['json deep', '['.repeat(depth) + ']'.repeat(depth)] as const),
    ),
  )
  .map(([type, [label, text]]): Content => {
    const body = Buffer.from(text);
    // A large generated value is over the limit like any other body.
    const expected =
      body.length > LIMITS.bodyLimit ? { statuses: [413], close: true } : jsonExpected(text);
    return { label, type, body, form: false, expected };
  });

const jsonOversizedArb = fc
  .tuple(jsonTypeArb, fc.integer({ min: 1, max: 3 * LIMITS.bodyLimit }))
  .map(([type, extra]): Content => ({
    label: 'json oversized',
    type,
    body: Buffer.from(JSON.stringify({ a: 'x'.repeat(LIMITS.bodyLimit + extra) })),
    form: false,
    expected: { statuses: [413], close: true },
  }));

// --- other types: not read ---

const otherArb: fc.Arbitrary<Content> = fc
  .tuple(
    fc.constantFrom(
      undefined,
      'text/plain',
      'application/octet-stream',
      'multipart/mixed; boundary=x',
    ),
    fc.uint8Array({ maxLength: 3 * LIMITS.bodyLimit }),
  )
  .map(([type, bytes]): Content => ({
    label: `other ${type}`,
    type,
    body: Buffer.from(bytes),
    form: false,
    expected: { statuses: [200], echo: EMPTY },
  }));

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
  // Off a route, only a POSTed form is read (for `_method`); a body read there fails or is a 404.
  if (!routed) {
    if (c.method !== 'POST' || !c.content.form) return { statuses: [404] };
    const { statuses, close } = c.content.expected;
    return { statuses: statuses.map((s) => (s === 200 ? 404 : s)), close };
  }
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
