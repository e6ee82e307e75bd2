import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** This checkout's root. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Where a checkout of Course keeps what a benchmark loads: the `course-router` package a
 * benchmark app links in `node_modules`, the built compiler and the built `resolveTarget`.
 * Revisions before the packages were split (one package at the root, built to `dist/`) and
 * after (one package per folder, each built to its own `dist/`) are both read, so that
 * `bench:compare` can measure across the split.
 */
export interface Checkout {
  root: string;
  /** The `course-router` package folder. */
  runtime: string;
  /** The built compiler's entry (`build()`). */
  compiler: string;
  /** The built module exporting `resolveTarget`. */
  target: string;
  /** Builds the runtime and the compiler. */
  compile(): void;
}

/** The layout of the checkout at `root`. */
export function checkout(root: string): Checkout {
  const tsc = (project: string) =>
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project],
      { cwd: root, stdio: 'inherit' },
    );
  if (existsSync(path.join(root, 'runtime/package.json'))) {
    return {
      root,
      runtime: path.join(root, 'runtime'),
      compiler: path.join(root, 'compiler/dist/index.js'),
      // The module exporting `resolveTarget`: the internal entry's bundle, or in older
      // checkouts tsc's own file (in the runtime's folders, or before them at the top of dist).
      get target() {
        return (
          ['http/target.js', 'target.js']
            .map((file) => path.join(root, 'runtime/dist', file))
            .find((file) => existsSync(file)) ?? path.join(root, 'runtime/dist/internal.js')
        );
      },
      // The packages' own builds (the runtime's bundles its libraries after tsc).
      compile: () =>
        execFileSync('npm', ['run', 'build', '-w', 'course-router', '-w', 'course-compiler'], {
          cwd: root,
          stdio: 'ignore',
        }),
    };
  }
  return {
    root,
    runtime: root,
    compiler: path.join(root, 'dist/compiler/index.js'),
    target: path.join(root, 'dist/runtime/target.js'),
    // An older checkout may not type-check against today's packages; tsc writes its files anyway.
    compile: () => {
      try {
        tsc('tsconfig.build.json');
      } catch {
        // Type errors only: the emitted files are what the benchmark loads.
      }
    },
  };
}

/**
 * Gives a checkout elsewhere (a git worktree) this checkout's installed packages, with its
 * own packages in place of this checkout's.
 */
export function linkModules(other: Checkout): void {
  const modules = path.join(other.root, 'node_modules');
  if (existsSync(modules)) return;
  mkdirSync(modules);
  const own = new Map([
    ['course-router', other.runtime],
    ['course-compiler', path.join(other.root, 'compiler')],
  ]);
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    const target = own.get(entry) ?? path.join(ROOT, 'node_modules', entry);
    if (own.has(entry) && !existsSync(target)) continue;
    symlinkSync(target, path.join(modules, entry), 'dir');
  }
  // A dependency this checkout no longer installs (a native addon an older runtime imported at
  // load) gets a stand-in that fails if called: lookups never call it.
  const manifest = JSON.parse(readFileSync(path.join(other.root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (existsSync(path.join(modules, name))) continue;
    mkdirSync(path.join(modules, name));
    writeFileSync(
      path.join(modules, name, 'package.json'),
      JSON.stringify({ name, main: 'index.js' }),
    );
    writeFileSync(
      path.join(modules, name, 'index.js'),
      `module.exports = new Proxy({}, { get() { throw new Error('${name} is not installed here'); } });\n`,
    );
  }
}

/**
 * The code at git revision `rev`, checked out in a temporary worktree (`name` in its folder's
 * name), given this checkout's packages and built; `remove()` deletes the worktree.
 */
export function revisionCheckout(rev: string, name: string): Checkout & { remove(): void } {
  const worktree = path.join(os.tmpdir(), `course-${name}-${process.pid}`);
  execFileSync('git', ['worktree', 'add', '--detach', '-f', worktree, rev], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const code = checkout(worktree);
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', worktree], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    rmSync(worktree, { recursive: true, force: true });
  };
  try {
    linkModules(code);
    code.compile();
  } catch (error) {
    remove();
    throw error;
  }
  return { ...code, remove };
}
