import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, removeApp, tsc, tsconfig, writeApp } from '../_utils.js';

const TSCONFIG = tsconfig(['*.ts', 'generated', 'app']);

// Each test's file of url() and RouteParams uses; one tsc checks them all, and each test reads
// the messages about its file.
const USES: Record<string, string> = {
  'accepts.ts': `import { url as globalUrl } from 'course-router';
import { url } from './generated/routes.gen.js';
export const a: string = url('user.show', { id: 5 });
export const b: string = globalUrl('post', { post: 'x' }, { page: 2 });
export const c: string = globalUrl('home');
export const d: string = url('post', ['x', 'y']);
export const e: string = url('Users@show', { id: 1 });
export const f: string = url('home', null, { page: 1 });
export const g: string = globalUrl('user.show', [7]);
export const h: string = url('archive');
export const i: string = url('archive', { year: 2024 });
export const j: string = globalUrl('about', {}, { page: 1 });
export const k: string = url('home', []);
export const l: string = url('post', ['x']);
export const m: string = globalUrl('archive', [2024]);
export const n: string = url('archive', []);
export const o: string = url('team', ['acme', 5]);
export const p: string = url('user.show', [5] as const);
export const q: string = url('docs', { lang: 'en', page: 'intro' });
export const r: string = globalUrl('docs', ['en', 'intro']);
export const s: string = url('archive', null);
export const t: string = url('shop') + url('shop', {}) + url('shop', { type: 'shirts' });
export const u: string = url('shop', { type: 'shirts', size: 'l' }) + globalUrl('shop', ['shirts', 'm']);
export const v: string = globalUrl('opt', { a: 1, b: 2 }) + url('opt', { a: 1, b: 2, c: 3 }) + url('opt', ['x']);
`,
  'params.ts': `import type { RouteParams } from './generated/routes.gen.js';
export const a: RouteParams<'user.show'> = ['5'];
export const b: RouteParams<'post'> = ['x', undefined];
export const c: RouteParams<'team'> = ['acme', 'ann'];
export const d: RouteParams<'home'> = [];
export const show = (...params: RouteParams<'docs'>) => params.join();
// A 'Class@method' several routes call receives what any of them gives.
export const any1: RouteParams<'Users@show'> = ['5'];
export const any2: RouteParams<'Users@show'> = ['acme', 'ann'];
// @ts-expect-error parameters arrive as strings
export const e: RouteParams<'user.show'> = [5];
// @ts-expect-error the comment may be undefined, the post may not
export const f: RouteParams<'post'> = [undefined, 'x'];
// @ts-expect-error no such route
export type G = RouteParams<'no.such.route'>;
// A where() of digits alone: a numeral.
export const h: RouteParams<'invoice'> = ['0042'];
// @ts-expect-error what [0-9]+ matches is a numeral
export const i: RouteParams<'invoice'> = ['42a'];
// A domain's parameter of digits alone: a numeral too.
export const j: RouteParams<'shard.ping'> = ['7'];
// @ts-expect-error what the domain's [0-9]+ matches is a numeral
export const k: RouteParams<'shard.ping'> = ['x7'];
`,
  'params-package.ts': `import type { RouteParams } from 'course-router';
export const a: RouteParams<'user.show'> = ['5'];
export const c: RouteParams<'team'> = ['acme', 'ann'];
// @ts-expect-error parameters arrive as strings
export const e: RouteParams<'user.show'> = [5];
// @ts-expect-error no such route
export type G = RouteParams<'no.such.route'>;
`,
  'request-types.ts': `import type { IncomingMessage } from 'node:http';
import { request, type RequestUri } from 'course-router';
export const uri = (): RequestUri => request().getUri();
export const params = (): readonly (string | undefined)[] | undefined =>
  request().getLoadedRoute()?.getParameters();
export const onProfile = (): boolean => request().getLoadedRoute()?.getName() === 'user.show';
// @ts-expect-error a loaded route's name is one of the app's route names
export const misspelt = (): boolean => request().getLoadedRoute()?.getName() === 'user.shwo';
export const rewrite = (): void => request().setRewriteCallback((id) => id ?? 'none');
// @ts-expect-error a rewrite callback is a function or a 'Class@method'
export const rewriteNumber = (): void => request().setRewriteCallback(42);
export const rewriteMethod = (): void => request().setRewriteCallback('Users@show');
// @ts-expect-error a 'Class@method' no route calls
export const rewriteTypo = (): void => request().setRewriteCallback('Users@shwo');
// @ts-expect-error a 'Class@method' that url() takes is no route's name
export const alias = (): boolean => request().getLoadedRoute()?.getName() === 'Users@show';
export function raw(): IncomingMessage | Request | undefined {
  const native = request().raw;
  if (native instanceof Request) return native;
  // @ts-expect-error under node:http2 it is no IncomingMessage
  const node: IncomingMessage = native;
  return 'socket' in native ? node : undefined;
}
`,
  'attributes.ts': `import { request, type CourseRequest } from 'course-router';
declare module 'course-router' {
  interface RequestAttributes {
    user: { id: number; name: string };
  }
}
export function signIn(req: CourseRequest): void {
  req.setAttribute('user', { id: 1, name: 'Ada' });
  // @ts-expect-error a declared attribute takes its declared type
  req.setAttribute('user', { id: '1' });
  // @ts-expect-error once attributes are declared, a name not declared is a misspelling
  req.setAttribute('usr', { id: 1, name: 'Ada' });
}
export const id: number | undefined = request().getAttribute('user')?.id;
// @ts-expect-error a declared attribute's value has its type, not any
export const wrong: string | undefined = request().getAttribute('user');
// @ts-expect-error once attributes are declared, a name not declared is a misspelling
export const other: unknown = request().getAttribute('usr');
`,
  'resource.ts': `import { Course, type ResourceController } from 'course-router';
// An API's resource: no create and edit forms.
export class Api implements ResourceController {
  index() { return []; }
  store() { return 'stored'; }
  show(id: string) { return id; }
  update(id: string) { return id; }
  destroy(id: string) { return id; }
}
// Under a group prefix with a parameter: its value first.
export class Nested implements ResourceController {
  index(org: string) { return org; }
  show(org: string, id: string) { return org + id; }
}
export class Wrong implements ResourceController {
  // @ts-expect-error a resource's id arrives as a string
  show(id: number) { return id + 1; }
}
// @ts-expect-error a class with none of its methods is no resource controller
export const none: ResourceController = { list() { return []; } };
export function routes(): void {
  Course.resource('api', Api).except('create', 'edit').where('id', '[0-9]+');
  Course.resource('few', Api).only('index').name('few');
  // @ts-expect-error an action is one of the seven
  Course.resource('typo', Api).except('crate');
  // @ts-expect-error only a resource picks its actions
  Course.get('/x', () => 'x').only('index');
  // A partial group's placeholders, as written: its callback runs once, when the routes are built.
  Course.partialGroup('/lang/{lang}/{region?}', (lang, region) => {
    const typed: ['{lang}', '{region}'] = [lang, region];
    // @ts-expect-error its routes are the same for every language
    if (lang === 'fr') Course.get('/only-fr', () => 'fr');
    void typed;
  });
  // @ts-expect-error the URL has one placeholder
  Course.partialGroup('/lang/{lang}', (lang: string, more: string) => void [lang, more]);
}
`,
  'helpers.ts': `import { Controller, response, spoofing, toRoute, type BootRouter } from 'course-router';
export class Reader extends Controller {
  posted(): unknown {
    return this.getRequestParams().post['name'];
  }
}
export function booted(router: BootRouter): string {
  // @ts-expect-error a boot manager's router.url() knows the app's routes
  router.url('no.such.route');
  // @ts-expect-error and their parameters
  router.url('user.show', { idd: 5 });
  return router.url('user.show', { id: 5 }) + router.url('home');
}
export const field: string = spoofing('delete') + spoofing('PUT');
// @ts-expect-error spoofing() takes put, patch or delete
export const typo: string = spoofing('delet');
export function answers(): void {
  toRoute('/entries', 303);
  response().redirect('/entries', 308);
  // @ts-expect-error a redirect has a 3xx status
  toRoute('/entries', 200);
  // @ts-expect-error a 304 sends no one anywhere
  response().redirect('/entries', 304);
}
`,
  'handler.ts': `import { HttpException, type CourseRequest, type ExceptionHandler, type HandledError, type Middleware } from 'course-router';
export class Narrow implements ExceptionHandler {
  // @ts-expect-error every error is handed to it, not only an HttpException
  handleError(_request: CourseRequest, error: HttpException) { return error.status; }
}
export class Wide implements ExceptionHandler {
  handleError(_request: CourseRequest, error: Error) { return error.message; }
}
export class Who implements Middleware {
  // @ts-expect-error the request it is given has no user
  handle(request: CourseRequest & { user: { name: string } }) { return request.user.name; }
}
export class Role implements Middleware {
  handle(_request: CourseRequest, role: 'admin' | 'owner') { return role === 'admin' ? undefined : 'no'; }
}
export class Handler implements ExceptionHandler {
  handleError(_request: CourseRequest, error: HandledError) {
    const status: number | undefined = error.status;
    const allow: string | undefined = error.headers?.['allow'];
    // @ts-expect-error an error's status is read, not written
    error.status = 500;
    if (error instanceof HttpException) return { code: error.status satisfies number, allow };
    return { code: status ?? 500, message: error.message };
  }
}
`,
  'literals.ts': `import { url as globalUrl, type RouteParams } from 'course-router';
import { url } from './generated/routes.gen.js';
export const a: string = url('edition', { lang: 'en', version: 2 });
export const b: string = globalUrl('edition', ['fr', '1', true]);
export const c: string = url('edition', { lang: 'fr', version: '2', draft: 'false' });
// @ts-expect-error its where() writes out en and fr only
export const d: string = url('edition', { lang: 'de', version: 1 });
// @ts-expect-error by position too
export const e: string = globalUrl('edition', ['de', 1]);
// @ts-expect-error 3 is no version
export const f: string = url('edition', ['en', 3]);
// @ts-expect-error a flag is true or false
export const g: string = url('edition', ['en', 1, 'yes']);
export const h: RouteParams<'edition'> = ['en', '1', undefined];
// @ts-expect-error the handler receives one of the values, as strings
export const i: RouteParams<'edition'> = ['en', 1, undefined];
// @ts-expect-error and only those
export const j: RouteParams<'edition'> = ['de', '1', 'true'];
export const l: string = url('maybe', { x: 'a' });
// @ts-expect-error an empty value fills no placeholder
export const m: string = url('maybe', { x: '' });
// A pattern that writes out no values stays a string.
export const k: RouteParams<'user.show'>[0] = 'anything';
`,
  'optional.ts': `import { url as globalUrl } from 'course-router';
import { url } from './generated/routes.gen.js';
// @ts-expect-error a URL cannot leave out the type before the size
export const a: string = url('shop', { size: 'l' });
// @ts-expect-error nor b before c
export const b: string = globalUrl('opt', { a: 1, c: 3 });
// @ts-expect-error nor a before b
export const c: string = url('opt', { b: 2 });
// @ts-expect-error its where() writes out s, m and l
export const d: string = url('shop', { type: 'shirts', size: 'xl' });
// @ts-expect-error no such parameter
export const e: string = url('opt', { a: 1, d: 4 });
`,
  'wrong.ts': `import { url as globalUrl } from 'course-router';
import { url } from './generated/routes.gen.js';
export const a = url('user.show', { wrong: 1 });
export const b = globalUrl('user.show');
export const c = url('no.such.route');
export const d = url('user.show', { id: {} });
export const e = url('post', { comment: 'c' });
export const f = url('archive', { month: 5 });
export const g = url('no.such.route', { id: 1 });
export const h = globalUrl('no.such.route');
`,
  'arrays.ts': `import { url as globalUrl } from 'course-router';
import { url } from './generated/routes.gen.js';
export const a = url('home', { id: 1 });
export const b = globalUrl('user.show', []);
export const c = url('post', []);
export const d = url('team', [5]);
export const e = url('user.show', ['1'] as string[]);
export const f = url('user.show', [1, 2]);
export const g = globalUrl('home', [1]);
export const h = url('docs', { page: 'intro' });
`,
};

let dir: string;
let output: string;

beforeAll(async () => {
  dir = writeApp({
    'tsconfig.json': TSCONFIG,
    'routes.ts': `import { Course } from 'course-router';
Course.get('/user/{id}', 'Users@show').name('user.show');
Course.get('/post/{post}/{comment?}', 'Users@show').name('post');
Course.get('/', 'Users@show').name('home');
Course.get('/about', 'Users@show').name('about');
Course.get('/archive/{year?}', 'Users@show').name('archive');
Course.get('/{lang?}/docs/{page}', 'Users@show').name('docs');
Course.group({ domain: '{account}.example.com' }, () => {
  Course.get('/team/{member}', 'Users@show').name('team');
});
Course.get('/{lang}/v{version}/{draft?}', 'Users@show')
  .where({ lang: 'en|fr', version: '[12]', draft: 'true|false' })
  .name('edition');
Course.get('/maybe/{x}', 'Users@show').where('x', 'a|').name('maybe');
Course.get('/shop/{type?}/{size?}', 'Users@show').where('size', 's|m|l').name('shop');
Course.get('/opt/{a?}/{b?}/{c?}', 'Users@show').name('opt');
Course.get('/invoice/{number}', 'Users@show').where('number', '[0-9]+').name('invoice');
Course.group({ domain: '{shard}.db.example.com', where: { shard: '[0-9]+' } }, () => {
  Course.get('/ping', 'Users@show').name('shard.ping');
});
`,
    'app/Components/Controller/Users.ts':
      'export class Users {\n  show(): string {\n    return "";\n  }\n}\n',
    ...USES,
  });
  await buildApp(dir);
  output = (await tsc(dir)).output;
  // tsc ran, and the generated module and the app itself are clean: every message is a test's.
  const messages = output.split(/\n(?=\S)/).filter((m) => m.trim() !== '');
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages)
    expect(
      Object.keys(USES).some((file) => message.includes(`${file}(`)),
      message,
    ).toBe(true);
});

afterAll(() => removeApp(dir));

/** tsc's messages about one file, and 1 when there are any, as tsc over that file alone. */
function checked(file: string): { output: string; code: number } {
  const messages = output
    .split(/\n(?=\S)/)
    .filter((m) => m.includes(`${file}(`))
    .join('\n');
  return { output: messages, code: messages === '' ? 0 : 1 };
}

describe('url() is checked by tsc against the generated routes', () => {
  // Each file's uses are right, and its `@ts-expect-error` lines are errors: tsc says nothing.
  it.each([
    ['accepts correct calls, through the generated url() and the global helper', 'accepts.ts'],
    [
      'spoofing() takes the verbs a form may be routed as; a redirect takes a 3xx status',
      'helpers.ts',
    ],
    ['ResourceController: each method optional, the ones present typed', 'resource.ts'],
    ["ExceptionHandler: its error carries an HttpException's status and headers", 'handler.ts'],
    [
      'RequestAttributes types setAttribute and getAttribute; other names are errors',
      'attributes.ts',
    ],
    [
      "RouteParams<'name'> is the tuple the route's handler receives, domain parameters first",
      'params.ts',
    ],
    ["RouteParams from course-router is the generated module's", 'params-package.ts'],
    [
      "a parameter whose where() writes out its values ('en|fr') takes them alone, in url() and RouteParams",
      'literals.ts',
    ],
    [
      "request(): raw is the runtime's request, getUri() a type the package names",
      'request-types.ts',
    ],
    ['of several optional parameters, url() takes one only with those before it', 'optional.ts'],
  ])('%s', (_, file) => {
    expect(checked(file)).toEqual({ output: '', code: 0 });
  });

  it('rejects a wrong parameter name, missing parameters, an unknown route and a bad value', async () => {
    const result = checked('wrong.ts');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /wrong\.ts\(3,\d+\): error TS2353: Object literal may only specify known properties, and 'wrong'/,
    );
    // A name alone must be one of a route that needs no parameter; the message lists them (in
    // an order of tsc's).
    for (const [line, name] of [
      [4, 'user\\.show'],
      [5, 'no\\.such\\.route'],
      [10, 'no\\.such\\.route'],
    ] as const) {
      const listed = new RegExp(
        `wrong\\.ts\\(${line},\\d+\\): error TS2345: Argument of type '"${name}"' is not assignable to parameter of type '(.*)'\\.`,
      ).exec(result.output);
      expect(listed?.[1]?.split(' | ').sort()).toEqual([
        '"about"',
        '"archive"',
        '"home"',
        '"opt"',
        '"shop"',
      ]);
    }
    // With parameters, any route name: each of them is listed.
    const named =
      /wrong\.ts\(9,\d+\): error TS2345: Argument of type '"no.such.route"' is not assignable to parameter of type '(.*)'\./.exec(
        result.output,
      );
    expect(named?.[1]?.split(' | ').sort()).toEqual([
      '"Users@show"',
      '"about"',
      '"archive"',
      '"docs"',
      '"edition"',
      '"home"',
      '"invoice"',
      '"maybe"',
      '"opt"',
      '"post"',
      '"shard.ping"',
      '"shop"',
      '"team"',
      '"user.show"',
    ]);
    expect(result.output).toMatch(
      /wrong\.ts\(6,\d+\): error TS2322: Type '\{\}' is not assignable/,
    );
    expect(result.output).toMatch(
      /wrong\.ts\(7,\d+\): error TS2345: .*UrlParamsOf<"post", "comment">'\.[\s\S]*?Property 'post' is missing/,
    );
    expect(result.output).toMatch(
      /wrong\.ts\(8,\d+\): error TS2353: Object literal may only specify known properties, and 'month'/,
    );
    expect(result.output.match(/error TS/g)).toHaveLength(8);
  });

  it('rejects parameters for a route without any, and arrays that do not fill its placeholders', async () => {
    const result = checked('arrays.ts');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /arrays\.ts\(3,\d+\): error TS2345: Argument of type '\{ id: number; \}' is not assignable to parameter of type 'UrlParamsOf<never>'/,
    );
    expect(result.output).toMatch(
      /arrays\.ts\(4,\d+\): error TS2345: Argument of type '\[\]' is not assignable to parameter of type 'UrlParamsOf<"id">'\.[\s\S]*?Source has 0 element\(s\) but target requires 1/,
    );
    expect(result.output).toMatch(
      /arrays\.ts\(5,\d+\): error TS2345: .*UrlParamsOf<"post", "comment">'\.[\s\S]*?Source has 0 element\(s\) but target requires 1/,
    );
    // Domain parameters come first: one value fills the host, and the path's placeholder is left.
    expect(result.output).toMatch(
      /arrays\.ts\(6,\d+\): error TS2345: .*UrlParamsOf<"account" \| "member">'\.[\s\S]*?Source has 1 element\(s\) but target requires 2/,
    );
    expect(result.output).toMatch(
      /arrays\.ts\(7,\d+\): error TS2345: Argument of type 'string\[\]' is not assignable to parameter of type 'UrlParamsOf<"id">'/,
    );
    // A value no placeholder takes is marked where it stands.
    expect(result.output).toMatch(
      /arrays\.ts\(8,39\): error TS2322: Type 'number' is not assignable/,
    );
    expect(result.output).toMatch(
      /arrays\.ts\(9,37\): error TS2322: Type 'number' is not assignable/,
    );
    // url() cannot leave out an optional placeholder before one it fills: `lang` is required.
    expect(result.output).toMatch(
      /arrays\.ts\(10,\d+\): error TS2345: .*UrlParamsOf<"(lang" \| "page|page" \| "lang)">'\.[\s\S]*?Property 'lang' is missing/,
    );
    expect(result.output.match(/error TS/g)).toHaveLength(8);
  });

  it('says why no name fits: every named route has parameters, or no route has a name', async () => {
    const uses = `import { url as globalUrl } from 'course-router';
import { url } from './generated/routes.gen.js';
export const a = url('user');
export const b = globalUrl('user');
export const c = url('user', { id: 1 });
`;
    const apps = [
      `Course.get('/u/{id}', (id: string) => id).name('user');\n`,
      `Course.get('/u/{id}', (id: string) => id);\n`,
    ].map((routes) =>
      writeApp({
        'tsconfig.json': tsconfig(['*.ts', 'generated']),
        'routes.ts': `import { Course } from 'course-router';\n${routes}`,
        'uses.ts': uses,
      }),
    );
    try {
      const [named, unnamed] = await Promise.all(
        apps.map(async (app) => (await buildApp(app), (await tsc(app)).output)),
      );
      for (const line of [3, 4])
        expect(named).toMatch(
          new RegExp(
            `uses\\.ts\\(${line},\\d+\\): error TS2345: Argument of type '(?:"user"|string)' is not assignable to parameter of type 'string & EveryNamedRouteHasParameters'`,
          ),
        );
      expect(named!.match(/error TS/g)).toHaveLength(2);
      for (const line of [3, 4, 5])
        expect(unnamed).toMatch(
          new RegExp(
            `uses\\.ts\\(${line},\\d+\\): error TS2345: Argument of type '(?:"user"|string)' is not assignable to parameter of type 'string & NoNamedRoute'`,
          ),
        );
      expect(unnamed!.match(/error TS/g)).toHaveLength(3);
    } finally {
      for (const app of apps) removeApp(app);
    }
  });
});
