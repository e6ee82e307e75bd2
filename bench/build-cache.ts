// What the code cache saves a `course build` of the demo app:
// `npx tsx bench/build-cache.ts [rounds] [checkout]`. Each round runs, in turn, a build with no
// cache (`COURSE_NO_CACHE=1`), a cold one (an empty cache, which it fills), a warm one (the
// cache the cold one wrote) and, given the folder of another checkout with its packages built,
// that checkout's build (`base`), each a fresh process under `/usr/bin/time`; then the same for
// `course --version`. Prints the medians of CPU (user + sys) and wall time, and the ratios.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.argv[2] ?? 5);
const base = process.argv[3] === undefined ? undefined : path.resolve(process.argv[3]);
const cache = mkdtempSync(path.join(os.tmpdir(), 'course-bench-cache-'));
process.once('exit', () => rmSync(cache, { recursive: true, force: true }));

const KINDS = {
  none: { COURSE_NO_CACHE: '1' },
  cold: { COURSE_CACHE_DIR: cache },
  warm: { COURSE_CACHE_DIR: cache },
  ...(base === undefined ? {} : { base: {} }),
};
type Kind = keyof typeof KINDS;
type Times = Record<string, { cpu: number[]; wall: number[] }>;

/** One command in a fresh process: its CPU and wall seconds. */
function measure(kind: Kind, command: string[]): { cpu: number; wall: number } {
  const args = ['-f', '%U %S %e', process.execPath, 'cli/dist/index.js', ...command];
  const env = KINDS[kind];
  const { stderr, status } = spawnSync('/usr/bin/time', args, {
    cwd: kind === 'base' ? base : ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (status !== 0) throw new Error(`course ${command.join(' ')} failed:\n${stderr}`);
  const output = stderr;
  const [user, sys, wall] = output.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { cpu: user! + sys!, wall: wall! };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

for (const command of [['build', '--root', '.'], ['--version']]) {
  const times: Times = {};
  for (let round = 0; round < rounds; round++) {
    for (const kind of Object.keys(KINDS) as Kind[]) {
      if (kind === 'cold') rmSync(cache, { recursive: true, force: true });
      const { cpu, wall } = measure(kind, command);
      (times[kind] ??= { cpu: [], wall: [] }).cpu.push(cpu);
      times[kind].wall.push(wall);
    }
  }
  console.log(`course ${command.join(' ')}`);
  const none = times['none']!;
  for (const [kind, { cpu, wall }] of Object.entries(times)) {
    console.log(
      `  ${kind.padEnd(5)} CPU ${median(cpu).toFixed(2)} s (${(median(cpu) / median(none.cpu)).toFixed(2)}×)` +
        `  wall ${median(wall).toFixed(2)} s (${(median(wall) / median(none.wall)).toFixed(2)}×)` +
        `  [CPU ${cpu.map((s) => s.toFixed(2)).join(' ')}]`,
    );
  }
}
