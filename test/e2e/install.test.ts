import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../_redis.js';
import { npm, packedTarballs, run, startServer, text, TSC, type Running } from '../_install.js';
import { CLI, removeApp, ROOT, writeFile } from '../_utils.js';

// The packages as npm would publish them, installed into fresh apps with npm itself: what a
// user on another machine gets. Installs reach the npm registry for the packages' own
// dependencies; no C or C++ compiler is available to them (CC=false CXX=false).

let packs: string;
const work: string[] = [];
const servers: Running[] = [];

beforeAll(async () => {
  packs = await packedTarballs();
}, 300_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of work) removeApp(dir);
});

describe('the packages, installed as a user installs them', () => {
  it('packs one tarball per package', () => {
    expect(readdirSync(packs).sort()).toEqual([
      'course-compiler-0.1.0.tgz',
      'course-kit-0.1.0.tgz',
      'course-router-0.1.0.tgz',
    ]);
  });

  it('the runtime alone installs without a compiler or build tools and serves a built route', async () => {
    const app = temp('course-runtime-only-');
    writeFile(app, 'package.json', JSON.stringify({ name: 'served', type: 'module' }));
    await npm(app, ['install', '--omit=dev', path.join(packs, 'course-router-0.1.0.tgz')]);
    // One package, as hono is: its parsers and its bcrypt come bundled.
    const installed = readdirSync(path.join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['course-router']);

    writeFile(app, 'routes.ts', ROUTES);
    writeFile(app, 'app/Components/Controller/UserController.ts', CONTROLLER);
    writeFile(app, 'server.ts', SERVER);
    writeFile(app, 'tsconfig.json', TSCONFIG);
    // Built on a development machine (this repository's `course`), run with the runtime alone.
    await run(process.execPath, [CLI, 'build', '--root', app]);
    await run(process.execPath, [TSC, '-p', app]);
    const base = await start(app, ['dist/server.js']);
    expect(await text(`${base}/user/42`)).toBe('{"id":"42","self":"/user/42"}');
    expect((await fetch(`${base}/user/x`)).status).toBe(404);
  }, 300_000);

  it('course init makes an app that installs, builds, type-checks and serves its typed url() route', async () => {
    const parent = temp('course-init-');
    await run(process.execPath, [CLI, 'init', 'my-app', '--packages', packs], { cwd: parent });
    const app = path.join(parent, 'my-app');
    const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      type: string;
      scripts: Record<string, string>;
    };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.scripts).sort()).toEqual([
      'build',
      'check',
      'dev',
      'start',
      'test',
    ]);
    await npm(app, ['install']);
    // The test it wrote passes, through `app.request()`.
    expect((await npm(app, ['test'])).stdout).toMatch(/# pass 2\n# fail 0\n/);
    const course = (...args: string[]) =>
      run(process.execPath, [path.join(app, 'node_modules/course-kit/dist/index.js'), ...args], {
        cwd: app,
      }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(await course('--version')).toMatchObject({ stdout: '0.1.0\n', stderr: '' });
    for (const name of ['course-router', 'course-kit', 'course-compiler']) {
      const license = readFileSync(path.join(app, 'node_modules', name, 'LICENSE'), 'utf8');
      expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the Course authors\n/);
      const readme = readFileSync(path.join(app, 'node_modules', name, 'README.md'), 'utf8');
      expect(readme).toMatch(new RegExp(`^# ${name}\n`));
    }
    // A test of the app is type-checked with it, and not compiled into `dist/`.
    writeFile(
      app,
      'test/home.test.ts',
      `import { url } from '../generated/routes.gen.js';\nexport const home: string = url('home');\n`,
    );
    await npm(app, ['run', 'build']);
    expect(existsSync(path.join(app, 'dist/server.js'))).toBe(true);
    expect(existsSync(path.join(app, 'dist/test'))).toBe(false);
    await npm(app, ['run', 'check']);
    const base = await start(app, ['dist/server.js']);
    expect(await text(`${base}/`)).toBe('<a href="/hello/world">Say hello</a>');
    expect(await text(`${base}/hello/ada`)).toBe('{"greeting":"Hello, ada!","self":"/hello/ada"}');

    // A wrong `url()` call is a type error.
    const controller = path.join(app, 'app/Components/Controller/HomeController.ts');
    writeFileSync(
      controller,
      readFileSync(controller, 'utf8').replace("url('hello', { name })", "url('hello', {})"),
    );
    writeFile(
      app,
      'test/home.test.ts',
      `import { url } from '../generated/routes.gen.js';\nurl('nope');\n`,
    );
    const failed = await npm(app, ['run', 'check']).catch((error: { stdout: string }) => error);
    expect(String((failed as { stdout: string }).stdout)).toMatch(/HomeController\.ts.*error TS/);
    // ... in a test too: `check` type-checks what `build` leaves out.
    expect(String((failed as { stdout: string }).stdout)).toMatch(/home\.test\.ts.*error TS/);
  }, 600_000);

  it('the build tools name the install a database command needs, in one line', async () => {
    const parent = temp('course-init-db-');
    await run(process.execPath, [CLI, 'init', 'app', '--packages', packs], { cwd: parent });
    const app = path.join(parent, 'app');
    await npm(app, ['install']);
    const bin = path.join(app, 'node_modules/course-kit/dist/index.js');
    const failed = (args: string[]) =>
      run(process.execPath, [bin, ...args], { cwd: app }).catch(
        (error: { code: number; stderr: string }) => error,
      );
    // The generator writes nothing that would not compile; migrate on a configuration already there.
    expect(await failed(['create:model', 'Post'])).toMatchObject({
      code: 1,
      stderr:
        'course: create:model needs the package "knex", which is not installed: npm install knex better-sqlite3\n',
    });
    expect(existsSync(path.join(app, 'app/Components/Model'))).toBe(false);
    writeFile(
      app,
      'app/Database/config.ts',
      "export default { client: 'better-sqlite3', connection: { filename: ':memory:' } };\n",
    );
    expect(await failed(['migrate'])).toMatchObject({
      code: 1,
      stderr:
        'course: course-router/db needs the package "knex", which is not installed: npm install knex better-sqlite3\n',
    });
  }, 300_000);

  it('course init refuses a folder that already holds an app', async () => {
    const parent = temp('course-init-again-');
    await run(process.execPath, [CLI, 'init', 'a'], { cwd: parent });
    const again = await run(process.execPath, [CLI, 'init', 'a'], { cwd: parent }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(again).toMatchObject({ code: 1 });
    expect((again as { stderr: string }).stderr).toMatch(
      /already has package\.json.*nothing was written/,
    );
  });

  it('course init --packages with a tarball missing writes nothing, and says how to make them', async () => {
    const parent = temp('course-init-packs-');
    const packs = path.join(parent, 'packs');
    mkdirSync(packs);
    writeFileSync(path.join(packs, 'course-router-0.1.0.tgz'), '');
    const failed = await run(process.execPath, [CLI, 'init', 'a', '--packages', packs], {
      cwd: parent,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(
      /course-kit-0\.1\.0\.tgz, .*course-compiler-0\.1\.0\.tgz not found: run `npm pack --workspaces --pack-destination .*`.*nothing was written/,
    );
    expect(existsSync(path.join(parent, 'a'))).toBe(false);
  });

  it('course init names a folder outside the working directory by its absolute path', async () => {
    const [parent, elsewhere] = [temp('course-init-cwd-'), temp('course-init-far-')];
    const target = path.join(elsewhere, 'app');
    const made = await run(process.execPath, [CLI, 'init', target], { cwd: parent });
    expect(made.stdout).toContain(`cd ${target} && npm install && npm run dev`);
    const near = await run(process.execPath, [CLI, 'init', path.join(parent, 'near')], {
      cwd: parent,
    });
    expect(near.stdout).toContain('cd near && npm install && npm run dev');
    expect(near.stdout).not.toContain('runs it');
    const deno = await run(process.execPath, [CLI, 'init', 'on-deno', '--runtime', 'deno'], {
      cwd: parent,
    });
    expect(deno.stdout).toContain(
      '(deno runs it: have it on the PATH, or npm install --save-dev deno)',
    );
  });
});

// --- internal ---

const ROUTES = `import { Course } from 'course-router';
Course.get('/user/{id}', 'UserController@show').where('id', '[0-9]+').name('user.show');
`;

const CONTROLLER = `import { url } from '../../../generated/routes.gen.js';
export class UserController {
  show(id: string) {
    return { id, self: url('user.show', { id }) };
  }
}
`;

const SERVER = `import { Course } from 'course-router';
import routes from './generated/routes.gen.js';
const server = await Course.start(routes).listen(Number(process.env.PORT), '127.0.0.1');
console.log('listening on ' + JSON.stringify(server.address()));
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    rootDir: '.',
    outDir: 'dist',
  },
  include: ['**/*.ts'],
  exclude: ['node_modules', 'dist'],
});

function temp(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  work.push(dir);
  return dir;
}

/** Starts `node <args>` in `cwd` on a free port and waits for it to listen; its base URL. */
async function start(cwd: string, args: string[]): Promise<string> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  servers.push(await startServer(process.execPath, args, { cwd, env, port }));
  return `http://127.0.0.1:${port}`;
}
