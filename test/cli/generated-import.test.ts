import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApp,
  CLI,
  importTable,
  removeApp,
  runCli,
  serve,
  writeApp,
  writeFile,
} from '../_utils.js';

// A controller a route names as `[UserController, 'show']` is imported by the route files, and
// imports `url` from the generated module, which imports the controller back: the build must
// evaluate the route files without that module (it may not exist yet, or it is the cycle).
const ROUTES = (extra = '') => `import { Course } from 'course-router';
import { UserController } from './app/Http/Controllers/UserController.js';
Course.get('/user/{id}', [UserController, 'show']).name('user.show');
${extra}`;
const CONTROLLER = `import { url } from '../../../generated/routes.gen.js';
export class UserController {
  show(id: string): string {
    return url('user.show', { id });
  }
}
`;

let dir: string;

beforeAll(() => {
  dir = writeApp({
    'routes.ts': ROUTES(),
    'app/Http/Controllers/UserController.ts': CONTROLLER,
  });
});
afterAll(() => removeApp(dir));

describe('a controller that imports url() from the generated module', () => {
  it('builds before the module exists, and again once the module imports it back', async () => {
    await buildApp(dir);
    await buildApp(dir);
    const check = await runCli(['build', '--root', dir, '--check']);
    expect([check.code, check.stderr]).toEqual([0, '']);
    const served = await serve(await importTable(dir));
    try {
      expect(await (await served.app.request('/user/7')).text()).toBe('/user/7');
    } finally {
      await served.close();
    }
  });

  it('rebuilds under course watch, build after build', async () => {
    const child = spawn(process.execPath, [CLI, 'watch', '--root', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const until = async (predicate: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!predicate() && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(predicate(), output).toBe(true);
    };
    try {
      await until(() => output.includes('watching for changes'));
      writeFile(dir, 'routes.ts', ROUTES(`Course.get('/about', () => 'about').name('about');`));
      await until(() => /wrote .*2 routes/.test(output));
      writeFile(dir, 'routes.ts', ROUTES(`Course.get('/team', () => 'team').name('team');`));
      await until(() =>
        readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8').includes('/team'),
      );
      expect(output).not.toMatch(/error/i);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('a url() call while the route files are evaluated is an error saying so', async () => {
    writeFile(dir, 'routes.ts', ROUTES());
    writeFile(
      dir,
      'app/Http/Controllers/UserController.ts',
      `${CONTROLLER}export const HOME = url('user.show', { id: 1 });\n`,
    );
    const result = await runCli(['build', '--root', dir]);
    expect(result.code).toBe(1);
    // At the call, in the controller: no frame of the route file runs it.
    expect(result.stderr).toMatch(
      /app\/Http\/Controllers\/UserController\.ts:7:\d+: error E_LOAD: evaluating the route file failed: course: url\(\) was called while course build evaluated the route files; call it while serving a request/,
    );
  });

  it('a controller named by a string, calling url() at its top level: the build says so, at the call', async () => {
    const own = writeApp({
      'routes.ts':
        "import { Course } from 'course-router';\nCourse.get('/user/{id}', 'UserController@show').name('user.show');\n",
      'app/Http/Controllers/UserController.ts': `${CONTROLLER}export const HOME = url('user.show', { id: 1 });\n`,
      'course.config.ts': "export default { defaultNamespace: 'App\\\\Http\\\\Controllers' };\n",
    });
    try {
      const result = await runCli(['build', '--root', own]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'app/Http/Controllers/UserController.ts:7:21: error E_LOAD: url() runs as app/Http/Controllers/UserController.ts loads, before the routes exist: the server would fail to start',
      );
    } finally {
      removeApp(own);
    }
  });

  it('a module such a controller imports, calling url() at its top level: loading the routes says so', async () => {
    // An app of its own: this process holds the modules of the one above.
    const own = writeApp({
      'routes.ts':
        "import { Course } from 'course-router';\nCourse.get('/user/{id}', 'UserController@show').name('user.show');\n",
      'app/Http/Controllers/UserController.ts': `import { HOME } from './links.js';\n${CONTROLLER}export { HOME };\n`,
      'app/Http/Controllers/links.ts': `import { url } from '../../../generated/routes.gen.js';\nexport const HOME = url('user.show', { id: 1 });\n`,
      'course.config.ts': "export default { defaultNamespace: 'App\\\\Http\\\\Controllers' };\n",
    });
    try {
      // The build reads the controller, not the modules it imports: the server, loading the
      // routes, runs them.
      await buildApp(own);
      await expect(importTable(own)).rejects.toThrow(
        /^course: url\(\) was called before the routes were loaded, at the top level of a module the generated module imports \(a controller, a middleware\): call it inside a function$/,
      );
    } finally {
      removeApp(own);
    }
  });
});
