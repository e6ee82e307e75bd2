import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, runCli, send, serve, writeApp } from '../_utils.js';

const CONTROLLER = `export class Shop {\n  show(...params: (string | undefined)[]) { return params.join(); }\n}\n`;
const HEAD = `import { Course } from 'course-router';\n`;
const PHOTOS = `export class Photos {
  index() {}
  create() {}
  store() {}
  show(id: string) { return id; }
  edit(id: string) { return id; }
  update(id: string) { return id; }
  destroy(id: string) { return id; }
}
`;

// The compiler's messages are checked through the run's CLI servers (`cli`); the tests of the
// printed frame, --json, a clean exit and the routes table run the real CLI.
const apps: string[] = [];
afterEach(() => {
  for (const dir of apps.splice(0)) removeApp(dir);
});

async function failingBuild(routes: string, extra: Record<string, string> = {}, run = cli) {
  const dir = writeApp({
    'routes.ts': HEAD + routes,
    'app/Components/Controller/Shop.ts': CONTROLLER,
    ...extra,
  });
  apps.push(dir);
  const result = await run(['build', '--root', dir]);
  expect(result.code, result.stdout).toBe(1);
  return result.stderr;
}

describe('build errors name file:line:col and what to do', () => {
  it('E_MODULE: a callback class with no module', async () => {
    const stderr = await failingBuild(`\nCourse.get('/', 'Missing@show');\n`);
    expect(stderr).toContain(
      'routes.ts:3:8: error E_MODULE: no module for class App\\Components\\Controller\\Missing',
    );
    expect(stderr).toContain('app/Components/Controller/Missing.ts');
  });

  it('E_MODULE: a resource whose controller has no module, once for its seven routes', async () => {
    const stderr = await failingBuild(`Course.resource('photos', 'Photos');\n`);
    const error =
      'routes.ts:2:8: error E_MODULE: no module for class App\\Components\\Controller\\Photos';
    expect(stderr).toContain(error);
    expect(stderr.split(error)).toHaveLength(2);
    expect(stderr).not.toContain('warning');
  });

  it('E_CLASS: a module that does not export the class', async () => {
    const stderr = await failingBuild(`Course.get('/', 'Other@show');\n`, {
      'app/Components/Controller/Other.ts': 'export const nothing = 1;\n',
    });
    expect(stderr).toContain(
      'routes.ts:2:8: error E_CLASS: app/Components/Controller/Other.ts does not export a class Other',
    );
  });

  it('E_METHOD: a method the class lacks, listing the ones it has', async () => {
    const stderr = await failingBuild(`Course.get('/', 'Shop@missing');\n`);
    expect(stderr).toContain('routes.ts:2:8: error E_METHOD: class Shop has no method missing');
    expect(stderr).toContain('hint: its methods: show');
  });

  it("E_METHOD: the methods listed are the app's, not the helpers inherited from Controller", async () => {
    const stderr = await failingBuild(`Course.get('/', 'Books@nope');\n`, {
      'app/Components/Controller/Books.ts':
        "import { Controller } from 'course-router';\nexport class Books extends Controller {\n  index() { return 'books'; }\n}\n",
    });
    expect(stderr).toContain('routes.ts:2:8: error E_METHOD: class Books has no method nope');
    expect(stderr).toContain('hint: its methods: index\n');
  });

  it('E_METHOD: a middleware without handle()', async () => {
    const stderr = await failingBuild(
      `Course.get('/', 'Shop@show').addMiddleware('Middleware\\\\Bad:x');\n`,
      {
        'app/Middleware/Bad.ts': 'export class Bad { run() {} }\n',
      },
    );
    expect(stderr).toContain('routes.ts:2:44: error E_METHOD: class Bad has no method handle');
  });

  it('E_REGEX: an invalid where() regex points at the where() call', async () => {
    const stderr = await failingBuild(
      `Course.get('/{id}', 'Shop@show')\n  .where('id', '[0-9');\n`,
    );
    expect(stderr).toMatch(
      /routes\.ts:3:4: error E_REGEX: parameter "id": the regex "\[0-9" is not valid with the u flag/,
    );
  });

  it('E_REGEX: a string not valid under the u flag is named; a RegExp flag other than u and i too', async () => {
    const stderr = await failingBuild(
      [
        `Course.get('/a/{v}', 'Shop@show').where('v', '\\\\-');`,
        `Course.get('/b/{v}', 'Shop@show').where('v', '\\\\_');`,
        `Course.get('/c/{v}', 'Shop@show').where('v', /[a-z]+/gi);`,
        `Course.group({ defaultParameterRegex: /x/s }, () => Course.get('/d/{v}', 'Shop@show'));`,
        '',
      ].join('\n'),
    );
    expect(stderr).toContain(
      'routes.ts:2:35: error E_REGEX: parameter "v": the regex "\\\\-" is not valid with the u flag',
    );
    expect(stderr).toContain(
      'routes.ts:3:35: error E_REGEX: parameter "v": the regex "\\\\_" is not valid with the u flag',
    );
    expect(stderr).toContain('hint: parameter regexes have Unicode semantics');
    expect(stderr).toContain(
      'routes.ts:4:35: error E_REGEX: parameter "v": the regex /[a-z]+/gi has the flag "g"',
    );
    expect(stderr).toContain(
      'routes.ts:5:8: error E_REGEX: parameter "v": the regex /x/s has the flag "s"',
    );
  });

  it('E_PARAM_NAME: a parameter name with a dash', async () => {
    const stderr = await failingBuild(`Course.get('/user/{user-id}', 'Shop@show');\n`);
    expect(stderr).toContain(
      'routes.ts:2:8: error E_PARAM_NAME: invalid parameter name "{user-id}"',
    );
    expect(stderr).toContain('{user_id}');
  });

  it('E_PATTERN: a "?" or "#" outside a placeholder, which no request path holds', async () => {
    const stderr = await failingBuild(
      `Course.get('/search?q', 'Shop@show');\nCourse.get('/page#top', 'Shop@show');\n`,
    );
    expect(stderr).toContain(
      'routes.ts:2:8: error E_PATTERN: the URL "/search?q" has a "?" outside a placeholder',
    );
    expect(stderr).toContain('read it with input()');
    expect(stderr).toContain(
      'routes.ts:3:8: error E_PATTERN: the URL "/page#top" has a "#" outside a placeholder',
    );
  });

  it('E_PATTERN: a dot segment, an empty segment or an escape, which no normalised path holds', async () => {
    const stderr = await failingBuild(
      [
        `Course.get('/dot/./x', 'Shop@show');`,
        `Course.get('/up/../x', 'Shop@show');`,
        `Course.get('/dbl//x', 'Shop@show');`,
        `Course.get('/pct/%41%2F', 'Shop@show');`,
        `Course.get('/pct/100%', 'Shop@show');`,
        `Course.get('/pct/a%2fb', 'Shop@show');`,
        // Joined with a group's prefix, located at the route call.
        `Course.group({ prefix: '/g//h' }, () => {\n  Course.get('/x', 'Shop@show');\n});`,
        `Course.group({ prefix: '/g/..' }, () => {\n  Course.get('/{id}', 'Shop@show');\n});`,
      ].join('\n') + '\n',
    );
    expect(stderr).toContain(
      'routes.ts:2:8: error E_PATTERN: the URL "/dot/./x" has a "." segment, which no request path holds\n  hint: request paths are normalised before matching',
    );
    expect(stderr).toContain(
      'routes.ts:3:8: error E_PATTERN: the URL "/up/../x" has a ".." segment, which no request path holds',
    );
    expect(stderr).toContain(
      'routes.ts:4:8: error E_PATTERN: the URL "/dbl//x" has an empty segment ("//"), which no request path holds\n  hint: request paths are normalised before matching ("/a//b" is "/a/b"): write one "/"\n',
    );
    expect(stderr).toContain(
      'routes.ts:5:8: error E_PATTERN: the URL "/pct/%41%2F" has the percent-escape "%41"\n  hint: write the character itself: request paths are decoded before matching (a "%" is "%25", a "/" inside a segment "%2F")\n',
    );
    expect(stderr).toContain(
      'routes.ts:6:8: error E_PATTERN: the URL "/pct/100%" has a "%" that starts no escape\n  hint: request paths keep a percent sign as "%25": write "%25"\n',
    );
    expect(stderr).toContain(
      'routes.ts:7:8: error E_PATTERN: the URL "/pct/a%2fb" has the percent-escape "%2f"\n  hint: request paths keep a slash inside a segment as "%2F", upper-case: write "%2F"\n',
    );
    expect(stderr).toContain(
      'routes.ts:9:10: error E_PATTERN: the URL "/g//h/x" has an empty segment',
    );
    expect(stderr).toContain(
      'routes.ts:12:10: error E_PATTERN: the URL "/g/../{id}" has a ".." segment',
    );
    expect(stderr).toContain('build failed: 8 errors');
  });

  it("E_SETTING: a route's where() naming a parameter its URL does not have, with the near one", async () => {
    const stderr = await failingBuild(
      [
        `Course.get('/u/{id}', 'Shop@show').where('ID', '[0-9]+');`,
        `Course.get('/v/{id}/{slug}', 'Shop@show').where({ idd: '[0-9]+' });`,
        `Course.get('/w/{id}', 'Shop@show').where({ id: '[0-9]+' }).where('page', '[0-9]+');`,
        `Course.get('/x', 'Shop@show').where('id', '[0-9]+');`,
        `Course.group({ domain: '{sub}.example.test', prefix: '/{lang}' }, () => {`,
        `  Course.get('/d/{id}', 'Shop@show').where({ sub: '[a-z]+', lan: '[a-z]{2}' });`,
        `});`,
      ].join('\n') + '\n',
    );
    expect(stderr).toContain(
      'routes.ts:2:36: error E_SETTING: where() names "ID", which is not a parameter of "/u/{id}"\n  hint: did you mean id?\n',
    );
    expect(stderr).toContain(
      'routes.ts:3:43: error E_SETTING: where() names "idd", which is not a parameter of "/v/{id}/{slug}"\n  hint: did you mean id?\n',
    );
    expect(stderr).toContain(
      'routes.ts:4:60: error E_SETTING: where() names "page", which is not a parameter of "/w/{id}"\n  hint: the parameters are id\n',
    );
    expect(stderr).toContain(
      'routes.ts:5:31: error E_SETTING: where() names "id", which is not a parameter of "/x"\n  hint: the URL has no parameters: leave the where() out\n',
    );
    // A domain parameter takes the group's where, not the route's: said so, not ignored.
    expect(stderr).toContain(
      `routes.ts:7:38: error E_SETTING: where() names "sub", a parameter of the domain "{sub}.example.test", which a route's where() does not constrain\n  hint: constrain it in the group: where: { sub: … }\n`,
    );
    expect(stderr).toContain(
      'routes.ts:7:38: error E_SETTING: where() names "lan", which is not a parameter of "/{lang}/d/{id}"\n  hint: did you mean lang?\n',
    );
    expect(stderr).toContain('build failed: 6 errors');
  });

  it('E_DUPLICATE_NAME: two routes with one name, naming the first', async () => {
    const stderr = await failingBuild(
      `Course.get('/a', 'Shop@show').name('x');\nCourse.get('/b', 'Shop@show').name('x');\n`,
    );
    expect(stderr).toMatch(
      /routes\.ts:3:31: error E_DUPLICATE_NAME: the route name "x" is already used at routes\.ts:2:31/,
    );
  });

  it('E_SETTING: a route named __proto__ or nothing', async () => {
    const stderr = await failingBuild(
      `Course.get('/a', 'Shop@show').name('__proto__');\nCourse.get('/b', 'Shop@show').name('');\n`,
    );
    expect(stderr).toContain('routes.ts:2:31: error E_SETTING: invalid route name "__proto__"');
    expect(stderr).toContain('routes.ts:3:31: error E_SETTING: invalid route name ""');
  });

  it('E_CAPTURE: a closure that captures a local variable', async () => {
    const stderr = await failingBuild(
      `Course.group({ prefix: '/g' }, () => {\n  const secret = 'local';\n  Course.get('/', () => secret);\n});\n`,
    );
    expect(stderr).toContain(
      'routes.ts:4:25: error E_CAPTURE: the route closure uses "secret" (declared at line 3)',
    );
  });

  it('E_CAPTURE: a closure in a loop, reported once', async () => {
    const stderr = await failingBuild(
      `for (const x of ['a', 'b']) Course.get('/' + x, () => x);\n`,
    );
    const error = 'routes.ts:2:55: error E_CAPTURE: the route closure uses "x"';
    expect(stderr).toContain(error);
    expect(stderr.split(error)).toHaveLength(2);
  });

  it('E_CAPTURE: a closure that reads a module-level let', async () => {
    const stderr = await failingBuild(`let counter = 0;\nCourse.get('/', () => counter++);\n`);
    expect(stderr).toContain('routes.ts:3:23: error E_CAPTURE: the route closure uses "counter"');
  });

  it('E_LOAD: a route file that throws, at the throwing line', async () => {
    const stderr = await failingBuild(`\nthrow new Error('broken routes');\n`);
    expect(stderr).toMatch(
      /routes\.ts:3:7: error E_LOAD: evaluating the route file failed: broken routes/,
    );
  });

  it('E_LOAD: a syntax error, at its line and column counted from 1', async () => {
    const stderr = await failingBuild(`Course.get('/', 'Shop@show');\nconst broken = (;\n`);
    expect(stderr).toContain('routes.ts:3:17: error E_LOAD: syntax error: Unexpected ";"');
  });

  it('E_LOAD: an import that cannot be found, at its line', async () => {
    const stderr = await failingBuild(
      `Course.get('/', 'Shop@show');\nimport './helpers/missing.js';\nimport 'no-such-package';\n`,
    );
    expect(stderr).toContain(
      'routes.ts:3:8: error E_LOAD: cannot find the module "./helpers/missing.js"',
    );
    expect(stderr).toContain(
      'hint: check the path; a .ts module is imported by its .js name (by its .ts name with importExtension .ts)',
    );
  });

  it('E_LOAD: a misspelt relative import names the module beside it, as the import writes it', async () => {
    const stderr = await failingBuild(
      `import { Shop } from './app/Components/Controller/Shpo.ts';\nCourse.get('/', [Shop, 'show']);\n`,
    );
    expect(stderr).toContain(
      'error E_LOAD: cannot find the module "./app/Components/Controller/Shpo.ts"\n  hint: did you mean ./app/Components/Controller/Shop.ts?',
    );
  });

  it("E_LOAD: url() run as a class's module loads, which the server imports before the routes exist", async () => {
    // The build reads a class named by a string without running it: each url() that would run
    // as the server loads the module (top level, a static initializer or block) is an error at
    // its call; one in a method, an arrow or an instance's initializer runs per request.
    const stderr = await failingBuild(
      `\nCourse.get('/', 'Home@index').name('home');\nCourse.get('/m', () => 'm').addMiddleware('Middleware\\\\Gate');\n`,
      {
        'app/Components/Controller/Home.ts': `import { url } from 'course-router';
import * as routes from '../../../generated/routes.gen.js';
const HOME = url('home');
export class Home {
  static self = routes.url('home');
  static { url('home'); }
  link = url('home');
  index() { return url('home') + HOME + (() => routes.url('home'))(); }
}
`,
        'app/Middleware/Gate.ts': `import { url as link } from 'course-router';
export class Gate { handle() { return undefined; } }
link('home');
`,
      },
    );
    const at = (file: string, place: string) =>
      `${file}:${place}: error E_LOAD: url() runs as ${file} loads, before the routes exist: the server would fail to start\n` +
      "  hint: call it inside a function or method (a route's, a middleware's handle()), where it runs per request\n";
    const home = 'app/Components/Controller/Home.ts';
    expect(stderr).toContain(at(home, '3:14'));
    expect(stderr).toContain(at(home, '5:17'));
    expect(stderr).toContain(at(home, '6:12'));
    expect(stderr).toContain(at('app/Middleware/Gate.ts', '3:1'));
    expect(stderr.match(/error E_LOAD/g)).toHaveLength(4);
  });

  it('E_LOAD: a package that is not installed, at its import', async () => {
    const stderr = await failingBuild(`import 'no-such-package';\nCourse.get('/', 'Shop@show');\n`);
    expect(stderr).toContain(
      'routes.ts:2:8: error E_LOAD: cannot find the module "no-such-package"',
    );
    expect(stderr).toContain('hint: install the package, or check its name');
  });

  it('E_SETTING: a group attribute or route setting Course does not know, with the near one', async () => {
    const stderr = await failingBuild(
      `Course.group({ prefix: '/g', middlware: 'Auth' } as never, () => {\n  Course.get('/a', 'Shop@show', { bogus: 1 } as never);\n});\n`,
    );
    expect(stderr).toContain('routes.ts:2:8: error E_SETTING: unknown group attribute "middlware"');
    expect(stderr).toContain('hint: did you mean middleware?');
    expect(stderr).toContain('routes.ts:3:10: error E_SETTING: unknown route setting "bogus"');
    expect(stderr).toContain('hint: the route settings are unsafeRegex, defaultParameterRegex');
  });

  describe('E_DUPLICATE_ROUTE: a route whose every verb earlier routes with its pattern take', () => {
    it('patterns that differ only in parameter names, naming both routes', async () => {
      const stderr = await failingBuild(
        `Course.get('/a/{x}', 'Shop@show');\nCourse.get('/a/{y}', 'Shop@show');\n`,
      );
      expect(stderr).toContain(
        'routes.ts:3:8: error E_DUPLICATE_ROUTE: GET /a/{y} can never be reached: registered first with the same pattern and domain, GET /a/{x} at routes.ts:2:8 takes GET',
      );
      expect(stderr).toContain(
        'hint: remove it, or give it verbs, a pattern or a domain the earlier routes do not take',
      );
    });

    it('several earlier routes that take a verb each', async () => {
      const stderr = await failingBuild(
        `Course.get('/c', 'Shop@show');\nCourse.post('/c', 'Shop@show');\nCourse.match(['get', 'post'], '/c', 'Shop@show');\n`,
      );
      expect(stderr).toContain(
        'routes.ts:4:8: error E_DUPLICATE_ROUTE: GET|POST /c can never be reached: registered first with the same pattern and domain, GET /c at routes.ts:2:8 takes GET; POST /c at routes.ts:3:8 takes POST',
      );
    });

    it('HEAD, which a GET route answers, and any() after any()', async () => {
      const stderr = await failingBuild(
        `Course.get('/f', 'Shop@show');\nCourse.match(['head'], '/f', 'Shop@show');\nCourse.any('/e/{id}', 'Shop@show');\nCourse.all('/e/{other}', 'Shop@show');\n`,
      );
      expect(stderr).toContain(
        'routes.ts:3:8: error E_DUPLICATE_ROUTE: HEAD /f can never be reached: registered first with the same pattern and domain, GET /f at routes.ts:2:8 takes HEAD',
      );
      expect(stderr).toContain(
        'routes.ts:5:8: error E_DUPLICATE_ROUTE: ANY /e/{other} can never be reached: registered first with the same pattern and domain, ANY /e/{id} at routes.ts:4:8 takes every verb',
      );
    });

    it('routes a resource and a partial group expand to, and setMatch() routes with one regex', async () => {
      const stderr = await failingBuild(
        `Course.resource('/photos', 'Photos');
Course.put('/photos/{photo}', 'Shop@show');
Course.partialGroup('/{lang}', () => {
  Course.get('/about', 'Shop@show');
});
Course.get('/{locale}/about', 'Shop@show');
Course.all('/x', 'Shop@show').setMatch('/^\\/x(.*)$/i');
Course.match(['get'], '/y', 'Shop@show').setMatch('/^\\/x(.*)$/i');
`,
        { 'app/Components/Controller/Photos.ts': PHOTOS },
      );
      expect(stderr).toContain(
        'routes.ts:3:8: error E_DUPLICATE_ROUTE: PUT /photos/{photo} can never be reached: registered first with the same pattern and domain, PUT|PATCH /photos/{id} at routes.ts:2:8 takes PUT',
      );
      expect(stderr).toContain(
        'routes.ts:7:8: error E_DUPLICATE_ROUTE: GET /{locale}/about can never be reached: registered first with the same pattern and domain, GET /{lang}/about at routes.ts:5:10 takes GET',
      );
      expect(stderr).toContain(
        'routes.ts:9:8: error E_DUPLICATE_ROUTE: GET /y setMatch(/^\\/x(.*)$/i) can never be reached: registered first with the same pattern and domain, ANY /x setMatch(/^\\/x(.*)$/i) at routes.ts:8:8 takes GET',
      );
      expect(stderr).toContain('build failed: 3 errors');
    });
  });

  it('E_REGEX: a setMatch() PHP modifier JavaScript does not have', async () => {
    const stderr = await failingBuild(`Course.all('/x', 'Shop@show').setMatch('/x(.*)/U');\n`);
    expect(stderr).toContain(
      'routes.ts:2:31: error E_REGEX: setMatch(): the PHP regex modifier "U" has no JavaScript equivalent',
    );
  });

  it('E_METHOD: an implicit controller class that does not exist', async () => {
    const stderr = await failingBuild(`Course.controller('/animals', 'Zoo');\n`);
    expect(stderr).toContain(
      'routes.ts:2:8: error E_MODULE: no module for class App\\Components\\Controller\\Zoo',
    );
  });

  it('shows a code frame under each error, the column marked', async () => {
    const stderr = await failingBuild(`Course.get('/', 'Shop@missing');\n`, {}, runCli);
    expect(stderr).toContain(`> 2 | Course.get('/', 'Shop@missing');\n${' '.repeat(13)}^`);
  });

  it('--json prints one object for tools, errors located', async () => {
    const dir = writeApp({
      'routes.ts': HEAD + `Course.get('/', 'Shop@missing');\n`,
      'app/Components/Controller/Shop.ts': CONTROLLER,
    });
    apps.push(dir);
    const result = await runCli(['build', '--root', dir, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      errors: [
        {
          code: 'E_METHOD',
          message: 'class Shop has no method missing',
          location: 'routes.ts:2:8',
        },
      ],
    });
  });

  it('reports every error of a build at once', async () => {
    const stderr = await failingBuild(
      `Course.get('/a', 'Shop@nope');\nCourse.get('/b', 'Nope@show');\n`,
    );
    expect(stderr).toContain('E_METHOD');
    expect(stderr).toContain('E_MODULE');
    expect(stderr).toContain('build failed: 2 errors');
  });

  it('E_SETTING: only() or except() naming no action, or leaving none', async () => {
    const stderr = await failingBuild(
      `Course.resource('shops', 'Shop').except('crate' as never);\n` +
        `Course.resource('carts', 'Shop').only();\n` +
        `Course.resource('bags', 'Shop').only('delete' as never);\n`,
    );
    expect(stderr).toContain(
      'routes.ts:2:34: error E_SETTING: "crate" is no resource action\n  hint: did you mean create?',
    );
    expect(stderr).toContain(
      'routes.ts:3:34: error E_SETTING: only() leaves the resource no route\n  hint: name the actions to route: index, create, store, show, edit, update, destroy',
    );
    expect(stderr).toContain(
      'routes.ts:4:33: error E_SETTING: "delete" is no resource action\n  hint: did you mean destroy?',
    );
  });

  it('lists the errors in source order, whichever check found each', async () => {
    const stderr = await failingBuild(
      `Course.get('/a', 'Shop@nope');\n` +
        `Course.get('/b/{x}', 'Shop@show').where('x', '(');\n` +
        `Course.get('/c/{a-b}', 'Shop@show');\n`,
    );
    const lines = [...stderr.matchAll(/routes\.ts:(\d+):\d+: error/g)].map((m) => Number(m[1]));
    expect(lines).toEqual([2, 3, 4]);
  });
});

describe('build warnings', () => {
  async function warnings(routes: string, extra: Record<string, string> = {}) {
    const dir = writeApp({
      'routes.ts': HEAD + routes,
      'app/Components/Controller/Shop.ts': CONTROLLER,
      ...extra,
    });
    apps.push(dir);
    const result = await cli(['build', '--root', dir]);
    expect(result.code, result.stderr).toBe(0);
    return { dir, stderr: result.stderr };
  }

  it('resource routes whose methods the controller lacks are left out, with one warning per resource', async () => {
    const { stderr } = await warnings(
      `Course.resource('shops', 'Shop');\nCourse.resource('carts', 'Cart');\n`,
      {
        'app/Components/Controller/Cart.ts': `export class Cart {\n${['index', 'create', 'store', 'show', 'edit', 'update'].map((m) => `  ${m}() { return '${m}'; }\n`).join('')}}\n`,
      },
    );
    expect(stderr).toContain(
      'routes.ts:2:8: warning E_METHOD: class Shop has no method index (nor create, store, edit, update, destroy); the resource routes GET /shops, GET /shops/create, POST /shops, GET /shops/{id}/edit, PUT|PATCH /shops/{id}, DELETE /shops/{id} are left out\n  hint: its methods: show\n',
    );
    expect(stderr).toContain(
      'routes.ts:3:8: warning E_METHOD: class Cart has no method destroy; the resource route DELETE /carts/{id} is left out\n',
    );
    expect(stderr.match(/warning E_METHOD/g)).toHaveLength(2);
    const routes = await cli(['routes', '--root', apps[0]!, '--json']);
    expect(JSON.parse(routes.stdout).map((r: { name: string }) => r.name)).toEqual([
      'shops.show',
      'carts.index',
      'carts.create',
      'carts.store',
      'carts.show',
      'carts.edit',
      'carts.update',
    ]);
  });

  it('only() and except() pick the routes of a resource: the others are no warning', async () => {
    const { stderr, dir } = await warnings(
      `Course.resource('shops', 'Shop').only('show');\n` +
        `Course.resource('carts', 'Cart').except('create', 'edit');\n`,
      {
        'app/Components/Controller/Cart.ts': `export class Cart {\n${['index', 'store', 'show', 'update', 'destroy'].map((m) => `  ${m}() { return '${m}'; }\n`).join('')}}\n`,
      },
    );
    expect(stderr).not.toContain('warning');
    const routes = await cli(['routes', '--root', dir, '--json']);
    expect(JSON.parse(routes.stdout).map((r: { name: string }) => r.name)).toEqual([
      'shops.show',
      'carts.index',
      'carts.store',
      'carts.show',
      'carts.update',
      'carts.destroy',
    ]);
  });

  it('a route an earlier route always wins over is reported', async () => {
    const { stderr } = await warnings(
      `Course.get('/u/{id}', 'Shop@show');\nCourse.get('/u/me', 'Shop@show');\n`,
    );
    expect(stderr).toContain(
      'routes.ts:3:8: warning E_DUPLICATE_ROUTE: GET /u/me can never be reached: registered first and matching every request it matches, GET /u/{id} at routes.ts:2:8 takes GET',
    );
    expect(stderr).toContain('hint: register the more specific route first\n');
  });

  it("a catch-all in routes.ts that takes a routers/ file's routes: the hint says how files are read", async () => {
    const { stderr } = await warnings(
      `Course.get('/{path?}', 'Shop@show').where('path', '.*');\n`,
      {
        'routers/api.ts': `import { Course } from 'course-router';\nCourse.get('/api/shops', 'Shop@show');\n`,
      },
    );
    expect(stderr).toContain('GET /api/shops can never be reached');
    expect(stderr).toContain(
      'hint: register the more specific route first (routes.ts is read first, then the files of routers/ in name order: a catch-all goes in the routers/ file read last)',
    );
  });

  it('names the first of several earlier routes that take a static path, whatever their prefixes', async () => {
    const { stderr } = await warnings(
      `Course.get('/u/{id}', 'Shop@show');\nCourse.get('/{a}/me', 'Shop@show');\nCourse.get('/v/{id}', 'Shop@show');\nCourse.get('/u/me', 'Shop@show');\nCourse.get('/v/x', 'Shop@show');\n`,
    );
    expect(stderr).toContain(
      'GET /u/me can never be reached: registered first and matching every request it matches, GET /u/{id} at routes.ts:2:8 takes GET\n',
    );
    expect(stderr).toContain(
      'GET /v/x can never be reached: registered first and matching every request it matches, GET /v/{id} at routes.ts:4:8 takes GET\n',
    );
  });

  it('a route some of whose verbs an earlier route with the same pattern takes', async () => {
    const { stderr } = await warnings(
      `Course.get('/my/url', 'Shop@show');\nCourse.all('/my/url', 'Shop@show');\nCourse.get('/a/{id}', 'Shop@show');\nCourse.match(['post', 'get'], '/a/{key}', 'Shop@show');\n`,
    );
    expect(stderr).toContain(
      'routes.ts:3:8: warning E_DUPLICATE_ROUTE: ANY /my/url gets only the verbs earlier routes leave: registered first with the same pattern and domain, GET /my/url at routes.ts:2:8 takes GET, HEAD',
    );
    expect(stderr).toContain(
      'routes.ts:5:8: warning E_DUPLICATE_ROUTE: POST|GET /a/{key} gets only the verbs earlier routes leave: registered first with the same pattern and domain, GET /a/{id} at routes.ts:4:8 takes GET',
    );
    expect(stderr).toContain(
      'hint: register it first if it should answer those verbs too; otherwise leave them out of its verbs',
    );
  });

  it('an earlier route on every host takes the verbs of a route of one domain', async () => {
    const { stderr } = await warnings(
      `Course.get('/d/{id}', 'Shop@show');\nCourse.group({ domain: 'api.example.com' }, () => {\n  Course.match(['get', 'post'], '/d/{key}', 'Shop@show');\n});\n`,
    );
    expect(stderr).toContain(
      'routes.ts:4:10: warning E_DUPLICATE_ROUTE: GET|POST //api.example.com/d/{key} gets only the verbs earlier routes leave: registered first and matching every request it matches, GET /d/{id} at routes.ts:2:8 takes GET',
    );
  });

  it('two routes of one implicit controller are told apart by their methods', async () => {
    const { stderr } = await warnings(`Course.controller('/zoo', 'Zoo');\n`, {
      'app/Components/Controller/Zoo.ts':
        'export class Zoo {\n  getIndex() { return 1; }\n  anyIndex() { return 2; }\n}\n',
    });
    expect(stderr).toContain(
      'routes.ts:2:8: warning E_DUPLICATE_ROUTE: ANY /zoo gets only the verbs earlier routes leave: registered first with the same pattern and domain, GET /zoo (Zoo@getIndex) at routes.ts:2:8 takes GET, HEAD',
    );
  });

  it("a group's where naming a parameter none of its routes has; one some have is silent", async () => {
    const { stderr } = await warnings(
      [
        `Course.group({ prefix: '/blog', where: { slug: '[a-z-]+', sulg: '[a-z]+' } }, () => {`,
        `  Course.get('/', 'Shop@show');`,
        `  Course.get('/{slug}', 'Shop@show');`,
        `});`,
        `Course.group({ domain: '{sub}.example.test', where: { sub: '[a-z]+', id: '[0-9]+', page: '[0-9]+' } }, () => {`,
        `  Course.group({ prefix: '/n' }, () => Course.get('/{id}', 'Shop@show'));`,
        `});`,
        `Course.group({ where: { id: '[0-9]+' } }, () => Course.get('/', 'Shop@show'));`,
      ].join('\n') + '\n',
    );
    expect(stderr).toContain(
      `routes.ts:2:8: warning E_SETTING: the group's where names "sulg", which none of its routes has\n  hint: did you mean slug?\n`,
    );
    expect(stderr).toContain(
      `routes.ts:6:8: warning E_SETTING: the group's where names "page", which none of its routes has\n  hint: the parameters are id, sub\n`,
    );
    expect(stderr).toContain(
      `routes.ts:9:8: warning E_SETTING: the group's where names "id", which none of its routes has\n  hint: its routes have no parameters: leave it out\n`,
    );
    expect(stderr.match(/warning/g)).toHaveLength(3);
  });

  it('a leading or trailing // is trimmed; %25 and %2F, which request paths keep, match', async () => {
    const { dir, stderr } = await warnings(
      `Course.get('//evil.com/x//', 'Shop@show');\nCourse.get('/pct/100%25', 'Shop@show');\nCourse.get('/pct/a%2Fb', 'Shop@show');\n`,
    );
    expect(stderr).toBe('');
    const table = await importTable(dir);
    expect(table.routes.map((r) => r.url)).toEqual(['/evil.com/x', '/pct/100%25', '/pct/a%2Fb']);
    const served = await serve(table);
    try {
      for (const target of ['/evil.com/x', '/pct/100%25', '/pct/a%2Fb', '/pct/a%2fb'])
        expect((await send(served, 'GET', target)).status, target).toBe(200);
      expect((await send(served, 'GET', '/pct/a/b')).status).toBe(404);
    } finally {
      await served.close();
    }
  });

  it('is silent where no earlier route provably takes the requests of a route', async () => {
    const dir = writeApp({
      'routes.ts':
        HEAD +
        [
          // The same pattern on two domains, or on a domain after the same domain's other verbs.
          `Course.group({ domain: 'a.example.com' }, () => { Course.get('/same', 'Shop@show'); });`,
          `Course.group({ domain: 'b.example.com' }, () => { Course.get('/same', 'Shop@show'); });`,
          `Course.get('/same', 'Shop@show');`,
          // An optional parameter matches more than either route without it; both together
          // match what it does, which the build does not try to prove.
          `Course.get('/o', 'Shop@show');`,
          `Course.get('/o/{y}', 'Shop@show');`,
          `Course.get('/o/{x?}', 'Shop@show');`,
          // Other regexes, or other verbs, on one pattern.
          `Course.get('/n/{id}', 'Shop@show').where('id', '[0-9]+');`,
          `Course.get('/n/{id}', 'Shop@show').where('id', '\\d+');`,
          `Course.post('/n/{key}', 'Shop@show');`,
          // A setMatch() route and a plain route.
          `Course.all('/m', 'Shop@show').setMatch('/^\\/m$/');`,
          `Course.get('/m/{x}', 'Shop@show');`,
          // HEAD first, then GET: the GET route keeps GET.
          `Course.match(['head'], '/h', 'Shop@show');`,
          `Course.get('/h', 'Shop@show');`,
        ].join('\n') +
        '\n',
      'app/Components/Controller/Shop.ts': CONTROLLER,
    });
    apps.push(dir);
    const result = await runCli(['build', '--root', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('course routes', () => {
  it('prints the table readable in a terminal, and as JSON', async () => {
    const dir = writeApp({
      'routes.ts':
        HEAD +
        `Course.group({ prefix: '/admin', middleware: 'Middleware\\\\Gate:x' }, () => {\n  Course.get('/{id}', 'Shop@show').name('admin.show');\n});\n`,
      'app/Components/Controller/Shop.ts': CONTROLLER,
      'app/Middleware/Gate.ts': 'export class Gate { handle() {} }\n',
    });
    apps.push(dir);
    const text = await runCli(['routes', '--root', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(
      /^METHOD\s+URL\s+NAME\s+HANDLER\s+MIDDLEWARE\s+SOURCE$/,
    );
    expect(text.stdout).toMatch(
      /GET\s+\/admin\/\{id\}\s+admin\.show\s+Shop@show\s+Middleware\\Gate:x\s+routes\.ts:3:10/,
    );
    const json = JSON.parse((await cli(['routes', '--root', dir, '--json'])).stdout);
    expect(json).toEqual([
      {
        methods: ['GET'],
        url: '/admin/{id}',
        name: 'admin.show',
        handler: 'Shop@show',
        parameters: [{ name: 'id', optional: false, regex: '\\w+' }],
        middleware: ['Middleware\\Gate:x'],
        handlers: [],
        source: 'routes.ts:3:10',
      },
    ]);
  });
});
