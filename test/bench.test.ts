import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './_utils.js';

// The benchmark suite in its smoke mode: seconds, no assertion on any time, so it never rots.
describe('npm run bench -- --smoke', () => {
  it(
    'runs every benchmark and writes a report with every target',
    { timeout: 240_000 },
    async () => {
      const report = await smokeReport('bench/index.ts');
      for (const section of [
        '## Targets',
        '## Standard 12-route set',
        '### all together',
        '## With a query string',
        '## Apps at scale',
        '## Start-up',
        '## Whole requests',
        '### Fetch API in process',
        '## Build and types',
      ]) {
        expect(report).toContain(section);
      }
      // Course and find-my-way, fresh, then Course against find-my-way's faster router.
      expect(report).toMatch(/\| all together \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \d+\.\d\d× \|/);
      expect(report).toMatch(/\| start-up ≤ 20 ms \| [\d.]+ ms \| (yes|no) \|/);
      // Each server's CPU per request on the realistic POST, then its goal against Fastify.
      expect(report).toMatch(
        /\| POST JSON through the group middleware → 201 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+× \|/,
      );
      expect(report).toMatch(/\| POST JSON [^|]*: ≥ 1\.1× Fastify \| [\d.]+× \| (yes|no) \|/);
      expect(report).toMatch(
        /\| Fetch adapter, 404: ≥ Hono's app\.fetch \| [\d.]+× \| (yes|no) \|/,
      );
    },
  );
});

// The old-against-new comparison, on the commit checked out against the working tree.
describe('npm run bench:compare -- HEAD --smoke', () => {
  it(
    'builds both checkouts and reports both sides of every case',
    { timeout: 240_000 },
    async () => {
      const stdout = await bench('bench/compare.ts', ['HEAD', '--smoke']);
      for (const name of ['short static', 'dynamic route', 'wildcard', 'all together']) {
        expect(stdout).toMatch(
          new RegExp(
            `\\| ${name} \\| [\\d.]+ \\| [\\d.]+ \\| \\d+\\.\\d\\d \\| [\\d.]+ \\| [\\d.]+ \\| \\d+\\.\\d\\d \\|`,
          ),
        );
      }
    },
  );
});

// Bun's and Deno's servers beside Hono's: every server answers and every column is a figure.
describe('npm run bench:runtimes -- --smoke', () => {
  it('measures every server on Bun and on Deno', { timeout: 240_000 }, async () => {
    const report = await smokeReport('bench/runtimes.ts');
    expect(report).toContain('<!-- runtimes -->');
    // Requests per second, CPU per request and ratios of the five servers, all finite.
    const figure = String.raw` (?:\d+|[\d.]+ µs|[\d.]+×|-?[\d.]+ µs|\d+ ns|\d+%) \|`;
    for (const runtime of ['bun', 'deno'])
      expect(report).toMatch(new RegExp(String.raw`\| ${runtime} [\d.]+ \|(?:${figure}){16}`));
  });
});

/** Runs a benchmark script from the checkout's root: its output, or its stderr as the error. */
function bench(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, out, stderr) => (error ? reject(new Error(stderr)) : resolve(out)),
    );
  });
}

/** The report a benchmark script writes in its smoke mode (`--smoke --out <file>`). */
async function smokeReport(script: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-bench-smoke-'));
  try {
    const out = path.join(dir, 'RESULTS.md');
    await bench(script, ['--smoke', '--out', out]);
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
