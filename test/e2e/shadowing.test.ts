import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import {
  importTable,
  removeApp,
  send,
  serve,
  WALKED_ROUTES,
  writeApp,
  type Served,
} from '../_utils.js';

// Routes some of whose verbs an earlier route with the same pattern takes: the build warns, and
// the server gives the earlier route its verbs and the later one the rest (CONTRACT 5.1).
const ROUTES = `import { Course, request } from 'course-router';
Course.get('/my/url', () => 'first');
Course.all('/my/url', () => 'second ' + request().method);
Course.get('/p/{x}', (x) => 'first ' + x);
Course.match(['get', 'post'], '/p/{y}', (y) => 'second ' + y);
Course.get('/s', () => 'first');
Course.match(['get', 'put'], '/s', () => 'second');
`;

const WARNINGS = [
  'routes.ts:3:8: warning E_DUPLICATE_ROUTE: ANY /my/url gets only the verbs earlier routes leave',
  'routes.ts:5:8: warning E_DUPLICATE_ROUTE: GET|POST /p/{y} gets only the verbs earlier routes leave',
  'routes.ts:7:8: warning E_DUPLICATE_ROUTE: GET|PUT /s gets only the verbs earlier routes leave',
];

// Small apps get code per dynamic route, large ones the runtime's shared walker: both serve.
describe.each([
  ['code per route', ''],
  ['the shared walker', WALKED_ROUTES],
])('a partly shadowed route serves the verbs left to it (%s)', (_, extra) => {
  let dir: string;
  let served: Served;
  let stderr: string;

  beforeAll(async () => {
    dir = writeApp({ 'routes.ts': ROUTES + extra + '\n' });
    const result = await cli(['build', '--root', dir]);
    expect(result.code, result.stderr).toBe(0);
    stderr = result.stderr;
    served = await serve(await importTable(dir));
  });

  afterAll(async () => {
    await served?.close();
    if (dir) removeApp(dir);
  });

  it('builds, warning once per partly shadowed route', () => {
    for (const warning of WARNINGS) expect(stderr).toContain(warning);
    expect(stderr.match(/warning/g)).toHaveLength(WARNINGS.length);
  });

  it('GET and HEAD go to the first route, every other verb to the any() route', async () => {
    expect(await send(served, 'GET', '/my/url')).toMatchObject({ status: 200, body: 'first' });
    const head = await send(served, 'HEAD', '/my/url');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe('5');
    for (const verb of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
      expect(await send(served, verb, '/my/url')).toMatchObject({
        status: 200,
        body: `second ${verb}`,
      });
  });

  it('a dynamic pattern: GET to the first, POST to the second, a 405 allowing both', async () => {
    expect((await send(served, 'GET', '/p/7')).body).toBe('first 7');
    expect((await send(served, 'POST', '/p/7')).body).toBe('second 7');
    const refused = await send(served, 'DELETE', '/p/7');
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('GET, HEAD, POST');
  });

  it('a static path: GET to the first, PUT to the second, a 405 allowing both', async () => {
    expect((await send(served, 'GET', '/s')).body).toBe('first');
    expect((await send(served, 'PUT', '/s')).body).toBe('second');
    const refused = await send(served, 'POST', '/s');
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('GET, HEAD, PUT');
  });
});
