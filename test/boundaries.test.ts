import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './_utils.js';

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
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
];

describe('folder boundaries', () => {
  it('runtime/ imports neither compiler/, cli/ nor build-time packages', () => {
    for (const file of sources('runtime')) {
      for (const spec of imports(file)) {
        expect(spec, file).not.toMatch(/(^|\/)(compiler|cli)(\/|$)/);
        expect(COMPILE_TIME, `${file} imports ${spec}`).not.toContain(spec.split('/')[0]);
      }
    }
  });

  it('compiler/ does not import cli/', () => {
    for (const file of sources('compiler')) {
      for (const spec of imports(file)) expect(spec, file).not.toMatch(/(^|\/)cli(\/|$)/);
    }
  });

  it('the generated demo module imports only course-router and the app', () => {
    for (const spec of imports('generated/routes.gen.ts')) {
      expect(spec === 'course-router' || spec.startsWith('../fixtures/app/'), spec).toBe(true);
    }
  });
});

describe('what importing course-router loads', () => {
  it('no request parser until a request needs one', () => {
    // A fresh process, as a server or a `course` command starts.
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const parsers = () => Object.keys(require.cache).filter((f) => /node_modules[\\\\/](qs|busboy)[\\\\/]/.test(f)).length;
      await import('course-router');
      console.log(JSON.stringify({ loaded: parsers() }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
    }).toString();
    expect(JSON.parse(out)).toEqual({ loaded: 0 });
  });
});
