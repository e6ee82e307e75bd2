import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawExchange } from '../_child.js';
import { servedApp } from '../_utils.js';

// CORS as the threat model's "CORS confusion" row attacks it: look-alike origins, `null`, case
// and trailing dots, preflights for verbs and headers the route lacks — over raw sockets, and
// the same answers through Fetch; and how an allowed cross-origin write meets CSRF.
const state = servedApp(
  {
    'routes.ts': `
import { Course, csrfToken, HttpException, response } from 'course-router';
Course.csrfVerifier('Middleware\\\\Verifier');
Course.group({ prefix: '/api', middleware: 'Middleware\\\\ApiCors' }, () => {
  Course.get('/items', () => { response().header('x-total', '2'); return ['a', 'b']; });
  Course.post('/items', () => 'created');
  Course.delete('/items/{id}', (id: string) => 'deleted ' + id);
  Course.get('/token', () => csrfToken());
  Course.match(['get', 'options'], '/own', () => 'own options');
  Course.any('/anything', () => 'ran');
  Course.get('/secret', () => 'secret').addMiddleware('Middleware\\\\Auth');
  Course.get('/crash', () => { throw new Error('boom'); });
  Course.get('/gone', () => { throw new HttpException(410, 'gone'); });
  Course.get('/n/{id}', (id: string) => id).where('id', '[0-9]+');
  Course.group({ prefix: '/public', middleware: 'Middleware\\\\OpenCors' }, () => {
    Course.get('/info', () => 'info');
  });
});
Course.group({ prefix: '/pub', middleware: 'Middleware\\\\OpenCors' }, () => {
  Course.group({ prefix: '/acct', middleware: 'Middleware\\\\ApiCors' }, () => {
    Course.get('/me', () => 'private');
  });
});
Course.group({ prefix: '/admin', middleware: 'Middleware\\\\Auth' }, () => {
  Course.get('/panel', () => 'panel');
});
Course.group({ prefix: '/v2', middleware: ['Middleware\\\\Auth', 'Middleware\\\\NestedCors'] }, () => {
  Course.get('/panel', () => 'panel');
});
Course.get('/api/early', () => 'early').addMiddleware('Middleware\\\\Auth').addMiddleware('Middleware\\\\ApiCors');
Course.get('/api/plain-crash', () => { throw new Error('boom'); });
Course.put('/api/items', () => 'no cors here');
Course.get('/open', () => 'open').addMiddleware('Middleware\\\\OpenCors');
Course.get('/partner', () => 'partner').addMiddleware('Middleware\\\\PartnerCors');
Course.get('/all', () => 'all').addMiddleware('Middleware\\\\AllCors');
Course.get('/bad', () => 'bad').addMiddleware('Middleware\\\\BadCors');
Course.get('/slash', () => 'slash').addMiddleware('Middleware\\\\SlashCors');
Course.get('/plain', () => 'plain');
`,
    'app/Middleware/Verifier.ts': `
import { BaseCsrfVerifier } from 'course-router';
export class Verifier extends BaseCsrfVerifier {}`,
    'app/Middleware/ApiCors.ts': `
import { Cors } from 'course-router';
export class ApiCors extends Cors {
  protected override origins = ['https://app.example', 'https://trusted.example'];
  protected override credentials = true;
  protected override exposedHeaders = ['x-total'];
  protected override maxAge = 600;
}`,
    'app/Middleware/NestedCors.ts': `
import { ApiCors } from './ApiCors.js';
export class NestedCors extends ApiCors {}`,
    'app/Middleware/Auth.ts': `
import { HttpException } from 'course-router';
export class Auth {
  handle(): void {
    throw new HttpException(401, 'Sign in first');
  }
}`,
    'app/Middleware/OpenCors.ts': `
import { Cors } from 'course-router';
export class OpenCors extends Cors {
  protected override origins = '*' as const;
}`,
    'app/Middleware/PartnerCors.ts': `
import { Cors, type CourseRequest } from 'course-router';
export class PartnerCors extends Cors {
  protected override origins = (origin: string, _request: CourseRequest) => /^https:\\/\\/[a-z]+\\.partner\\.example$/.test(origin);
}`,
    'app/Middleware/AllCors.ts': `
import { Cors } from 'course-router';
export class AllCors extends Cors {
  protected override origins = () => true;
  protected override credentials = true;
}`,
    'app/Middleware/BadCors.ts': `
import { Cors } from 'course-router';
export class BadCors extends Cors {
  protected override origins = '*' as const;
  protected override credentials = true;
}`,
    'app/Middleware/SlashCors.ts': `
import { Cors } from 'course-router';
export class SlashCors extends Cors {
  protected override origins = ['https://app.example/'];
}`,
  },
  { secret: 'cors-secret' },
);

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request over a raw socket; and the same through `app.request`, which must agree. */
async function both(method: string, target: string, headers: Record<string, string> = {}) {
  const port = Number(new URL(state.served.base).port);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  const answer = await rawExchange(port, [
    `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`,
  ]);
  const [head = '', ...rest] = answer.text.split('\r\n\r\n');
  const picked: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const [name = '', ...value] = line.split(': ');
    if (/^(access-control-|vary$|allow$)/i.test(name))
      picked[name.toLowerCase()] = value.join(': ');
  }
  const raw: Raw = { status: answer.status, headers: picked, body: rest.join('\r\n\r\n') };
  const fetched = await state.served.app.request(target, { method, headers });
  const viaFetch: Record<string, string> = {};
  fetched.headers.forEach((value, name) => {
    if (/^(access-control-|vary$|allow$)/.test(name)) viaFetch[name] = value;
  });
  expect(viaFetch, `${method} ${target}: fetch and node:http differ`).toEqual(raw.headers);
  expect(fetched.status).toBe(raw.status);
  return raw;
}

/** Each of `origins` gets the GET of `target` with no CORS header but `Vary: Origin`. */
async function refusedOrigins(target: string, origins: readonly string[]): Promise<void> {
  for (const origin of origins) {
    const answer = await both('GET', target, { origin });
    expect(answer.status, origin).toBe(200);
    expect(answer.headers, origin).toEqual({ vary: 'Origin' });
  }
}

const preflight = (origin: string, method: string, extra: Record<string, string> = {}) =>
  both('OPTIONS', '/api/items', {
    origin,
    'access-control-request-method': method,
    ...extra,
  });

// What `ApiCors` adds to an answer to `https://app.example`.
const ALLOWED = {
  'access-control-allow-origin': 'https://app.example',
  'access-control-allow-credentials': 'true',
  'access-control-expose-headers': 'x-total',
  vary: 'Origin',
};

describe('actual requests', () => {
  it('an allowed origin gets itself back, credentials, exposed headers, Vary: Origin', async () => {
    const answer = await both('GET', '/api/items', { origin: 'https://app.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-total',
      vary: 'Origin',
    });
  });

  it('look-alike, null, mixed-case, trailing-dot and port origins get no CORS header', async () => {
    await refusedOrigins('/api/items', [
      'https://trusted.example.evil.com',
      'https://eviltrusted.example',
      'https://app.example.',
      'https://APP.example',
      'http://app.example',
      'https://app.example:8443',
      'https://app.example/',
      'null',
      '',
      'https://app.example, https://evil.com',
    ]);
  });

  it("a function decides; '*' never goes with credentials", async () => {
    const partner = await both('GET', '/partner', { origin: 'https://shop.partner.example' });
    expect(partner.headers['access-control-allow-origin']).toBe('https://shop.partner.example');
    const fake = await both('GET', '/partner', { origin: 'https://shop.partner.example.evil' });
    expect(fake.headers['access-control-allow-origin']).toBeUndefined();
    const nul = await both('GET', '/partner', { origin: 'null' });
    expect(nul.headers['access-control-allow-origin']).toBeUndefined();
    const open = await both('GET', '/open', { origin: 'https://any.example' });
    expect(open.headers['access-control-allow-origin']).toBe('*');
    expect(open.headers['access-control-allow-credentials']).toBeUndefined();
    // `*` with credentials is a configuration error: a 500, and no CORS header.
    const bad = await both('GET', '/bad', { origin: 'https://any.example' });
    expect(bad.status).toBe(500);
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a function is given only an origin as a browser sends one: never *, two origins, a path', async () => {
    const any = await both('GET', '/all', { origin: 'https://any.example:8443' });
    expect(any.headers['access-control-allow-origin']).toBe('https://any.example:8443');
    await refusedOrigins('/all', [
      '*',
      'foo',
      'https://a.example, https://b.example',
      'https://evil.example/.trusted.example',
      'https://evil.example?.trusted.example',
      'https://u@evil.example',
      'javascript://a.trusted.example',
      'HTTPS://ANY.EXAMPLE',
    ]);
  });

  it('an origin written as no browser sends it is a configuration error naming the fix', async () => {
    const slash = await both('GET', '/slash', { origin: 'https://app.example' });
    expect(slash.status).toBe(500);
    const { Cors } = await import('course-router');
    class SlashCors extends Cors {
      protected override origins = ['https://app.example/'];
    }
    class PathCors extends Cors {
      protected override origins = ['app.example'];
    }
    const request = {} as never;
    expect(() => new SlashCors().allowedOrigin('https://app.example', request)).toThrow(
      `course: SlashCors's origin "https://app.example/" is not one a browser sends: write "https://app.example" (scheme://host[:port], lower-case, no path or trailing slash)`,
    );
    expect(() => new PathCors().allowedOrigin('https://app.example', request)).toThrow(
      `course: PathCors's origin "app.example" is not one a browser sends (scheme://host`,
    );
  });

  it('a route without the middleware sends no CORS header', async () => {
    expect((await both('GET', '/plain', { origin: 'https://app.example' })).headers).toEqual({});
  });
});

describe('error answers', () => {
  const allowed = ALLOWED;

  it('a 401 from middleware, a 500, a thrown status and a 405 carry the CORS headers', async () => {
    for (const [method, target, status] of [
      ['GET', '/api/secret', 401],
      // The middleware that refuses runs before `Cors` does: the error gets them still.
      ['GET', '/api/early', 401],
      ['GET', '/api/crash', 500],
      ['GET', '/api/gone', 410],
      ['PATCH', '/api/items', 405],
    ] as const) {
      const answer = await both(method, target, { origin: 'https://app.example' });
      expect(answer.status, target).toBe(status);
      expect(answer.headers, `${method} ${target}`).toEqual(
        status === 405 ? { ...allowed, allow: 'GET, HEAD, POST, PUT' } : allowed,
      );
    }
    const gone = await state.served.app.request('/api/gone', {
      headers: { origin: 'https://app.example' },
    });
    expect(await gone.text()).toBe('gone');
  });

  it('another origin, a route without Cors, a 404 and a refused preflight get none', async () => {
    const evil = await both('GET', '/api/secret', { origin: 'https://app.example.evil.com' });
    expect([evil.status, evil.headers]).toEqual([401, { vary: 'Origin' }]);
    const plain = await both('GET', '/api/plain-crash', { origin: 'https://app.example' });
    expect([plain.status, plain.headers]).toEqual([500, {}]);
    // No group with Cors around the path.
    const missing = await both('GET', '/nothing', { origin: 'https://app.example' });
    expect([missing.status, missing.headers]).toEqual([404, {}]);
    const refused = await preflight('https://app.example', 'PATCH');
    expect([refused.status, refused.headers]).toEqual([
      405,
      { allow: 'GET, HEAD, POST, PUT', vary: 'Origin' },
    ]);
  });
});

describe('a path no route takes, under a group with Cors', () => {
  const headers = ALLOWED;

  it("its 404 has the group's CORS headers, so that the page can read it", async () => {
    // No route (`/api/nothing`), or none whose where() takes the value (`/api/n/abc`).
    for (const target of ['/api/nothing', '/api/n/abc', '/api/items/7/more']) {
      const answer = await both('GET', target, { origin: 'https://app.example' });
      expect([answer.status, answer.headers], target).toEqual([404, headers]);
    }
    const evil = await both('GET', '/api/nothing', { origin: 'https://app.example.evil.com' });
    expect([evil.status, evil.headers]).toEqual([404, { vary: 'Origin' }]);
    // `/apiary` is not under `/api`.
    const beside = await both('GET', '/apiary', { origin: 'https://app.example' });
    expect([beside.status, beside.headers]).toEqual([404, {}]);
    // A Cors extended twice, after another middleware of the group.
    const nested = await both('GET', '/v2/nothing', { origin: 'https://app.example' });
    expect([nested.status, nested.headers]).toEqual([404, headers]);
  });

  it("its preflight is the group's: the asked method allowed, the origin and headers checked", async () => {
    const answer = await both('OPTIONS', '/api/nothing', {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    });
    expect([answer.status, answer.body]).toEqual([204, '']);
    expect(answer.headers).toEqual({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'authorization',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    for (const [origin, asked] of [
      ['https://app.example.evil.com', 'authorization'],
      ['https://app.example', 'x-admin'],
    ]) {
      const refused = await both('OPTIONS', '/api/nothing', {
        origin: origin!,
        'access-control-request-method': 'GET',
        'access-control-request-headers': asked!,
      });
      expect([refused.status, refused.headers], `${origin} ${asked}`).toEqual([
        204,
        { vary: 'Origin' },
      ]);
    }
    const outside = await both('OPTIONS', '/nothing', {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
    });
    expect([outside.status, outside.headers]).toEqual([404, {}]);
  });

  it('the generated module lists the groups whose middleware is Cors, and no other', () => {
    const generated = readFileSync(path.join(state.dir, 'generated/routes.gen.ts'), 'utf8');
    const groups = /const \$corsGroups: HandlerGroup<unknown>\[\] = ([\s\S]*?\]);\n/
      .exec(generated)?.[1]
      ?.replace(/\s+/g, '');
    // The innermost and longest first; `Auth` of `/admin` and `/v2` left out.
    const prefixes = [...(groups ?? '').matchAll(/\[\/\^((?:\\\/\w+)+)\(/g)].map((m) =>
      m[1]!.replaceAll('\\', ''),
    );
    expect(prefixes).toEqual(['/api/public', '/pub/acct', '/api', '/pub', '/v2']);
    expect(groups).not.toMatch(/Auth/);
  });
});

describe('groups with Cors inside groups with Cors', () => {
  it("the innermost decides: an inner '*' sends no outer credentials, an inner list refuses what an outer '*' allows", async () => {
    const open = await both('GET', '/api/public/info', { origin: 'https://app.example' });
    expect([open.status, open.headers]).toEqual([
      200,
      { 'access-control-allow-origin': '*', vary: 'Origin' },
    ]);
    const evil = await both('GET', '/pub/acct/me', { origin: 'https://evil.example' });
    expect([evil.status, evil.headers]).toEqual([200, { vary: 'Origin' }]);
    const app = await both('GET', '/pub/acct/me', { origin: 'https://app.example' });
    expect(app.headers).toEqual(ALLOWED);
    const preflight = await both('OPTIONS', '/pub/acct/me', {
      origin: 'https://evil.example',
      'access-control-request-method': 'GET',
    });
    expect([preflight.status, preflight.headers]).toEqual([204, { vary: 'Origin' }]);
  });

  it('a preflight asking for a method that is no token is refused', async () => {
    for (const target of ['/api/nothing', '/api/anything']) {
      const answer = await both('OPTIONS', target, {
        origin: 'https://app.example',
        'access-control-request-method': 'X"<>',
      });
      expect([answer.status, answer.headers], target).toEqual([204, { vary: 'Origin' }]);
    }
  });
});

describe('preflight', () => {
  it('is a 204 with the methods of the path whose routes carry the middleware', async () => {
    const answer = await preflight('https://app.example', 'POST', {
      'access-control-request-headers': 'Content-Type, X-CSRF-Token',
    });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    // PUT /api/items has no Cors middleware: not listed.
    expect(answer.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'content-type, x-csrf-token',
      'access-control-max-age': '600',
      // The headers are the asked ones: the answer depends on them too.
      vary: 'Origin, Access-Control-Request-Headers',
    });
    const param = await both('OPTIONS', '/api/items/7', {
      origin: 'https://trusted.example',
      'access-control-request-method': 'DELETE',
    });
    expect(param.status).toBe(204);
    expect(param.headers['access-control-allow-methods']).toBe('DELETE');
  });

  it('a verb or header the route lacks, or a refused origin, gets no CORS header', async () => {
    // A route with Cors takes the verb: refused, a 204 without CORS headers (the browser then
    // says the origin was not allowed); no route with Cors takes it: the 405 it was.
    for (const [origin, method, headers, status] of [
      ['https://app.example', 'PUT', undefined, 405], // PUT /api/items has no Cors
      ['https://app.example', 'PATCH', undefined, 405], // no PATCH route
      ['https://app.example', 'post', undefined, 405], // methods are case-sensitive
      ['https://app.example', 'POST', 'x-admin', 204], // a header not allowed
      ['https://app.example', 'POST', 'a,'.repeat(2000), 204], // too long a list
      ['https://trusted.example.evil.com', 'POST', undefined, 204],
      ['null', 'POST', undefined, 204],
    ] as const) {
      const extra: Record<string, string> =
        headers === undefined ? {} : { 'access-control-request-headers': headers };
      const answer = await preflight(origin, method, extra);
      expect(answer.status, `${origin} ${method} ${headers}`).toBe(status);
      // A 405 at a path whose routes have Cors says what it depends on too.
      expect(answer.headers['vary'], `${origin} ${method} ${headers}`).toBe('Origin');
      if (status === 204) expect(answer.body).toBe('');
      expect(
        Object.keys(answer.headers).filter((h) => h.startsWith('access-control-')),
        `${origin} ${method} ${headers}`,
      ).toEqual([]);
    }
  });

  it('an OPTIONS that is no preflight is the 405 it was; an OPTIONS route with the middleware answers it', async () => {
    expect((await both('OPTIONS', '/api/items')).status).toBe(405);
    expect((await both('OPTIONS', '/api/own')).body).toBe('own options');
    const own = await both('OPTIONS', '/api/own', {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
    });
    expect(own.status).toBe(204);
    expect(own.headers['access-control-allow-methods']).toMatch(/GET/);
    // A refused preflight is the middleware's 204 too: the route never runs for it.
    for (const [target, origin, extra] of [
      ['/api/own', 'https://evil.example', {}],
      ['/api/own', 'https://app.example', { 'access-control-request-headers': 'x-evil' }],
      ['/api/anything', 'https://evil.example', {}],
    ] as const) {
      const refused = await both('OPTIONS', target, {
        origin,
        'access-control-request-method': 'GET',
        ...extra,
      });
      expect([refused.status, refused.body, refused.headers], `${target} ${origin}`).toEqual([
        204,
        '',
        { vary: 'Origin' },
      ]);
    }
    // An `any()` route takes every verb: the one asked for is named, not `*`.
    const any = await both('OPTIONS', '/api/anything', {
      origin: 'https://app.example',
      'access-control-request-method': 'PATCH',
    });
    expect(any.status).toBe(204);
    expect(any.headers['access-control-allow-methods']).not.toMatch(/\*/);
    expect(any.headers['access-control-allow-methods']).toMatch(/PATCH/);
  });
});

describe('CSRF and an allowed cross-origin write', () => {
  it('passes the origin check, still needs the token; another origin is refused first', async () => {
    const tokenAnswer = await state.served.app.request('/api/token', {
      headers: { origin: 'https://app.example' },
    });
    const token = await tokenAnswer.text();
    const cookie = tokenAnswer.headers.getSetCookie()[0]!.split(';')[0]!;
    const site = { 'sec-fetch-site': 'cross-site', cookie };
    const allowed = await both('POST', '/api/items', {
      ...site,
      origin: 'https://app.example',
      'x-csrf-token': token,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toBe('created');
    const noToken = await both('POST', '/api/items', { ...site, origin: 'https://app.example' });
    expect(noToken.status).toBe(403);
    expect(noToken.body).toBe('Invalid CSRF token');
    const evil = await both('POST', '/api/items', {
      ...site,
      origin: 'https://trusted.example.evil.com',
      'x-csrf-token': token,
    });
    expect(evil.status).toBe(403);
    expect(evil.body).toBe('Cross-origin request refused');
    // Sec-Fetch-Site says cross-site and there is no Origin to allow: refused.
    const noOrigin = await both('POST', '/api/items', { ...site, 'x-csrf-token': token });
    expect(noOrigin.body).toBe('Cross-origin request refused');
  });

  it("a form from an origin no route's Cors allows is refused before its body is read for _method", async () => {
    const port = Number(new URL(state.served.base).port);
    const form = (origin: string) =>
      rawExchange(port, [
        `POST /api/items HTTP/1.1\r\nHost: localhost\r\nOrigin: ${origin}\r\n` +
          'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n' +
          'Expect: 100-continue\r\nConnection: close\r\n\r\n',
      ]);
    const evil = await form('https://evil.example');
    expect(evil.text).not.toContain('100 Continue');
    expect([evil.status, evil.text.endsWith('Cross-origin request refused')]).toEqual([403, true]);
    // An allowed origin waits for the route, whose Cors lets it through: its body is asked for.
    const allowed = await form('https://app.example');
    expect(allowed.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  });
});
