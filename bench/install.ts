// `npm run bench:install`: what a server installs. The runtime package (packed from this
// checkout) beside hono and fastify, each installed the same way into an empty app
// (`npm install --omit=dev`, a fresh npm cache, no C or C++ compiler): packages, MB on disk,
// install time, and the time of a fresh process's `import`. Writes bench/INSTALL.md.
// `--runs N` (default 3; medians), `--smoke` (one run).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './checkout.js';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const at = args.indexOf('--runs');
const runs = smoke ? 1 : Number(at === -1 ? 3 : args[at + 1]);
const work = mkdtempSync(path.join(os.tmpdir(), 'course-install-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));

/** What one package costs a server. */
interface Footprint {
  name: string;
  packages: number;
  megabytes: number;
  installSeconds: number;
  importMs: number;
}

const packs = path.join(work, 'packs');
mkdirSync(packs);
execFileSync('npm', ['pack', '--workspace', 'course-router', '--pack-destination', packs], {
  cwd: ROOT,
  stdio: 'ignore',
});
const tarball = path.join(packs, readdirSync(packs)[0]!);
const rows = [
  measure('course-router', tarball, 'course-router'),
  measure('hono', 'hono', 'hono'),
  measure('fastify', 'fastify', 'fastify'),
];

const table = [
  '| package | packages | MB on disk | install (s) | import (ms) |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.packages} | ${r.megabytes.toFixed(2)} | ${r.installSeconds.toFixed(1)} | ${r.importMs.toFixed(1)} |`,
  ),
].join('\n');
const report = `# Install footprint

What a server installs: each package into an empty app with \`npm install --omit=dev\`, a fresh
npm cache (every dependency downloaded) and no C or C++ compiler (\`CC=false CXX=false\`);
\`course-router\` packed from this checkout. Medians of ${runs} run${runs === 1 ? '' : 's'} (\`npm run bench:install\`).
Import: a fresh \`node\` process's \`await import(name)\`, median of 5.

${table}

Node ${process.version}, npm ${execFileSync('npm', ['--version']).toString().trim()}, ${os.cpus().length} cores.
`;
if (!smoke) writeFileSync(path.join(ROOT, 'bench/INSTALL.md'), report);
console.log(table);

// --- internal ---

function measure(name: string, spec: string, module: string): Footprint {
  const samples: Footprint[] = [];
  for (let k = 0; k < runs; k++) {
    const app = mkdtempSync(path.join(work, `${name}-`));
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module' }));
    const started = performance.now();
    execFileSync(
      'npm',
      [
        'install',
        '--omit=dev',
        '--no-audit',
        '--no-fund',
        '--cache',
        path.join(app, '.cache'),
        spec,
      ],
      { cwd: app, stdio: 'ignore', env: { ...process.env, CC: 'false', CXX: 'false' } },
    );
    const installSeconds = (performance.now() - started) / 1000;
    const modules = path.join(app, 'node_modules');
    samples.push({
      name,
      packages: countPackages(modules),
      megabytes: size(modules) / 2 ** 20,
      installSeconds,
      importMs: median(Array.from({ length: 5 }, () => importTime(app, module))),
    });
  }
  const pick = (key: 'packages' | 'megabytes' | 'installSeconds' | 'importMs') =>
    median(samples.map((s) => s[key]));
  return {
    name,
    packages: pick('packages'),
    megabytes: pick('megabytes'),
    installSeconds: pick('installSeconds'),
    importMs: pick('importMs'),
  };
}

/** Installed packages: every folder of `node_modules` trees holding a `package.json`. */
function countPackages(modules: string): number {
  let count = 0;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@')
      ? readdirSync(path.join(modules, entry)).map((d) => path.join(modules, entry, d))
      : [path.join(modules, entry)];
    for (const dir of dirs) {
      count++;
      const nested = path.join(dir, 'node_modules');
      if (exists(nested)) count += countPackages(nested);
    }
  }
  return count;
}

/** Bytes of every file below `dir`. */
function size(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

function importTime(app: string, module: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(module)}); console.log(performance.now() - t);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
  return Number(out.toString().trim());
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
