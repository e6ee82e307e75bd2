import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { run, TSC } from '../_install.js';
import { cli } from '../_cli-session.js';
import { CLI, ROOT } from '../_utils.js';

/**
 * Writes an app with `course init app --runtime <runtime>` in a fresh folder (pushed on `work`
 * for removal), this repository's packages standing in for the installed ones (with `@types/bun`
 * for Bun's tsconfig). `prepared`: its routes built, and type-checked with its own tsconfig.
 */
export async function initApp(runtime: string, work: string[], prepared = true): Promise<string> {
  const parent = mkdtempSync(path.join(os.tmpdir(), `course-init-${runtime}-`));
  work.push(parent);
  await run(process.execPath, [CLI, 'init', 'app', '--runtime', runtime], { cwd: parent });
  const dir = path.join(parent, 'app');
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  const link = (from: string, to: string) =>
    symlinkSync(path.join(ROOT, from), path.join(dir, 'node_modules', to), 'dir');
  link('runtime', 'course-router');
  link('cli', 'course-kit');
  for (const types of ['@types/node', '@types/bun', 'bun-types'])
    link(`node_modules/${types}`, types);
  if (!prepared) return dir;
  const build = await cli(['build', '--root', dir]);
  expect(build.stderr).toBe('');
  const tsc = await run(process.execPath, [TSC, '-p', dir, '--noEmit']).catch(
    (error: { stdout: string }) => error,
  );
  expect(tsc.stdout, 'tsc').toBe('');
  return dir;
}
