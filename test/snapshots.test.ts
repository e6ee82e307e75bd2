import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildApp,
  importTable,
  removeApp,
  ROOT,
  send,
  serve,
  writeApp,
  type SendInit,
} from './_utils.js';
import { expectShape, SHAPES } from './matching/_apps.js';

// Small apps whose generated modules are committed: each is built by the CLI (`buildApp`) in a fresh
// copy, and every file the build writes under `generated/` must equal the committed one (run
// `npx vitest run test/snapshots.test.ts -u` after a change to what the compiler writes, and
// review the diff). Then the committed module answers the app's `requests.json`.
const FIXTURES = path.join(ROOT, 'fixtures/snapshots');
const SCENARIOS = readdirSync(FIXTURES).sort();
const GENERATED = 'generated';
const LARGE = SHAPES.find((shape) => shape.name === 'hashed table + shared walker')!;

describe('generated modules of the example apps (fixtures/snapshots)', () => {
  it('has every scenario', () => {
    expect(SCENARIOS).toEqual(['domains', 'large', 'params', 'set-match', 'statics']);
  });

  it.each(SCENARIOS)('%s', async (scenario) => {
    const source = path.join(FIXTURES, scenario);
    const dir = writeApp(sourcesOf(source));
    try {
      await buildApp(dir);
      const built = filesUnder(path.join(dir, GENERATED));
      expect(built).toContain('routes.gen.ts');
      // The large app is past both thresholds: a hashed table and the shared walker.
      if (scenario === 'large')
        expectShape(readFileSync(path.join(dir, GENERATED, 'routes.gen.ts'), 'utf8'), LARGE);
      for (const file of built) {
        await expect(readFileSync(path.join(dir, GENERATED, file), 'utf8')).toMatchFileSnapshot(
          path.join(source, GENERATED, file),
        );
      }
      // No committed file that the build no longer writes.
      const stale = filesUnder(path.join(source, GENERATED)).filter((f) => !built.includes(f));
      expect(stale).toEqual([]);
    } finally {
      removeApp(dir);
    }
    await expectAnswers(source);
  });
});

/** The committed module serves the app: each of `requests.json` gets its status and body. */
async function expectAnswers(source: string): Promise<void> {
  const requests = JSON.parse(readFileSync(path.join(source, 'requests.json'), 'utf8')) as [
    string,
    number,
    string,
  ][];
  const served = await serve(await importTable(source));
  try {
    for (const [request, status, body] of requests) {
      const [method, target, host] = request.split(' ') as [string, string, string?];
      const init: SendInit = host === undefined ? {} : { headers: { host } };
      expect(await send(served, method, target, init), request).toMatchObject({ status, body });
    }
  } finally {
    await served.close();
  }
}

/** An app's sources (everything but what the build writes), by path within it. */
function sourcesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of filesUnder(dir)) {
    if (file.split('/')[0] !== GENERATED) files[file] = readFileSync(path.join(dir, file), 'utf8');
  }
  return files;
}

/** Every file under `dir` (none if it is missing), as sorted `/`-separated paths within it. */
function filesUnder(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...filesUnder(full, `${prefix}${name}/`));
    else files.push(`${prefix}${name}`);
  }
  return files;
}
