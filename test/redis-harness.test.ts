import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { ROOT } from './_utils.js';

it('without redis-server on the PATH, startRedis fails with one line telling how to install it', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'course-path-'));
  const redis = pathToFileURL(path.join(ROOT, 'test/_redis.ts')).href;
  const tsx = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const script = `const { startRedis } = await import(${JSON.stringify(redis)});
try { await startRedis(); console.log('started'); } catch (error) { console.log(error.stack); }`;
  const result = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', tsx, '--input-type=module', '-e', script],
      { env: { ...process.env, PATH: empty }, timeout: 20_000 },
      (_error, stdout, stderr) => resolve({ stdout, stderr }),
    ),
  );
  rmSync(empty, { recursive: true, force: true });
  expect(result).toEqual({
    stdout:
      'redis-server is not on the PATH: the Redis tests need it (Debian/Ubuntu: apt-get install redis-server)\n',
    stderr: '',
  });
});
