import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApp,
  httpRequest,
  importTable,
  removeApp,
  serve,
  writeApp,
  type Served,
} from '../_utils.js';

const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1);

const ROUTES = `
import { Course, input } from 'course-router';
Course.get('/', () => 'home');
Course.get('/a/{x}', (x) => 'a:' + x);
Course.get('/a/{x}/b/{y?}', (x, y) => 'ab:' + x + ':' + y);
Course.post('/a/{x}', (x) => 'post:' + x + ':' + String(input('v', '')));
Course.get('/files/{path}', (path) => 'file:' + path).where('path', '.*');
Course.get('/n/{id}', (id) => 'n:' + id).where('id', '[0-9]+');
Course.get('/q', () => JSON.stringify(input()));
`;

let dir: string;
let served: Served;

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  served = await serve(await importTable(dir));
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

// Printable ASCII a client can put in a request target, weighted towards the tricky parts.
const pieceArb = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    'n',
    'files',
    'q',
    '1',
    'x',
    '..',
    '.',
    '',
    '%',
    '%2',
    '%2F',
    '%2f',
    '%2e%2e',
    '%00',
    '%41',
    '%ZZ',
    '%C3%A9',
    '%E0%A4',
    '\\',
    '~',
    "'",
    '"',
    '<',
    '>',
    '{',
    '}',
    '|',
    '^',
    '`',
    '[',
    ']',
    '@',
    '!',
    '$',
    '&',
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    ':',
  ),
  fc.stringMatching(/^[\x21-\x7e]{1,4}$/).filter((s) => !s.includes('#') && !s.includes('?')),
);
const targetArb = fc
  .tuple(
    fc.array(pieceArb, { maxLength: 6 }),
    fc.constantFrom('', '?', '?v=1', '?a[b]=1&a[c][]=2', '?x=%zz'),
    fc.boolean(),
    // A fragment no client sends, which the URL parser cuts off in the Fetch runtime.
    fc.constantFrom('', '', '', '#', '#/../a', '#?v=1'),
  )
  .map(
    ([pieces, query, double, fragment]) =>
      `${double ? '//' : '/'}${pieces.join('/')}${query}${fragment}`,
  );

describe('property: both adapters answer every request alike, and nothing makes the app fail', () => {
  it(`for ${1000 * SCALE} random request targets`, { timeout: 60_000 * SCALE }, async () => {
    await fc.assert(
      fc.asyncProperty(
        targetArb,
        fc.constantFrom('GET', 'POST', 'HEAD'),
        async (target, method) => {
          const viaFetch = await served.app.fetch(
            new Request(`http://localhost${target}`, { method }),
          );
          const fetchAnswer = { status: viaFetch.status, body: await viaFetch.text() };
          const viaHttp = await httpRequest(served.base, method, target, { host: 'localhost' });
          expect({ status: viaHttp.status, body: viaHttp.body }, `${method} ${target}`).toEqual(
            fetchAnswer,
          );
          expect([200, 400, 404, 405, 414], `${method} ${target} → ${viaHttp.status}`).toContain(
            viaHttp.status,
          );
        },
      ),
      { numRuns: 1000 * SCALE, seed: 11 },
    );
  });
});
