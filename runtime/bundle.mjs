// Part of `npm run build`, after tsc: each entry of the package (`.`, `./internal`, `./redis`,
// `./db`) bundled into one file in dist/, the code two entries share in chunks beside them, so
// that importing `course-router` reads a few files rather than forty (32 → 14 ms); and the
// third-party code the runtime runs (qs and busboy, loaded when a request first needs them;
// bcryptjs, inside the password worker; cookie and mime, inside the entries and the chunks that
// need them) bundled into dist/, with their licences, so that a server installs one package and
// compiles nothing. tsc's declarations stay as they are.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const BUNDLED = ['qs', 'busboy', 'bcryptjs', 'cookie', 'mime'];
// Optional peers the app installs (`course-router/redis`); every other package is bundled.
const PEERS = ['ioredis', 'knex', 'better-sqlite3'];
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };

// Minified: a Worker bundles them whole (qs's dependencies alone were 70 KB unminified).
await build({
  ...common,
  entryPoints: { qs: 'qs', busboy: 'busboy' },
  format: 'cjs',
  outdir: 'dist/vendor',
  outExtension: { '.js': '.cjs' },
  minify: true,
});
// Beside the entries, where `new URL('./bcrypt-worker.js', import.meta.url)` finds it from them.
await build({
  ...common,
  entryPoints: ['features/bcrypt-worker.js'],
  format: 'esm',
  outfile: 'dist/bcrypt-worker.js',
});

// One module graph for all entries: the generated module's `course-router/internal` and the
// app's `course-router` share every class and the request context.
const ENTRIES = ['index', 'internal', 'redis', 'db'];
const { metafile } = await build({
  ...common,
  entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, `dist/${name}.js`])),
  format: 'esm',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outdir: 'dist',
  allowOverwrite: true,
  external: PEERS,
  metafile: true,
});
const bundled = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(file)));
bundled.add(path.resolve('dist/bcrypt-worker.js'));
removeUnbundled('dist');

// The entry Cloudflare Workers' bundlers pick (the `workerd` export condition): a Worker has no
// file system to load the parsers from when a request first needs one, so they come with it.
writeFileSync(
  'dist/workerd.js',
  `import qs from './vendor/qs.cjs';
import busboy from './vendor/busboy.cjs';
import { provideVendored } from './internal.js';

provideVendored({ qs, busboy });
export * from './index.js';
`,
);

// Every package inside the bundles, with the licence it ships.
const notices = [];
for (const name of packagesIn(BUNDLED)) {
  const dir = packageDir(name);
  const { version, license, licenses = [] } = manifest(name);
  const file = ['LICENSE', 'LICENSE.md', 'license', 'LICENSE.txt']
    .map((f) => path.join(dir, f))
    .find((f) => existsSync(f));
  notices.push(
    `${name}@${version} (${license ?? licenses.map((l) => l.type ?? l).join(', ')})\n\n${file ? readFileSync(file, 'utf8').trim() : ''}\n`,
  );
}
mkdirSync('dist/vendor', { recursive: true });
writeFileSync('dist/vendor/LICENSES.txt', notices.join('\n---\n\n'));

/** tsc's JavaScript, now inside the bundles; its declarations and dist/vendor stay. */
function removeUnbundled(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.resolve(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'vendor') removeUnbundled(file);
    } else if (entry.name.endsWith('.js') && !bundled.has(file)) {
      rmSync(file);
    }
  }
}

function packagesIn(roots) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const { dependencies = {} } = manifest(name);
    for (const dep of Object.keys(dependencies)) visit(dep);
  };
  roots.forEach(visit);
  return [...seen].sort();
}

/** Where `name` is installed (not every package exports its package.json). */
function packageDir(name) {
  const dir = require.resolve
    .paths(name)
    .find((p) => existsSync(path.join(p, name, 'package.json')));
  return path.join(dir, name);
}

function manifest(name) {
  return JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8'));
}
