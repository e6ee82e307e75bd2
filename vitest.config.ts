import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Most test files wait on a child process (the CLI, tsc, npm, a server) or on a socket: one
// more worker than cores keeps every core busy while a file waits. The default (cores - 1) runs
// the files one at a time on 2 cores.
const workers = Math.max(2, os.availableParallelism()) + 2;

// The benchmarks' smoke run (test/bench.test.ts) is no test of the product and takes minutes:
// `npm run bench:smoke` runs it, and CI with it.
const benchSmoke = process.env['BENCH_SMOKE'] === '1';

/**
 * The files that take longest (npm installs, dozens of CLI builds), longest first: started
 * before the others, none of them is left running alone at the end. Vitest's own order (the
 * last run's durations, else the largest file first) follows.
 */
const LONGEST = [
  'test/readme-shell.test.ts',
  'test/e2e/install.test.ts',
  'test/cli/generate.test.ts',
  'test/e2e/limits.test.ts',
  'test/cli/build.test.ts',
  'test/deploy/docker.test.ts',
  'test/runtimes/init.test.ts',
  'test/readme.test.ts',
  'test/fuzz/matcher.property.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? LONGEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: benchSmoke ? ['test/bench.test.ts'] : ['test/**/*.test.ts'],
    exclude: benchSmoke ? [] : ['test/bench.test.ts'],
    globalSetup: ['test/_global-setup.ts'],
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
    // A test that runs a few CLI builds or npm commands one after the other takes seconds each on
    // a loaded machine: the limits are for hangs.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
