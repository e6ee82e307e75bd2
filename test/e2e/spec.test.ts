import { describe, expect, it } from 'vitest';
import { buildUrl } from 'course-router/internal';
import { send, servedApp, type SendInit } from '../_utils.js';

const ROUTES = `
import { Course, HttpException, request, response } from 'course-router';
import { Photos } from './app/Components/Controller/Photos.js';

Course.addBootManager('Boot\\\\Redirects');

Course.group({ exceptionHandler: 'Handlers\\\\PageHandler' }, () => {
  Course.resource('photos', Photos);
  Course.group({ prefix: '/api', as: 'api' }, () => {
    Course.resource('phones', 'Phones').where('id', '[0-9]+');
  });
  Course.controller('/animals', 'Animals').name('animals');

  Course.all('/ajax/abc/123', (...args: unknown[]) => JSON.stringify(args)).setMatch('/\\\\/ajax\\\\/([\\\\w]+)\\\\/?([0-9]+)?\\\\/?/is');
  Course.get('/tester/{param}', (param?: string, all?: string) => String(param) + '|' + all).setMatch(/^\\/tester\\/(.*)$/i);

  Course.group({ domain: '{sub}.example.com' }, () => {
    Course.get('/whoami/{id}', (sub, id) => sub + ':' + id).name('whoami');
  });
  Course.group({ domain: 'admin.example.com' }, () => {
    Course.get('/panel', () => 'admin panel').name('panel');
  });
  Course.get('/panel', () => 'public panel');

  Course.partialGroup('/lang/{lang}', (lang) => {
    Course.get('/page/{id}', (lang: string, id: string) => lang + ' page ' + id).name('lang.page');
    void lang;
  });

  Course.get('/contact', () => 'contact page').name('contact');
  Course.get('/loaded-in-middleware/{id}', () => request().getHeader('x-loaded') ?? 'none')
    .addMiddleware('Middleware\\\\SeeRoute');
  Course.get('/rewrite-in-callback', () => { request().setRewriteUrl('/contact'); });
  Course.get('/boom', () => { throw new Error('hidden'); });
});

Course.group({ prefix: '/api', exceptionHandler: 'Handlers\\\\ApiHandler' }, () => {
  Course.get('/fail', () => { throw new HttpException(418, 'I am a teapot'); });
  Course.get('/strict/fail', () => { throw new Error('rethrown'); });
});

Course.get('/status-header', () => { response().httpCode(201).header('x-test', 'set'); return 'made'; });
`;

const FILES = {
  'routes.ts': ROUTES,
  'app/Components/Controller/Photos.ts': `
export class Photos {
  index() { return 'index'; }
  create() { return 'create'; }
  store() { return 'store'; }
  show(id: string) { return 'show ' + id; }
  edit(id: string) { return 'edit ' + id; }
  update(id: string) { return 'update ' + id; }
  destroy(id: string) { return 'destroy ' + id; }
}`,
  'app/Components/Controller/Phones.ts': `
export class Phones {
  index() { return 'phones'; }
  create() { return 'new phone'; }
  store() { return 'stored'; }
  show(id: string) { return 'phone ' + id; }
  edit(id: string) { return 'edit phone ' + id; }
  update(id: string) { return 'updated ' + id; }
  destroy(id: string) { return 'deleted ' + id; }
}`,
  'app/Components/Controller/Animals.ts': `
export class Animals {
  getIndex() { return 'all animals'; }
  getView(id?: string, size = 'm') { return 'view ' + (id ?? 'none') + ' ' + size; }
  postSave() { return 'saved'; }
  deleteItem(id: string) { return 'deleted item ' + id; }
  helper() { return 'not routed'; }
}`,
  'app/Handlers/PageHandler.ts': `
import { response, type CourseRequest } from 'course-router';
export class PageHandler {
  handleError(request: CourseRequest, error: Error & { status?: number }) {
    if (error.status === 404 && request.getUri().getPath() === '/gallery') {
      request.setRewriteCallback('Photos@index');
      return;
    }
    if (error.status === 404) {
      request.setRewriteCallback(() => { response().httpCode(404); return 'Custom 404 page'; });
      return;
    }
    throw error;
  }
}`,
  'app/Handlers/ApiHandler.ts': `
import { response, type CourseRequest } from 'course-router';
export class ApiHandler {
  handleError(request: CourseRequest, error: Error & { status?: number }) {
    if (request.getUri().getPath().includes('/strict')) throw error;
    if (request.getUri().getPath().includes('/api')) {
      const code = error.status ?? 500;
      response().httpCode(code).json({ error: error.message, code });
    }
  }
}`,
  'app/Boot/Redirects.ts': `
import type { BootRouter, CourseRequest } from 'course-router';
export class Redirects {
  boot(router: BootRouter, request: CourseRequest) {
    if (request.getUri().getPath() === '/old-contact') request.setRewriteUrl(router.url('contact'));
  }
}`,
  'app/Middleware/SeeRoute.ts': `
import type { CourseRequest } from 'course-router';
export class SeeRoute {
  handle(request: CourseRequest) {
    const loaded = request.getLoadedRoute();
    const raw = request.raw as { headers: Headers | Record<string, string> };
    const text = loaded ? loaded.getUrl() + ' ' + loaded.getParameters().join(',') : 'none';
    if (raw.headers instanceof Headers) raw.headers.set('x-loaded', text);
    else raw.headers['x-loaded'] = text;
  }
}`,
};

const app = servedApp(FILES);

const req = (method: string, target: string, init?: SendInit) =>
  send(app.served, method, target, init);
const body = async (method: string, target: string, init?: SendInit) =>
  (await req(method, target, init)).body;

describe('Course.resource', () => {
  it.each([
    ['GET', '/photos', 'index'],
    ['GET', '/photos/create', 'create'],
    ['POST', '/photos', 'store'],
    ['GET', '/photos/38', 'show 38'],
    ['GET', '/photos/38/edit', 'edit 38'],
    ['PUT', '/photos/38', 'update 38'],
    ['PATCH', '/photos/38', 'update 38'],
    ['DELETE', '/photos/38', 'destroy 38'],
  ])('%s %s calls %s', async (method, target, expected) => {
    expect(await body(method, target)).toBe(expected);
  });

  it('names the seven routes <name>.<action>, prefixed by the group as', () => {
    const table = app.served.app.table;
    expect(buildUrl(table, 'photos.index')).toBe('/photos');
    expect(buildUrl(table, 'photos.create')).toBe('/photos/create');
    expect(buildUrl(table, 'photos.edit', { id: 5 })).toBe('/photos/5/edit');
    expect(buildUrl(table, 'photos.destroy', { id: 5 })).toBe('/photos/5');
    expect(buildUrl(table, 'api.phones.create')).toBe('/api/phones/create');
  });

  it('a string controller resolves through the namespace, and where() applies to its routes', async () => {
    expect(await body('GET', '/api/phones/7')).toBe('phone 7');
    expect((await req('GET', '/api/phones/x')).status).toBe(404);
  });

  it('a verb the resource does not route is a 405 with Allow', async () => {
    const answer = await req('DELETE', '/photos');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD, POST');
  });
});

describe('Course.controller (implicit controller)', () => {
  it('GET /animals calls getIndex, GET /animals/view/5 getView(5), POST /animals/save postSave', async () => {
    expect(await body('GET', '/animals')).toBe('all animals');
    expect(await body('GET', '/animals/view')).toBe('view none m');
    expect(await body('GET', '/animals/view/5')).toBe('view 5 m');
    expect(await body('GET', '/animals/view/5/l')).toBe('view 5 l');
    expect(await body('POST', '/animals/save')).toBe('saved');
    expect(await body('DELETE', '/animals/item/3')).toBe('deleted item 3');
  });

  it('methods without a verb prefix are not routed', async () => {
    expect((await req('GET', '/animals/helper')).status).toBe(404);
  });

  it("url('Animals@getView', …) and the controller's name work", () => {
    expect(buildUrl(app.served.app.table, 'Animals@getView', { id: 666 })).toBe(
      '/animals/view/666',
    );
    expect(buildUrl(app.served.app.table, 'animals.save')).toBe('/animals/save');
  });
});

describe('setMatch (whole-route regex)', () => {
  it('spec rule 6: /ajax/abc/ and /ajax/abc/123/ match, /ajax/ does not', async () => {
    expect(await body('GET', '/ajax/abc/')).toBe('["abc",null]');
    expect(await body('POST', '/ajax/abc/123/')).toBe('["abc","123"]');
    expect((await req('GET', '/ajax/')).status).toBe(404);
  });

  it('captures follow the URL parameters, and a RegExp with flags works', async () => {
    expect(await body('GET', '/tester/abepik/ko')).toBe('undefined|abepik/ko');
    expect(await body('GET', '/TESTER/x')).toBe('undefined|x');
    expect(await body('GET', '/tester/one')).toBe('one|one');
  });
});

describe('domains', () => {
  it('a {param} domain passes the label first, before URL parameters', async () => {
    expect(await body('GET', '/whoami/7', { headers: { host: 'acme.example.com' } })).toBe(
      'acme:7',
    );
    expect(await body('GET', '/whoami/7', { headers: { host: 'ACME.example.com:8080' } })).toBe(
      'acme:7',
    );
    expect((await req('GET', '/whoami/7', { headers: { host: 'a.b.example.com' } })).status).toBe(
      404,
    );
    expect((await req('GET', '/whoami/7', { headers: { host: 'example.org' } })).status).toBe(404);
  });

  it('a fixed domain matches exactly; other hosts fall through to later routes', async () => {
    expect(await body('GET', '/panel', { headers: { host: 'admin.example.com' } })).toBe(
      'admin panel',
    );
    expect(await body('GET', '/panel', { headers: { host: 'www.example.com' } })).toBe(
      'public panel',
    );
  });

  it('a malformed Host header is a 400', async () => {
    expect((await req('GET', '/panel', { headers: { host: 'bad host!' } })).status).toBe(400);
  });

  it('url() of a domain route on another host is //host/path', () => {
    expect(buildUrl(app.served.app.table, 'whoami', { sub: 'acme', id: 1 })).toBe(
      '//acme.example.com/whoami/1',
    );
    expect(buildUrl(app.served.app.table, 'whoami', ['beta', 2])).toBe(
      '//beta.example.com/whoami/2',
    );
    expect(buildUrl(app.served.app.table, 'panel')).toBe('//admin.example.com/panel');
  });
});

describe('partialGroup', () => {
  it('routes exist under the matched prefix and receive the prefix parameters first', async () => {
    expect(await body('GET', '/lang/da/page/3')).toBe('da page 3');
    expect((await req('GET', '/page/3')).status).toBe(404);
  });

  it('url() finds its routes', () => {
    expect(buildUrl(app.served.app.table, 'lang.page', { lang: 'en', id: 2 })).toBe(
      '/lang/en/page/2',
    );
  });
});

describe('exception handlers (the spec examples)', () => {
  it('JSON {error, code} for errors under /api', async () => {
    const answer = await req('GET', '/api/fail');
    expect(answer.status).toBe(418);
    expect(JSON.parse(answer.body)).toEqual({ error: 'I am a teapot', code: 418 });
  });

  it('a custom 404 page through setRewriteCallback, for unmatched URLs', async () => {
    expect(await req('GET', '/thisdoes-not/existssss')).toMatchObject({
      status: 404,
      body: 'Custom 404 page',
    });
  });

  it('a handler that rethrows passes the error on; unhandled it is a 500 without the message', async () => {
    const answer = await req('GET', '/api/strict/fail');
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('rethrown');
    expect((await req('GET', '/boom')).status).toBe(500);
  });

  it("setRewriteCallback('Class@method') serves a routed controller method", async () => {
    expect(await body('GET', '/gallery')).toBe('index');
  });

  it('a 404 under /api goes to the /api group handler as JSON', async () => {
    const answer = await req('GET', '/api/nothing');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Not Found', code: 404 });
  });
});

describe('rewrites and the loaded route', () => {
  it("a boot manager rewrites the URL before matching (to its router.url()'s)", async () => {
    expect(await body('GET', '/old-contact')).toBe('contact page');
  });

  it('a callback may rewrite to another URL', async () => {
    expect(await body('GET', '/rewrite-in-callback')).toBe('contact page');
  });

  it('getLoadedRoute() is available inside middleware', async () => {
    expect(await body('GET', '/loaded-in-middleware/9')).toBe('/loaded-in-middleware/{id} 9');
  });

  it('response().httpCode() and header() apply to a returned body', async () => {
    expect(await req('GET', '/status-header')).toMatchObject({
      status: 201,
      body: 'made',
      headers: { 'x-test': 'set' },
    });
  });
});
