// Builds the three packages for `npm install` (`prepare`), `npm start` and `npm test`, which
// import their dist/. A build whose sources, configuration and dependencies are those of the
// last build, and whose output nothing touched since, is skipped: `npm start` after
// `npm install`, or a test change, waits for no compiler.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['runtime', 'compiler', 'cli'];
const STAMP = path.join(ROOT, 'node_modules/.cache/course-build.json');

const inputs = fingerprint(
  [
    ...['package.json', 'package-lock.json', 'tsconfig.json'].map((f) => path.join(ROOT, f)),
    ...PACKAGES.flatMap((name) => filesUnder(path.join(ROOT, name), ['dist', 'node_modules'])),
  ],
  (file) => readFileSync(file),
);
const last = existsSync(STAMP)
  ? (JSON.parse(readFileSync(STAMP, 'utf8')) as { inputs: string; outputs: string })
  : undefined;

if (last?.inputs === inputs && last.outputs === outputs()) {
  console.log('course: the packages are built from these sources: build skipped');
} else {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, JSON.stringify({ inputs, outputs: outputs() }));
}

/** The built files, by path, size and time: another build or an edit changes it. */
function outputs(): string {
  const files = PACKAGES.flatMap((name) => filesUnder(path.join(ROOT, name, 'dist'), []));
  if (files.length === 0) return '';
  return fingerprint(files, (file) => {
    const { size, mtimeMs } = statSync(file);
    return `${size} ${mtimeMs}`;
  });
}

function fingerprint(files: string[], content: (file: string) => string | Buffer): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${path.relative(ROOT, file)}\0`).update(content(file));
  return hash.digest('hex');
}

/** Every file under `dir`, sorted, skipping the folders named in `skip`; none if it is missing. */
function filesUnder(dir: string, skip: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) files.push(...filesUnder(full, skip));
    } else files.push(full);
  }
  return files.sort();
}
