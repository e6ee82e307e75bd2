import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { send, servedApp, type SendInit } from '../_utils.js';

const ROUTES = `
import { Course, response, request, url, HttpException, NotFoundHttpException } from 'course-router';
import { Shop } from './app/Components/Controller/Shop.js';
import { Stamp } from './app/Middleware/Stamp.js';

const LIMIT = 3;

Course.get('/', () => 'home').name('home');
Course.post('/verbs', () => 'post');
Course.put('/verbs', () => 'put');
Course.patch('/verbs', () => 'patch');
Course.delete('/verbs', () => 'delete');
Course.options('/verbs', () => 'options');
Course.match(['get', 'post'], '/matched', () => request().method);
Course.any('/anything', () => 'any ' + request().method);
Course.form('/form', () => 'form ' + request().method);

Course.get('/user/{id}', (id) => 'user ' + id).where('id', '[0-9]+').name('user.show');
Course.get('/user/list', () => 'shadowed by nothing: literal after param');
Course.get('/opt/{a?}/{b?}', (a = 'A', b = 'B') => a + '|' + b).name('opt');
Course.get('/file/{name}.{ext}', (name, ext) => name + ' dot ' + ext);
Course.get('/range/{from}-{to}', (from, to) => from + ' to ' + to);
Course.get('/path/{rest}', (rest) => 'rest=' + rest).where({ rest: '.*' });
Course.get('/slug/{slug}', (slug) => slug, { defaultParameterRegex: '[a-z-]+' });
Course.get('/Case', () => 'Case');
Course.get('/limit', () => 'limit ' + LIMIT);
Course.get('/two-helpers', () => request().method + ' ' + url('home'));

// A space is a value url() encodes (as %20), which the route takes.
Course.get('/shop/{id}', 'Shop@show').name('shop.show').where('id', '[\\\\w ]+');
Course.get('/shop-tuple/{id}', [Shop, 'show']);
Course.get('/absolute', '\\\\App\\\\Components\\\\Controller\\\\Shop@index');
Course.get('/ns', 'Extra@hello').setNamespace('Sub');

Course.group({ prefix: '/admin', middleware: ['Middleware\\\\Stamp:group', 'Middleware\\\\Stamp:second'], as: 'admin', defaultParameterRegex: '[a-z]+' }, () => {
  Course.get('/{word}', (word) => 'admin ' + word + ' ' + request().getHeader('x-stamp')).name('word')
    .addMiddleware('Middleware\\\\Stamp:route');
  Course.group({ prefix: 'inner/', namespace: 'Sub', as: 'inner' }, () => {
    Course.get('/hi', 'Extra@hello').name('hi');
  });
});
Course.group({ prefix: '/gate', middleware: [Stamp] }, () => {
  Course.get('/open', () => 'open');
  Course.get('/stop', () => 'not reached').addMiddleware('Middleware\\\\Stop');
});
Course.get('/pre', () => 'prefixed').setPrefix('/p');

Course.get('/ret/number', () => 42);
Course.get('/ret/bool', () => true);
Course.get('/ret/object', () => ({ a: 1, list: [1, 2] }));
Course.get('/ret/array', () => [1, 'two']);
Course.get('/ret/response', () => new Response('raw', { status: 201, headers: { 'x-test': 'yes' } }));
Course.get('/ret/json', () => { response().json({ written: true }, 202); });
Course.get('/ret/empty', () => undefined);
Course.get('/ret/redirect', () => response().redirect('/target'));
Course.get('/ret/async', async () => { await new Promise((r) => setTimeout(r, 5)); return 'later'; });

Course.get('/err/boom', () => { throw new Error('secret detail'); });
Course.get('/err/missing', () => { throw new NotFoundHttpException(); });
Course.get('/err/teapot', () => { throw new HttpException(418, 'short and stout'); });
Course.get('/err/unprocessable', () => { throw new HttpException(422); });

Course.get('/links', () => url('user.show', { id: 7 }) + ' ' + url('opt', ['x']) + ' ' + url('opt') + ' ' + url('Shop@show', { id: 'a b' }, { q: '1' }) + ' ' + url('admin.inner.hi'));
Course.get('/current', () => url());
Course.get('/bad-links/{which}', (which) => which === 'skip' ? url('opt', { b: 'y' }) : which === 'unknown' ? url('nope' as never) : url('user.show', {} as never));
Course.get('/odd/{a}/{b}', (a, b) => a + b).name("it's \\"odd\\"");
Course.get('/a-very-long-url/that-goes-on/and-on/beyond/the/print-width/of/one-hundred/characters/{id}', (id) => id).name('long.one.with.a.name.that.is.long.too');
Course.get('/loaded/{id}', (id) => request().getLoadedRoute()?.getUrl() + ' ' + request().getLoadedRoute()?.getParameters().join(','));
`;

const FILES = {
  'routes.ts': ROUTES,
  'routers/b.ts': `import { Course } from 'course-router';\nCourse.match(['get', 'post'], '/order/{y?}', (y = '-') => 'b ' + y);\n`,
  'routers/a/nested.ts': `import { Course } from 'course-router';\nCourse.get('/order/{x}', (x) => 'a ' + x);\n`,
  'app/Components/Controller/Shop.ts': `
export class Shop {
  show(id: string) { return 'shop ' + id; }
  index() { return 'shop index'; }
}`,
  'app/Components/Controller/Sub/Extra.ts': `
export default class Extra {
  hello() { return 'extra hello'; }
}`,
  'app/Middleware/Stamp.ts': `
import type { CourseRequest } from 'course-router';
export class Stamp {
  handle(request: CourseRequest, label = 'class') {
    const raw = request.raw as { headers: Headers | Record<string, string> };
    const list = (request as unknown as { stamps?: string[] }).stamps ??= [];
    list.push(label);
    if (raw.headers instanceof Headers) raw.headers.set('x-stamp', list.join('>'));
    else raw.headers['x-stamp'] = list.join('>');
  }
}`,
  'app/Middleware/Stop.ts': `
export class Stop {
  handle() { return new Response('stopped', { status: 401 }); }
}`,
};

const app = servedApp(FILES);

const get = (target: string, init?: SendInit) => send(app.served, 'GET', target, init);

describe('verbs', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'Course.%s answers its own verb',
    async (verb) => {
      expect((await send(app.served, verb, '/verbs')).body).toBe(verb.toLowerCase());
    },
  );

  it('match(), any() and form() accept their verbs', async () => {
    expect((await send(app.served, 'POST', '/matched')).body).toBe('POST');
    expect((await send(app.served, 'PUT', '/matched')).status).toBe(405);
    expect((await send(app.served, 'DELETE', '/anything')).body).toBe('any DELETE');
    expect((await send(app.served, 'POST', '/form')).body).toBe('form POST');
  });

  it('HEAD is answered by GET routes without a body', async () => {
    const head = await send(app.served, 'HEAD', '/user/5');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(String('user 5'.length));
  });

  it('a URL that matches for another verb is a 405 with Allow', async () => {
    const answer = await send(app.served, 'GET', '/verbs');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('DELETE, OPTIONS, PATCH, POST, PUT');
    expect((await send(app.served, 'POST', '/user/5')).headers.allow).toBe('GET, HEAD');
  });

  it('no route at all is a 404', async () => {
    expect(await get('/nothing/here')).toMatchObject({ status: 404, body: 'Not Found' });
  });
});

describe('matching', () => {
  it('the trailing slash is optional and the query ignored', async () => {
    expect((await get('/user/5/')).body).toBe('user 5');
    expect((await get('/user/5?x=1')).body).toBe('user 5');
    expect((await get('/?a=b')).body).toBe('home');
  });

  it('literal segments are case-sensitive', async () => {
    expect((await get('/Case')).body).toBe('Case');
    expect((await get('/case')).status).toBe(404);
  });

  it('a where() constraint rejects values it does not match', async () => {
    expect((await get('/user/abc')).status).toBe(404);
    expect((await get('/user/list')).body).toContain('literal after param');
  });

  it('optional parameters are undefined when absent, so the callback default applies', async () => {
    expect((await get('/opt')).body).toBe('A|B');
    expect((await get('/opt/x')).body).toBe('x|B');
    expect((await get('/opt/x/y')).body).toBe('x|y');
  });

  it('placeholders after "." and "-" separators', async () => {
    expect((await get('/file/readme.txt')).body).toBe('readme dot txt');
    expect((await get('/range/1-9')).body).toBe('1 to 9');
  });

  it('a where() regex may match slashes', async () => {
    expect((await get('/path/a/b/c')).body).toBe('rest=a/b/c');
  });

  it('defaultParameterRegex on a route and on a group', async () => {
    expect((await get('/slug/a-b')).body).toBe('a-b');
    expect((await get('/slug/a1')).status).toBe(404);
    expect((await get('/admin/abc')).status).toBe(200);
    expect((await get('/admin/abc1')).status).toBe(404);
  });

  it('parameters are percent-decoded once, and %2F does not split a segment', async () => {
    expect((await get('/path/a%20b')).body).toBe('rest=a b');
    expect((await get('/path/a%2Fb')).body).toBe('rest=a/b');
    expect((await get('/path/a%252F')).body).toBe('rest=a%2F');
  });

  it('a malformed escape or %00 is a 400', async () => {
    expect((await get('/path/%zz')).status).toBe(400);
    expect((await get('/path/%00')).status).toBe(400);
    expect((await get('/path/%E0%A4%A')).status).toBe(400);
  });

  it('routers/ files are evaluated after routes.ts in path order; the first registered route wins', async () => {
    expect((await get('/order/x')).body).toBe('a x');
    expect((await get('/order/b')).body).toBe('a b');
    expect((await send(app.served, 'POST', '/order/b')).body).toBe('b b');
    expect((await get('/order')).body).toBe('b -');
  });
});

describe('callbacks and namespaces', () => {
  it('regression: a closure keeps every name it uses from one import', async () => {
    expect((await get('/two-helpers')).body).toBe('GET /');
  });

  it("'Class@method' resolves in the default namespace, and parameters arrive by position", async () => {
    expect((await get('/shop/9')).body).toBe('shop 9');
  });

  it('[Class, method] tuples and absolute \\\\Namespace\\\\Class callbacks', async () => {
    expect((await get('/shop-tuple/3')).body).toBe('shop 3');
    expect((await get('/absolute')).body).toBe('shop index');
  });

  it('setNamespace() and a group namespace apply to relative callbacks (default export)', async () => {
    expect((await get('/ns')).body).toBe('extra hello');
    expect((await get('/admin/inner/hi')).body).toBe('extra hello');
  });

  it('setPrefix() prefixes the route URL', async () => {
    expect((await get('/p/pre')).body).toBe('prefixed');
  });
});

describe('middleware', () => {
  it('runs group middleware first, in list order, then the route, with :arg arguments', async () => {
    expect((await get('/admin/abc')).body).toBe('admin abc group>second>route');
  });

  it('a middleware class value works, and a middleware returning a response stops the request', async () => {
    expect((await get('/gate/open')).body).toBe('open');
    expect(await get('/gate/stop')).toMatchObject({ status: 401, body: 'stopped' });
  });
});

describe('return values', () => {
  it('a string is HTML; a number or boolean its text', async () => {
    expect((await get('/')).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/ret/number')).body).toBe('42');
    expect((await get('/ret/bool')).body).toBe('true');
  });

  it('objects and arrays are JSON (application/json); response().json() says utf-8 as the original', async () => {
    const object = await get('/ret/object');
    // RFC 8259 defines no charset for JSON; Deno's server sends this one type on its fast path.
    expect(object.headers['content-type']).toBe('application/json');
    expect((await get('/ret/json')).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    expect(JSON.parse(object.body)).toEqual({ a: 1, list: [1, 2] });
    expect(JSON.parse((await get('/ret/array')).body)).toEqual([1, 'two']);
  });

  it('a Response is used as is', async () => {
    expect(await get('/ret/response')).toMatchObject({
      status: 201,
      body: 'raw',
      headers: { 'x-test': 'yes' },
    });
  });

  it('undefined sends what response() wrote, else an empty 200', async () => {
    expect(await get('/ret/json')).toMatchObject({ status: 202, body: '{"written":true}' });
    expect(await get('/ret/empty')).toMatchObject({ status: 200, body: '' });
  });

  it('response().redirect() is a 302 with Location; async callbacks are awaited', async () => {
    expect(await get('/ret/redirect')).toMatchObject({
      status: 302,
      headers: { location: '/target' },
    });
    expect((await get('/ret/async')).body).toBe('later');
  });
});

describe('errors', () => {
  it('an error becomes a 500 that does not leak its message', async () => {
    const answer = await get('/err/boom');
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('secret');
  });

  it('NotFoundHttpException is a 404, an HttpException its status and message', async () => {
    expect((await get('/err/missing')).status).toBe(404);
    expect(await get('/err/teapot')).toMatchObject({ status: 418, body: 'short and stout' });
    // Without a message, the status's reason phrase.
    expect(await get('/err/unprocessable')).toMatchObject({
      status: 422,
      body: 'Unprocessable Entity',
    });
  });
});

describe('url() and the request', () => {
  it('builds URLs by name, by position, with optional parts, by Class@method and with a query', async () => {
    expect((await get('/links')).body).toBe('/user/7 /opt/x /opt /shop/a%20b?q=1 /admin/inner/hi');
  });

  it('url() throws, naming it, for an unknown name, a missing parameter, or a skipped optional one', async () => {
    const { url } = await import('course-router');
    const { buildUrl } = await import('course-router/internal');
    const table = app.served.app.table;
    expect(() => buildUrl(table, 'nope')).toThrow(/no route named "nope"/);
    expect(() => buildUrl(table, 'user.show', {})).toThrow(/needs the parameter "id"/);
    expect(() => buildUrl(table, 'opt', { b: 'y' })).toThrow(/gives "b" but not the optional "a"/);
    expect(url('user.show', { id: 1 })).toBe('/user/1');
    expect((await get('/bad-links/skip')).status).toBe(500);
  });

  it('url() with no arguments is the current path and query', async () => {
    expect((await get('/current?a=1&b=2')).body).toBe('/current?a=1&b=2');
  });

  it('getLoadedRoute() gives the route pattern and its parameters', async () => {
    expect((await get('/loaded/12')).body).toBe('/loaded/{id} 12');
  });
});

describe('the generated module', () => {
  it('is a prettier fixpoint (printed data and formatted code alike)', async () => {
    const code = readFileSync(path.join(app.dir, 'generated/routes.gen.ts'), 'utf8');
    expect(await format(code, { parser: 'typescript', printWidth: 100, singleQuote: true })).toBe(
      code,
    );
  });

  it('odd names and long URLs still route and build URLs', async () => {
    expect((await get('/odd/x/y')).body).toBe('xy');
    const { buildUrl } = await import('course-router/internal');
    expect(buildUrl(app.served.app.table, 'it\'s "odd"', { a: 1, b: 2 })).toBe('/odd/1/2');
  });
});
