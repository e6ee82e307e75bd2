// Part of `npm run build`: the third-party code the runtime runs (qs and busboy, loaded when a
// request first needs them; bcryptjs, inside the password worker) bundled into dist/, with their
// licences, so that a server installs one package and compiles nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const BUNDLED = ['qs', 'busboy', 'bcryptjs'];
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: { qs: 'qs', busboy: 'busboy' },
  format: 'cjs',
  outdir: 'dist/vendor',
  outExtension: { '.js': '.cjs' },
});
await build({
  ...common,
  entryPoints: ['features/bcrypt-worker.js'],
  format: 'esm',
  outfile: 'dist/features/bcrypt-worker.js',
  allowOverwrite: true,
});

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
