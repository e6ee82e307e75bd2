import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import { removeApp, writeApp } from '../_utils.js';

const HEAD = `import { Course } from 'course-router';\n`;
const ARTICLES = `export class ArticleController {
  index() { return 'list'; }
  create() { return 'form'; }
  store() { return 'stored'; }
  show(id: string) { return id; }
  edit(id: string) { return id; }
  update(id: string) { return id; }
  destroy(id: string) { return id; }
}
`;
const CONTROLLER_FILE = 'app/Components/Controller/ArticleController.ts';

const apps: string[] = [];
afterEach(() => {
  for (const dir of apps.splice(0)) removeApp(dir);
});

async function build(routes: string, extra: Record<string, string> = {}) {
  const dir = writeApp({ 'routes.ts': HEAD + routes, [CONTROLLER_FILE]: ARTICLES, ...extra });
  apps.push(dir);
  return cli(['build', '--root', dir]);
}

describe("a multi-route builder's where() names a parameter of one of its routes", () => {
  it.each([
    ['ID', 'did you mean id?'],
    ['ids', 'did you mean id?'],
    ['slug', 'the parameters are id'],
  ])(
    "resource('articles', 'ArticleController').where(%j) is an error at the call",
    async (name, hint) => {
      const result = await build(
        `Course.resource('articles', 'ArticleController').where('${name}', '[0-9]+');\n`,
      );
      expect(result.code, result.stdout).toBe(1);
      expect(result.stderr).toContain(
        `routes.ts:2:50: error E_SETTING: where() names "${name}", which is a parameter of none of the resource's routes (/articles, /articles/create, /articles/{id}, /articles/{id}/edit)\n  hint: ${hint}\n`,
      );
      expect(result.stderr.match(/E_SETTING/g)).toHaveLength(1);
    },
  );

  it('the same with a class reference, inside a prefixed group', async () => {
    const result = await build(
      `import { ArticleController } from './app/Components/Controller/ArticleController.js';
Course.group({ prefix: '/blog/{lang}' }, () => {
  Course.resource('articles', ArticleController).where({ lang: '[a-z]{2}', Id: '[0-9]+' });
});
`,
    );
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toMatch(
      /routes\.ts:4:50: error E_SETTING: where\(\) names "Id", which is a parameter of none of the resource's routes \(\/blog\/\{lang\}\/articles, .*\)\n {2}hint: did you mean id\?\n/,
    );
    expect(result.stderr).not.toContain('"lang"');
  });

  it("a name some of the resource's routes have builds, and constrains them", async () => {
    const result = await build(
      `Course.resource('articles', 'ArticleController').where('id', '[0-9]+');\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('E_SETTING');
  });

  it("an implicit controller's where() is checked against all its routes at once", async () => {
    const controller = `export class Pages {
  getIndex() { return 'index'; }
  getShow(id: string) { return id; }
}
`;
    const extra = { 'app/Components/Controller/Pages.ts': controller };
    const good = await build(
      `Course.controller('/pages', 'Pages').where('id', '[0-9]+');\n`,
      extra,
    );
    expect(good.code, good.stderr).toBe(0);
    const bad = await build(`Course.controller('/pages', 'Pages').where('di', '[0-9]+');\n`, extra);
    expect(bad.code, bad.stdout).toBe(1);
    expect(bad.stderr).toContain(
      `routes.ts:2:38: error E_SETTING: where() names "di", which is a parameter of none of the controller's routes (/pages, /pages/show/{id})\n  hint: did you mean id?\n`,
    );
  });
});

describe("a controller's or middleware's syntax error fails the build at its place", () => {
  it.each([
    ['  show(id: string) { return { id self }; }', 5, 34, "',' expected."],
    ['  shwo(id: string {', 5, 19, "',' expected."],
  ])('%s', async (line, row, column, message) => {
    const broken = ARTICLES.replace('  show(id: string) { return id; }', line);
    const result = await build(`Course.get('/a/{id}', 'ArticleController@index');\n`, {
      [CONTROLLER_FILE]: broken,
    });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toContain(
      `${CONTROLLER_FILE}:${row}:${column}: error E_LOAD: syntax error: ${message}\n`,
    );
    expect(result.stderr).toContain(`> ${row} | ${line}\n`);
    expect(result.stderr).not.toContain('E_METHOD');
  });

  it('a middleware named as a string, and a class imported by the route file', async () => {
    const result = await build(
      `import { ArticleController } from './app/Components/Controller/ArticleController.js';
Course.get('/a', [ArticleController, 'index']).addMiddleware('Middleware\\\\Auth');
`,
      { 'app/Middleware/Auth.ts': `export class Auth {\n  handle() { return ; ]\n}\n` },
    );
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toContain('app/Middleware/Auth.ts:2:23: error E_LOAD: syntax error:');
  });
});

describe('a misspelt controller or middleware class names the near one', () => {
  it.each([
    [
      `Course.get('/a/{id}', 'ArticleControler@show');`,
      'routes.ts:2:8: error E_MODULE: no module for class App\\Components\\Controller\\ArticleControler (looked for app/Components/Controller/ArticleControler.ts)\n  hint: did you mean ArticleController? (app/Components/Controller/ArticleController.ts)\n',
    ],
    [
      `Course.get('/a', 'ArticleController@index').addMiddleware('Middleware\\\\Auht:admin');`,
      'routes.ts:2:59: error E_MODULE: no module for class App\\Middleware\\Auht (looked for app/Middleware/Auht.ts)\n  hint: did you mean Auth? (app/Middleware/Auth.ts)\n',
    ],
    [
      // In a group's list: the string itself, not the group's call.
      `Course.group({ prefix: '/g', middleware: ['Middleware\\\\Auth', 'Middleware\\\\Auht'] }, () => { Course.get('/a', 'ArticleController@index'); });`,
      'routes.ts:2:63: error E_MODULE: no module for class App\\Middleware\\Auht (looked for app/Middleware/Auht.ts)\n  hint: did you mean Auth? (app/Middleware/Auth.ts)\n',
    ],
    [
      `Course.get('/a', 'Unrelated@index');`,
      'routes.ts:2:8: error E_MODULE: no module for class App\\Components\\Controller\\Unrelated (looked for app/Components/Controller/Unrelated.ts)\n  hint: check the class name and namespace, or `namespaces` in course.config.ts\n',
    ],
  ])('%s', async (routes, error) => {
    const result = await build(`${routes}\n`, {
      'app/Middleware/Auth.ts': `export class Auth {\n  handle() {}\n}\n`,
    });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toContain(error);
  });
});
