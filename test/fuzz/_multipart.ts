import fc from 'fast-check';
import { fraction, LIMITS, nameArb, printable, type Content, type Echo } from './_contents.js';

// Multipart bodies with random boundaries and parts: whole, cut anywhere before the close
// delimiter, malformed, without a boundary, with too many files or fields, or oversized.

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

export const multipartArb: fc.Arbitrary<Content> = fc
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
