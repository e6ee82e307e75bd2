import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { send, servedApp, tsc, tsconfig } from '../_utils.js';

const ROUTES = `import { Course, request } from 'course-router';
import type { CourseRequest } from 'course-router';
import { shout } from './app/shout.js';

const PREFIX = 'main';

Course.get('/', () => \`\${PREFIX} home\`).name('home');
Course.get('/user/{id}', 'UserController@show').where('id', '[0-9]+').name('user.show');
Course.group({ prefix: '/admin', namespace: 'Admin', middleware: 'Middleware\\\\Tag:admin' }, () => {
  Course.get('/user/{id}', 'UserController@show').name('admin.user');
});
// The type of \`from\` is one the closures module cannot name: tsc must not check that module.
Course.get('/typed/{id}', (id) => { const from: CourseRequest = request(); return shout(id) + (from.method === 'GET' ? '' : '!'); });
Course.get('/rewrite', () => {
  request().setRewriteCallback('UserController@show');
});
`;

const API = `import { Course } from 'course-router';

const PREFIX = 'api';

Course.get('/api/{thing}', (thing: string) => \`\${PREFIX} \${thing}\`).name('api.thing');
`;

const app = servedApp({
  'routes.ts': ROUTES,
  'routers/api.ts': API,
  'app/shout.ts': 'export const shout = (text: string): string => text.toUpperCase();\n',
  'app/Components/Controller/UserController.ts':
    'export class UserController {\n  show(id?: string) {\n    return `main user ${id}`;\n  }\n}\n',
  'app/Components/Controller/Admin/UserController.ts':
    'export class UserController {\n  show(id: string) {\n    return `admin user ${id}`;\n  }\n}\n',
  'app/Middleware/Tag.ts':
    "export class Tag {\n  handle(_request: unknown, role: string) {\n    if (role !== 'admin') return new Response('wrong role', { status: 500 });\n  }\n}\n",
  'tsconfig.json': tsconfig(['*.ts', 'routers', 'generated', 'app']),
});

const main = () => readFileSync(path.join(app.dir, 'generated/routes.gen.ts'), 'utf8');
const closures = () => readFileSync(path.join(app.dir, 'generated/routes.closures.gen.ts'), 'utf8');
/** The line of `file` that has `text`, counted from 1. */
const lineOf = (file: string, text: string) =>
  readFileSync(path.join(app.dir, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

describe('the generated module', () => {
  it('lists each route on one line: number, verbs, URL, handler as written, where, name', () => {
    const code = main();
    const table = code.slice(code.indexOf('new RouteList('), code.indexOf('`,\n);'));
    const rows = table.split('\n').filter((line) => line.startsWith('['));
    const user = lineOf('routes.ts', "'/user/{id}'");
    const admin = lineOf('routes.ts', "'/user/{id}', 'UserController@show').name('admin");
    const api = lineOf('routers/api.ts', "'/api/{thing}'");
    expect(rows[0]).toMatch(
      /^\[0,"GET","\/","closure routes\.ts:\d+","routes\.ts:\d+:\d+","home",\{"sync":true\}\]$/,
    );
    expect(rows[1]).toBe(
      `[1,"GET","/user/{id}","UserController@show","routes.ts:${user}:8","user.show",{"sync":true}]`,
    );
    // The Admin namespace's class of the same name is told apart, and its middleware is as written.
    expect(rows[2]).toBe(
      `[2,"GET","/admin/user/{id}","UserController#2@show","routes.ts:${admin}:10","admin.user",{"middleware":["Middleware\\\\Tag:admin"],"sync":true}]`,
    );
    expect(rows[5]).toBe(
      `[5,"GET","/api/{thing}","closure routers/api.ts:${api}","routers/api.ts:${api}:8","api.thing",{"sync":true}]`,
    );
    expect(rows).toHaveLength(6);
    expect(main()).toContain("  UserController,\n  'UserController#2': UserController$2,");
  });

  it('names the route each answer of the matcher returns, next to it', () => {
    const code = main();
    for (const [comment, route] of [
      ['// GET /user/{id} user.show', 1],
      ['// GET /admin/user/{id} admin.user', 2],
      ['// GET /api/{thing} api.thing', 5],
    ] as const) {
      const at = code.indexOf(comment);
      expect(at, comment).toBeGreaterThan(-1);
      const block = code.slice(at, code.indexOf('\n  }\n', at));
      expect(block).toContain(`$routes.at(${route})`);
    }
    expect(code).toMatch(
      /return method === 'GET' \|\| method === 'HEAD'\s*\? \$routes\.hit\(0\)\s*: undefined; \/\/ GET \/ home/,
    );
  });

  it('imports course-router once, through its internal entry, and leaves the closures beside it', () => {
    const code = main();
    expect(code).not.toContain('@ts-nocheck');
    expect(code.match(/from 'course-router[^']*'/g)).toEqual(["from 'course-router/internal'"]);
    expect(code).toContain("import { closures } from './routes.closures.gen.js';");
    const hoisted = closures();
    expect(hoisted).toContain('// @ts-nocheck');
    // One scope per route file: each file's `PREFIX`, each closure under its route's number.
    expect(hoisted).toMatch(/const PREFIX = 'main';[^]*0: \(\) => `\$\{PREFIX\} home`/);
    expect(hoisted).toMatch(/const PREFIX = 'api';[^]*5: \(thing: string\) =>/);
    expect(hoisted.match(/from 'course-router'/g)).toHaveLength(1);
  });

  it('serves every route, the two classes of one name each its own, through both adapters', async () => {
    const body = async (target: string) => (await send(app.served, 'GET', target)).body;
    expect(await body('/')).toBe('main home');
    expect(await body('/user/5')).toBe('main user 5');
    expect(await body('/admin/user/7')).toBe('admin user 7');
    expect(await body('/typed/abc')).toBe('ABC');
    expect(await body('/api/x')).toBe('api x');
    // A rewrite to 'Class@method' finds the first route of that name, whose class is the app's.
    expect(await body('/rewrite')).toBe('main user undefined');
    const routes = app.served.app.table.routes;
    expect(routes[2]!.handler).toBe('UserController@show');
    expect(routes[2]!.source).toBe(`routes.ts:${lineOf('routes.ts', "name('admin")}:10`);
  });

  it('is type-checked by tsc, the closures module apart', async () => {
    const { output } = await tsc(app.dir);
    expect(output).toBe('');
  });
});
