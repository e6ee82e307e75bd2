import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './_utils.js';

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('dist/') && !f.startsWith('node_modules/'))
    .map((f) => path.join(folder, f));
}

function imports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const COMPILE_TIME = [
  'ts-morph',
  'prettier',
  'regexp-tree',
  'chokidar',
  'commander',
  'tsx',
  'typescript',
  'recheck',
];

// Drivers a server installs only when it uses them: optional peer dependencies of the runtime.
const DRIVERS = ['ioredis', 'knex', 'better-sqlite3', 'bcrypt'];

describe('folder boundaries', () => {
  it('runtime/ imports neither compiler/, cli/ nor build-time packages', () => {
    for (const file of sources('runtime')) {
      for (const spec of imports(file)) {
        expect(spec, file).not.toMatch(/(^|\/)(compiler|cli)(\/|$)/);
        expect(COMPILE_TIME, `${file} imports ${spec}`).not.toContain(spec.split('/')[0]);
      }
    }
  });

  it('compiler/ does not import cli/, and reaches the runtime only as the course-router package', () => {
    for (const file of sources('compiler')) {
      for (const spec of imports(file)) expect(spec, file).not.toMatch(/(^|\/)(cli|runtime)(\/|$)/);
    }
  });

  it('cli/ reaches the compiler and the runtime only as packages', () => {
    for (const file of sources('cli')) {
      for (const spec of imports(file))
        expect(spec, file).not.toMatch(/^\.\.?\/.*(compiler|runtime)/);
    }
  });

  it('the runtime package depends on no build-time package and on no driver or native addon', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'runtime/package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      expect([...COMPILE_TIME, ...DRIVERS], name).not.toContain(name);
    }
  });

  it('the generated demo module imports only course-router/internal, its closures and the app', () => {
    for (const spec of imports('generated/routes.gen.ts')) {
      const allowed = ['course-router/internal', './routes.closures.gen.js'];
      expect(allowed.includes(spec) || spec.startsWith('../fixtures/app/'), spec).toBe(true);
    }
    // The closures import what the route files gave them: course-router's public entry, the app.
    for (const spec of imports('generated/routes.closures.gen.ts'))
      expect(spec === 'course-router' || spec.startsWith('../fixtures/app/'), spec).toBe(true);
  });
});

describe('what importing course-router loads', () => {
  it('no request parser until a request needs one', () => {
    // A fresh process, as a server or a `course` command starts.
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const parsers = () => Object.keys(require.cache).filter((f) => /(node_modules|vendor)[\\\\/](qs|busboy)[\\\\/.]/.test(f)).length;
      await import('course-router');
      console.log(JSON.stringify({ loaded: parsers() }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
    }).toString();
    expect(JSON.parse(out)).toEqual({ loaded: 0 });
  });
});
