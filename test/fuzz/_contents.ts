import fc from 'fast-check';

// Random request bodies of every content type the router reads — whole, cut, malformed and
// oversized — each with what `/echo` (see ./_bodies.ts) must answer for it. Multipart bodies
// are in ./_multipart.ts.

/** The limits the property's app is served with: small, so oversized bodies stay cheap. */
export const LIMITS = { bodyLimit: 16 * 1024, multipartLimit: 256 * 1024 };

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

export const EMPTY: Echo = { fields: [], files: [] };
export const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
export const nameArb = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
export const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const textArb = fc.oneof(printable, fc.string({ maxLength: 20, unit: 'grapheme' }));

// --- urlencoded ---

const FORM = 'application/x-www-form-urlencoded';
const junkArb = fc.string({
  unit: fc.constantFrom(...'ab=&%ZZ2F[]+.é\u0000;'.split('')),
  maxLength: 200,
});

export const urlencodedArb: fc.Arbitrary<Content> = fc.oneof(
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
export const jsonArb: fc.Arbitrary<Content> = fc
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

export const jsonOversizedArb = fc
  .tuple(jsonTypeArb, fc.integer({ min: 1, max: 3 * LIMITS.bodyLimit }))
  .map(([type, extra]): Content => ({
    label: 'json oversized',
    type,
    body: Buffer.from(JSON.stringify({ a: 'x'.repeat(LIMITS.bodyLimit + extra) })),
    form: false,
    expected: { statuses: [413], close: true },
  }));

// --- other types: not read ---

export const otherArb: fc.Arbitrary<Content> = fc
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
