import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ownVersion } from '../_package.js';
import type { Output } from '../output.js';
import { CliError, fillTemplate } from '../scaffold.js';

type Files = readonly (readonly [file: string, template: string])[];

/** The files of a new app: where each goes, and its template in `cli/templates/app/`. */
const FILES: Files = [
  ['package.json', 'package.json.tpl'],
  ['tsconfig.json', 'tsconfig.json.tpl'],
  // What `npm run build` compiles: the app without its tests, which `tsc --noEmit` checks.
  ['tsconfig.build.json', 'tsconfig.build.json.tpl'],
  ['.gitignore', 'gitignore.tpl'],
  ['routes.ts', 'routes.ts.tpl'],
  ['app/Components/Controller/HomeController.ts', 'HomeController.ts.tpl'],
  ['server.ts', 'server.ts.tpl'],
  ['test/home.test.ts', 'home.test.ts.tpl'],
];

/** The runtimes `--runtime` takes, each with the files it writes instead of Node's. */
export const RUNTIMES: Record<string, Files> = {
  node: [],
  bun: [
    ['package.json', 'package.bun.json.tpl'],
    ['tsconfig.json', 'tsconfig.bun.json.tpl'],
    ['course.config.ts', 'course.config.ts.tpl'],
    ['server.ts', 'server.bun.ts.tpl'],
    ['test/home.test.ts', 'home.test.bun.ts.tpl'],
  ],
  deno: [
    ['package.json', 'package.deno.json.tpl'],
    // tsc checks the app without Deno's types: `deno check` and `deno test` check `server.ts`
    // and the `*_test.ts` files with them (`deno.json`).
    ['tsconfig.json', 'tsconfig.deno.json.tpl'],
    ['deno.json', 'deno.json.tpl'],
    ['course.config.ts', 'course.config.ts.tpl'],
    ['server.ts', 'server.deno.ts.tpl'],
    ['test/home_test.ts', 'home_test.deno.ts.tpl'],
  ],
  workers: [
    ['package.json', 'package.workers.json.tpl'],
    ['.gitignore', 'gitignore.workers.tpl'],
    ['tsconfig.json', 'tsconfig.workers.json.tpl'],
    ['course.config.ts', 'course.config.ts.tpl'],
    ['wrangler.jsonc', 'wrangler.jsonc.tpl'],
    ['worker.ts', 'worker.ts.tpl'],
  ],
};

/** Node's files a runtime has no use for: Bun, Deno and Workers compile nothing to `dist/`. */
const LEFT_OUT: Record<string, readonly string[]> = {
  bun: ['tsconfig.build.json'],
  deno: ['tsconfig.build.json', 'test/home.test.ts'],
  workers: ['tsconfig.build.json', 'server.ts'],
};

/**
 * `course init [dir] [--packages DIR]`: writes a new app (an ES module package with `dev`,
 * `build`, `start` and `check` scripts, a strict tsconfig, a route file, a controller using the
 * typed `url()`, and a server) into `dir`, which may exist but must hold none of those files.
 * With `packages`, a folder of the tarballs `npm pack --workspaces` makes, the app installs
 * Course from copies of them in its own `vendor/` instead of the registry. `runtime` (`node`,
 * `bun`, `deno`, `workers`) chooses the server and the scripts.
 */
export function runInit(
  dir: string,
  options: { packages?: string; runtime?: string },
  out: Output,
): number {
  const root = path.resolve(dir);
  const runtime = options.runtime ?? 'node';
  const own = Object.hasOwn(RUNTIMES, runtime) ? RUNTIMES[runtime]! : undefined;
  if (!own)
    throw new CliError(
      `unknown runtime "${runtime}": choose one of ${Object.keys(RUNTIMES).join(', ')}`,
    );
  const files = [
    ...FILES.filter(([file]) => !own.some(([replaced]) => replaced === file)),
    ...own,
  ].filter(([file]) => !LEFT_OUT[runtime]?.includes(file));
  const taken = files.map(([file]) => file).filter((file) => existsSync(path.join(root, file)));
  if (taken.length > 0) {
    throw new CliError(
      `${shownPath(root)} already has ${taken.join(', ')}; nothing was written (choose an empty folder)`,
    );
  }
  // Checked before anything is written: a missing tarball leaves no half-made app behind.
  const tarballs =
    options.packages === undefined ? undefined : packed(path.resolve(options.packages));
  const tokens = {
    name: packageName(root),
    version: `^${ownVersion()}`,
    // Bun, Deno and Workers run (or bundle) the TypeScript as written: imports name `.ts` files.
    ext: runtime === 'node' ? 'js' : 'ts',
  };
  for (const [file, template] of files) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, fillTemplate(`app/${template}`, tokens));
  }
  if (tarballs !== undefined) installFrom(root, tarballs);
  const cd = shownPath(root);
  out.info(`created a Course app in ${cd}; next:\n`);
  out.info(`  ${cd === '.' ? '' : `cd ${cd} && `}npm install && npm run dev\n`);
  // Workers' wrangler is a dev dependency; Bun and Deno run the app, and are the user's to install.
  if (runtime === 'bun' || runtime === 'deno')
    out.info(`(${runtime} runs it: have it on the PATH, or npm install --save-dev ${runtime})\n`);
  return 0;
}

// --- internal ---

/** `root` as a user names it: relative when it is under the working directory, else absolute. */
function shownPath(root: string): string {
  const relative = path.relative(process.cwd(), root);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? root : relative;
}

/** Where `--packages` copies the tarballs, in the app. */
const VENDOR = 'vendor';

/** A valid npm package name from the folder's name (`My App` → `my-app`). */
function packageName(root: string): string {
  const name = path
    .basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'course-app';
}

/** The Course packages an app installs from tarballs, as `npm pack --workspaces` names them. */
const PACKED = ['course-router', 'course-kit', 'course-compiler'] as const;

/** The tarball of each of `PACKED` in `packs`; an error naming the command that makes them. */
function packed(packs: string): Record<(typeof PACKED)[number], string> {
  const version = ownVersion();
  const files = Object.fromEntries(
    PACKED.map((name) => [name, path.join(packs, `${name}-${version}.tgz`)]),
  ) as Record<(typeof PACKED)[number], string>;
  const missing = PACKED.map((name) => files[name]).filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new CliError(
      `${missing.join(', ')} not found: run \`npm pack --workspaces --pack-destination ${packs}\` in the Course repository; nothing was written`,
    );
  return files;
}

/**
 * Copies the `tarballs` into the app's `vendor/` and points its Course dependencies at them
 * (`file:vendor/…`); the compiler, which the build tools depend on, through `overrides`. Inside
 * the app, they go wherever it goes: a clone, CI, a Docker build context.
 */
function installFrom(root: string, tarballs: ReturnType<typeof packed>): void {
  const vendor = (file: string): string => {
    const vendored = path.join(root, VENDOR, path.basename(file));
    mkdirSync(path.dirname(vendored), { recursive: true });
    if (path.resolve(file) !== vendored) copyFileSync(file, vendored);
    return `file:${VENDOR}/${path.basename(file)}`;
  };
  const file = path.join(root, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  manifest['dependencies']!['course-router'] = vendor(tarballs['course-router']);
  manifest['devDependencies']!['course-kit'] = vendor(tarballs['course-kit']);
  manifest['overrides'] = { 'course-compiler': vendor(tarballs['course-compiler']) };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
