import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApp } from './generate-app.js';

const CLI = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));

/** Cold `course build` wall time (a new process each run), median of `runs`. */
function coldBuild(dir: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    execFileSync(process.execPath, [CLI, 'build', '--root', dir, '--quiet']);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const counts = process.argv.slice(2).map(Number).filter(Boolean);
for (const count of counts.length ? counts : [100, 1000]) {
  const app = generateApp(path.join(os.tmpdir(), `course-bench-${count}`), count);
  console.log(`cold build, ${count} routes: ${Math.round(coldBuild(app.dir, 3))} ms (median of 3)`);
}
