import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeApp, ROOT, runCli, writeApp } from '../_utils.js';

// The commands that neither build nor read route files load no compiler: TypeScript (through
// ts-morph) takes most of a second to load, which `--version`, `--help`, `init` and the
// generators would otherwise pay. Node's module debug log names every CommonJS file loaded
// (prettier's `plugins/typescript.js`, which the generators format with, is not TypeScript).
const DEBUG = { NODE_DEBUG: 'module' };
const loadsTypeScript = (log: string) => /ts-morph|typescript\/lib\/typescript\.js/.test(log);
const apps: string[] = [];
afterAll(() => apps.forEach(removeApp));

describe('course loads the compiler only for commands that compile', () => {
  it('the log shows TypeScript when the compiler is loaded', async () => {
    const dir = writeApp({ 'routes.ts': "import { Course } from 'course-router';\n" });
    apps.push(dir);
    const result = await runCli(['routes', '--root', dir], ROOT, DEBUG);
    expect(loadsTypeScript(result.stderr)).toBe(true);
  });

  it('--version, --help, init and create:controller do not load it', async () => {
    const dir = writeApp({});
    apps.push(dir);
    for (const [args, cwd] of [
      [['--version'], ROOT],
      [['--help'], ROOT],
      [['init', 'app'], dir],
      [['create:controller', 'Photo', '--root', path.join(dir, 'app')], dir],
    ] as const) {
      const result = await runCli([...args], cwd, DEBUG);
      expect(result.code, `course ${args.join(' ')}: ${result.stderr.slice(-500)}`).toBe(0);
      expect(loadsTypeScript(result.stderr), `course ${args.join(' ')}`).toBe(false);
    }
  });
});
