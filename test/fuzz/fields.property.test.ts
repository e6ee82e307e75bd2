import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { queryOf } from '../../runtime/features/input.js';
import type { CourseRequest } from '../../runtime/http/request.js';

// Flat fields are read without qs (`flatFields`): for any text, the fields must be qs's, with
// the options the runtime gives it — the same names, values, arrays of repeated names, nesting
// and null-prototype containers.

const OPTIONS: qs.IParseOptions = {
  allowPrototypes: false,
  plainObjects: true,
  allowSparse: true,
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1000,
};

const fieldsOf = (text: string): Record<string, unknown> =>
  queryOf({ query: text } as unknown as CourseRequest);

/** Containers and their prototypes, as a comparable tree. */
function shape(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const proto =
    Object.getPrototypeOf(value) === null ? 'null' : Array.isArray(value) ? 'array' : 'object';
  return { proto, entries: Object.entries(value).map(([k, v]) => [k, shape(v)]) };
}

const piece = fc.constantFrom(
  'a',
  'b',
  'name',
  '',
  '=',
  '+',
  '%20',
  '%',
  '%zz',
  '%E2%9C%93',
  '%C3',
  '__proto__',
  'constructor',
  'toString',
  '0',
  '5',
  '[',
  ']',
  '[]',
  '%5B',
  '%5d',
  '.',
  'é',
  ' ',
  '&',
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
  fc
    .array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'x y', 'k%2B'), fc.string({ maxLength: 6 })), {
      maxLength: 8,
    })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')),
);

describe('urlencoded fields', () => {
  it('are the fields qs reads, for any text', () => {
    fc.assert(
      fc.property(text, (sent) => {
        expect(shape(fieldsOf(sent))).toEqual(shape(qs.parse(sent, OPTIONS)));
      }),
      { numRuns: 3000 },
    );
  });

  it('are qs’s for the edges: repeats, escapes, prototype names, brackets', () => {
    for (const sent of [
      'a=1&a=2',
      'a',
      'a=',
      '=1',
      '&&',
      '__proto__=1&b=2',
      'constructor=1',
      'a=%zz',
      'a+b=c+d',
      'a=1=2',
      'a[b]=1',
      'a%5Bb%5D=1',
      'a]=1',
      'x=b]=c',
      '2=x&1=y',
      `${'k=v&'.repeat(150)}k=v`,
    ]) {
      expect(shape(fieldsOf(sent)), sent).toEqual(shape(qs.parse(sent, OPTIONS)));
    }
  });

  it('are qs’s for long texts too, whose `+` are rewritten byte by byte', () => {
    // Past 512 characters: a text repeated until it is that long, at most 1,000 fields.
    const long = text.map((sent) =>
      sent.includes('+') ? `${sent}&`.repeat(Math.ceil(600 / (sent.length + 1))) + sent : sent,
    );
    fc.assert(
      fc.property(long, (sent) => {
        expect(shape(fieldsOf(sent))).toEqual(shape(qs.parse(sent, OPTIONS)));
      }),
      { numRuns: 500 },
    );
    const plus = `a=${'+'.repeat(1 << 20)}&%EF%BB%BF+b%2B=\uFEFF+é+%2B&c[+]=+`;
    const fields = fieldsOf(`\uFEFF${plus}`);
    expect(fields['\uFEFFa']).toBe(' '.repeat(1 << 20));
    expect(shape(fields)).toEqual(shape(qs.parse(`\uFEFF${plus}`, OPTIONS)));
  });

  it('over 1,000 fields are refused with 413, flat or nested', () => {
    for (const field of ['a=1', 'a[]=1']) {
      expect(() => fieldsOf(Array(1001).fill(field).join('&'))).toThrow(
        expect.objectContaining({ status: 413 }) as Error,
      );
    }
  });
});
