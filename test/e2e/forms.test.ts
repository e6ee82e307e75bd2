import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApp,
  httpRequest,
  importTable,
  removeApp,
  send,
  serve,
  writeApp,
  type Served,
} from '../_utils.js';

const ROUTES = `
import { Course, csrfToken, request, spoofing } from 'course-router';

Course.csrfVerifier('Security\\\\Verifier');
Course.error(true, '/missing');

Course.group({ exceptionHandler: 'Security\\\\CsrfHandler' }, () => {
  Course.get('/form', () => '<form method="post">' + spoofing('put') + '<input name="csrf_token" value="' + csrfToken() + '"></form>');
  Course.get('/token', () => csrfToken() + ' ' + csrfToken());
  Course.post('/items', () => 'created');
  Course.put('/items/{id}', (id) => 'put ' + id + ' via ' + request().originalMethod);
  Course.delete('/items/{id}', (id) => 'deleted ' + id);
  Course.patch('/items/{id}', (id) => 'patched ' + id);
  Course.post('/webhook', () => 'hook');
  Course.post('/api/open', () => 'open api');
  Course.post('/api/secure', () => 'secure api');
});
Course.get('/missing', () => 'the error page');
`;

const FILES = {
  'routes.ts': ROUTES,
  'app/Security/Verifier.ts': `
import { BaseCsrfVerifier } from 'course-router';
export class Verifier extends BaseCsrfVerifier {
  protected except = ['/api/*', '/webhook'];
  protected include = ['/api/secure'];
}`,
  'app/Security/CsrfHandler.ts': `
import { response, type CourseRequest } from 'course-router';
export class CsrfHandler {
  handleError(_request: CourseRequest, error: Error) {
    if (error.name === 'TokenMismatchException') return response().httpCode(419).json({ csrf: 'mismatch' });
    throw error;
  }
}`,
};

let dir: string;
let served: Served;
let cookie: string;
let token: string;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  served = await serve(await importTable(dir), { secret: 'test-secret' });
  const response = await served.app.fetch(new Request('http://localhost/token'));
  cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  token = (await response.text()).split(' ')[0]!;
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

const form = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...extra },
  body: new URLSearchParams(fields).toString(),
});

describe('CSRF verifier', () => {
  it('csrfToken() sets one signed HttpOnly cookie and returns the same token within a request', async () => {
    const response = await served.app.fetch(new Request('http://localhost/token'));
    const [first, second] = (await response.text()).split(' ');
    expect(first).toMatch(/^[\w-]{86}$/);
    expect(second).toBe(first);
    expect(response.headers.get('set-cookie')).toMatch(
      /^CSRF-TOKEN=[0-9a-f]{64}\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it('a POST with the token in the csrf_token field or the X-CSRF-TOKEN header passes', async () => {
    expect((await send(served, 'POST', '/items', form({ csrf_token: token }))).body).toBe(
      'created',
    );
    expect(
      (await send(served, 'POST', '/items', { headers: { cookie, 'x-csrf-token': token } })).body,
    ).toBe('created');
  });

  it('a missing or wrong token, or no cookie, is refused; exception handlers see it', async () => {
    expect(await send(served, 'POST', '/items', form({}))).toMatchObject({
      status: 419,
      body: '{"csrf":"mismatch"}',
    });
    expect(
      (await send(served, 'POST', '/items', form({ csrf_token: 'x'.repeat(64) }))).status,
    ).toBe(419);
    expect(
      (await send(served, 'POST', '/items', { headers: { 'x-csrf-token': token } })).status,
    ).toBe(419);
  });

  it('a forged cookie (token without a valid signature) is refused', async () => {
    const forged = `CSRF-TOKEN=${'a'.repeat(64)}.forged`;
    const answer = await send(served, 'POST', '/items', {
      headers: { cookie: forged, 'x-csrf-token': 'a'.repeat(64) },
    });
    expect(answer.status).toBe(419);
  });

  it('GET is not checked; PUT, PATCH and DELETE are', async () => {
    // The page holds a token masked anew for each response: one adapter is asked.
    expect((await httpRequest(served.base, 'GET', '/form', { cookie })).status).toBe(200);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect((await send(served, method, '/items/1')).status, method).toBe(419);
    }
    expect(
      (await send(served, 'DELETE', '/items/1', { headers: { cookie, 'x-csrf-token': token } }))
        .body,
    ).toBe('deleted 1');
  });

  it('except lists (exact, trailing slash ignored, or prefix*) and include lists', async () => {
    expect((await send(served, 'POST', '/webhook')).body).toBe('hook');
    expect((await send(served, 'POST', '/webhook/')).body).toBe('hook');
    expect((await send(served, 'POST', '/api/open')).body).toBe('open api');
    expect((await send(served, 'POST', '/api/secure')).status).toBe(419);
  });
});

describe('method spoofing', () => {
  it('spoofing() writes an escaped hidden _method field', async () => {
    expect((await httpRequest(served.base, 'GET', '/form', { cookie })).body).toContain(
      '<input type="hidden" name="_method" value="PUT" readonly>',
    );
  });

  it('_method in a POSTed form becomes the verb, and CSRF is checked on it', async () => {
    expect(
      (await send(served, 'POST', '/items/5', form({ _method: 'PUT', csrf_token: token }))).body,
    ).toBe('put 5 via POST');
    expect(
      (await send(served, 'POST', '/items/5', form({ _method: 'patch', csrf_token: token }))).body,
    ).toBe('patched 5');
    expect((await send(served, 'POST', '/items/5', form({ _method: 'PUT' }))).status).toBe(419);
  });

  it('_method is ignored in the query, on other verbs, and for other verbs than PUT, PATCH, DELETE', async () => {
    expect(
      (await send(served, 'POST', '/items/5?_method=PUT', form({ csrf_token: token }))).status,
    ).toBe(405);
    expect(
      (await send(served, 'POST', '/items/5', form({ _method: 'GET', csrf_token: token }))).status,
    ).toBe(405);
  });
});

describe('Course.error(true, url)', () => {
  it('redirects an unmatched request (302), but a wrong verb stays a 405', async () => {
    expect(await send(served, 'GET', '/nowhere')).toMatchObject({
      status: 302,
      headers: { location: '/missing' },
    });
    expect((await send(served, 'GET', '/items')).status).toBe(405);
  });
});
