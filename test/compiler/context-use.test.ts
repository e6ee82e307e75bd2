import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_EXPORTS, CONTEXT_FREE } from '../../compiler/context-exports.js';
import { contextReader } from '../../compiler/context-use.js';
import { SourceIndex } from '../../compiler/source-index.js';
import { removeApp, writeApp } from '../_utils.js';

const apps: string[] = [];
afterEach(() => apps.splice(0).forEach(removeApp));

/** Where the app of `files` reads the request context, from its `routes.ts`. */
function readerOf(files: Record<string, string>, entries = ['routes.ts']): string | undefined {
  const dir = writeApp(files);
  apps.push(dir);
  return contextReader(
    entries.map((file) => path.join(dir, file)),
    dir,
    path.join(dir, 'generated/routes.gen.ts'),
    new SourceIndex(),
  );
}

const COURSE = `import { Course } from 'course-router';\n`;

describe('the request context', () => {
  it('is not needed by an app that imports only route definitions, errors and types', () => {
    expect(
      readerOf({
        'routes.ts': `import { Course, HttpException, Middleware, type CourseRequest } from 'course-router';
import type { Store } from 'course-router';
import { RedisStore } from 'course-router/redis';
import { readFileSync } from 'node:fs';
import { lib } from './lib/words.js';
import table from './generated/routes.gen.js';
let x: import('course-router').Params;
Course.get('/', () => lib());`,
        'lib/words.ts': `import { hashPassword } from 'course-router';\nexport const lib = () => 'words';`,
        'generated/routes.gen.ts': `export default {};`,
      }),
    ).toBeUndefined();
  });

  it('is needed by a route file that imports a request helper, named with its place', () => {
    expect(readerOf({ 'routes.ts': `${COURSE}import { input } from 'course-router';\n` })).toBe(
      'routes.ts:2:1: imports input from course-router',
    );
  });

  it('is needed by any module the app reaches through its own imports and re-exports', () => {
    expect(
      readerOf({
        'routes.ts': `${COURSE}import { go } from './a.js';`,
        'a.ts': `export { go } from './b/index.js';`,
        'b/index.ts': `export { go } from '../c.mjs';`,
        'c.mts': `import * as course from 'course-router';\nexport const go = () => course.request();`,
      }),
    ).toBe('c.mts:1:1: imports * from course-router');
  });

  it('is needed by a class a route names, a helper re-exported, or url() of the generated module', () => {
    const controller = {
      'routes.ts': COURSE,
      'app/Home.ts': `import { Controller } from 'course-router';\nexport class Home extends Controller {}`,
    };
    expect(readerOf(controller, ['routes.ts', 'app/Home.ts'])).toBe(
      'app/Home.ts:1:1: imports Controller from course-router',
    );
    expect(readerOf({ 'routes.ts': `export { toRoute as go } from 'course-router';` })).toBe(
      'routes.ts:1:1: imports toRoute from course-router',
    );
    expect(
      readerOf({
        'routes.ts': `${COURSE}import { url } from './generated/routes.gen.js';`,
        'generated/routes.gen.ts': `export function url() {}`,
      }),
    ).toBe('routes.ts:2:1: imports url from the generated module');
  });

  it('follows the paths of tsconfig.json', () => {
    expect(
      readerOf({
        'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@lib/*': ['./src/*'] } } }),
        'routes.ts': `${COURSE}import '@lib/boot';`,
        'src/boot.ts': `import { response } from 'course-router';`,
      }),
    ).toBe('src/boot.ts:1:1: imports response from course-router');
  });

  it('is needed by a package that depends on course-router, and not by one that does not', () => {
    const files = (depends: boolean) => ({
      'routes.ts': `${COURSE}import { helper } from 'course-plugin';`,
      'node_modules/course-plugin/package.json': JSON.stringify({
        name: 'course-plugin',
        main: 'index.js',
        peerDependencies: depends ? { 'course-router': '*' } : { other: '*' },
      }),
      'node_modules/course-plugin/index.js': `export const helper = 1;`,
    });
    expect(readerOf(files(true))).toBe(
      'routes.ts:2:1: imports course-plugin, a package that depends on course-router',
    );
    expect(readerOf(files(false))).toBeUndefined();
    expect(
      readerOf({
        'package.json': JSON.stringify({ type: 'module', imports: { '#router': 'course-router' } }),
        'routes.ts': `${COURSE}import { Course as Router } from '#router';`,
      }),
    ).toBe('routes.ts:2:1: imports course-router as #router');
  });

  it('is needed wherever the build cannot follow: a computed import, an unresolved one, another way to load course-router', () => {
    expect(readerOf({ 'routes.ts': `${COURSE}const m = 'x';\nawait import(m);` })).toBe(
      'routes.ts:3:7: loads a module by a computed name',
    );
    expect(readerOf({ 'routes.ts': `${COURSE}import './missing.js';` })).toBe(
      'routes.ts:2:1: imports ./missing.js, which the build cannot resolve',
    );
    expect(
      readerOf({
        'routes.ts': `${COURSE}import { createRequire } from 'node:module';\nconst c = createRequire(import.meta.url)('course-router');`,
      }),
    ).toBe('routes.ts:3:42: names course-router outside an import the build can follow');
    // A comment naming it is not code.
    expect(
      readerOf({
        'routes.ts': `${COURSE}// Routes for course-router, see 'course-router' docs.\n`,
      }),
    ).toBeUndefined();
  });

  it('is read by each value export of course-router in exactly one list', async () => {
    const exports = Object.keys(await import('course-router'));
    const unlisted = exports.filter(
      (name) => !CONTEXT_EXPORTS.has(name) && !CONTEXT_FREE.has(name),
    );
    const both = exports.filter((name) => CONTEXT_EXPORTS.has(name) && CONTEXT_FREE.has(name));
    expect({ unlisted, both }).toEqual({ unlisted: [], both: [] });
    // Every name listed is still exported.
    expect([...CONTEXT_EXPORTS, ...CONTEXT_FREE].filter((name) => !exports.includes(name))).toEqual(
      [],
    );
  });
});
