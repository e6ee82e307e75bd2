// The requests of the whole-request benchmark (`npm run bench:http`), and the answer every
// server must give to each: the same status, content type and body bytes.
import { BIG_FILE, SMALL_FILE } from './http-static.js';

/** One request sent over and over, and the answer each server is checked for first. */
export interface Scenario {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  status: number;
  type: string;
  response: string | Buffer;
  /** A header the answer must carry, `[name, value]`. */
  header?: [string, string];
}

/** The token the group middleware lets through. */
export const TOKEN = 'Bearer 0123456789abcdef';
const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** The resources of the REST API under `/api`: five routes each, 40 in all. */
export const RESOURCES = [
  'users',
  'posts',
  'comments',
  'photos',
  'albums',
  'todos',
  'tags',
  'orders',
];

/** A post as an API client writes one: 300 bytes of JSON. */
export const POST_BODY = padJson({
  title: 'Routing at build time',
  body: '',
  tags: ['routing', 'performance', 'typescript'],
  draft: false,
  publishAt: '2026-11-27T09:00:00.000Z',
});

const FORM_BODY =
  'name=Ada+Lovelace&email=ada%40example.com&message=Hello+from+the+form&newsletter=on';
const BOUNDARY = '----CourseBenchBoundary7MA4YWxkTrZu0gW';
const FILE = Buffer.alloc(2048, 'abcdefghijklmnopqrstuvwxyz0123456789\n');
const MULTIPART_BODY = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="title"\r\n\r\nQuarterly report\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="author"\r\n\r\nAda\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="report.txt"\r\n` +
      'content-type: text/plain\r\n\r\n',
  ),
  FILE,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

export const SCENARIOS: Scenario[] = [
  {
    name: 'POST JSON through the group middleware → 201',
    method: 'POST',
    path: '/api/users/42/posts',
    headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: POST_BODY,
    status: 201,
    type: JSON_TYPE,
    response: JSON.stringify({ id: 101, userId: '42', title: 'Routing at build time', tags: 3 }),
  },
  {
    name: 'GET /user/{id} → JSON',
    method: 'GET',
    path: '/user/42',
    headers: {},
    status: 200,
    type: JSON_TYPE,
    response: '{"id":"42"}',
  },
  {
    name: '404',
    method: 'GET',
    path: '/no/such/page',
    headers: {},
    status: 404,
    type: TEXT_TYPE,
    response: 'Not Found',
  },
  {
    name: '405',
    method: 'DELETE',
    path: '/user/42',
    headers: {},
    status: 405,
    type: TEXT_TYPE,
    response: 'Method Not Allowed',
    header: ['allow', 'GET, HEAD'],
  },
  {
    name: '401 refused by the middleware',
    method: 'GET',
    path: '/api/users/42',
    headers: {},
    status: 401,
    type: JSON_TYPE,
    response: '{"error":"Unauthorized"}',
  },
  {
    name: 'urlencoded form POST',
    method: 'POST',
    path: '/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: FORM_BODY,
    status: 200,
    type: JSON_TYPE,
    response: '{"name":"Ada Lovelace","email":"ada@example.com"}',
  },
  {
    name: 'multipart upload (two fields, a 2 KB file)',
    method: 'POST',
    path: '/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: MULTIPART_BODY,
    status: 200,
    type: JSON_TYPE,
    response: '{"title":"Quarterly report","author":"Ada","file":"report.txt","size":2048}',
  },
  {
    name: 'GET /static/small.txt (a 1 KiB file)',
    method: 'GET',
    path: '/static/small.txt',
    headers: {},
    status: 200,
    type: TEXT_TYPE,
    response: SMALL_FILE,
  },
  {
    name: 'GET /static/big.bin (a 200 KiB file)',
    method: 'GET',
    path: '/static/big.bin',
    headers: {},
    status: 200,
    type: 'application/octet-stream',
    response: BIG_FILE,
  },
];

/**
 * Throws unless `response` is `scenario`'s answer: its status, content type and body bytes, and
 * its header when `withHeader`. `who` names the server in the message.
 */
export async function expectAnswer(
  who: string,
  scenario: Scenario,
  response: Response,
  withHeader: boolean,
): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const same = body.equals(Buffer.from(scenario.response));
  // A UTF-8 `charset` aside: Course sends a returned object as `application/json`, which RFC
  // 8259 registers without one, where the others' apps write `charset=utf-8`.
  const type = (value: string | null) => value && value.replace(/;\s*charset=utf-8$/i, '');
  const got = [
    response.status,
    type(response.headers.get('content-type')),
    same ? 'the body' : body.toString().slice(0, 200),
  ];
  const want = [scenario.status, type(scenario.type), 'the body'];
  if (withHeader && scenario.header) {
    got.push(response.headers.get(scenario.header[0]));
    want.push(scenario.header[1]);
  }
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(
      `bench: ${who} answers ${scenario.name} with ${JSON.stringify(got)}, not ${JSON.stringify(want)}`,
    );
}

// --- internal ---

/** `value` as JSON padded to 300 bytes through its `body` field. */
function padJson(value: Record<string, unknown>): string {
  const bare = JSON.stringify(value).length;
  return JSON.stringify({ ...value, body: 'x'.repeat(300 - bare) });
}
