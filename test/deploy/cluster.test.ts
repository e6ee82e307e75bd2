import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployFile } from '../_readme.js';
import { freePort, startRedis, type RedisServer } from '../_redis.js';
import { buildApp, removeApp, ROOT, writeApp } from '../_utils.js';

// README's `cluster.ts`, as shown, with two workers sharing one port and one Redis store.
const CLUSTER = deployFile(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), 'cluster.ts');
const ROUTES = `import { Course, requestLimit, response } from 'course-router';
Course.get('/limited', async () =>
  (await requestLimit('shared', 3, 60)) ? response().httpCode(429).write('slow down') : String(process.pid),
);
Course.get('/pid', () => String(process.pid));
`;

let redis: RedisServer;
let dir: string;
let primary: ChildProcess | undefined;
beforeAll(async () => {
  redis = await startRedis();
  dir = writeApp({ 'routes.ts': ROUTES, 'cluster.ts': CLUSTER });
  await buildApp(dir);
});
afterAll(async () => {
  primary?.kill('SIGKILL');
  await redis?.stop();
  if (dir) removeApp(dir);
});

describe("README's node:cluster server with the Redis store", () => {
  it('shares the port and the limit across two workers; SIGTERM ends all with 0', async () => {
    const port = await freePort();
    primary = spawn(
      process.execPath,
      [
        '--import',
        pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href,
        'cluster.ts',
      ],
      {
        cwd: dir,
        env: { ...process.env, WORKERS: '2', PORT: String(port), REDIS_URL: redis.url },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    primary.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => primary!.once('exit', resolve));

    // Both workers accept: connections go to each in turn.
    const pids = new Set<string>();
    await until(async () => {
      const answer = await hit(port, '/pid').catch(() => undefined);
      if (answer) pids.add(answer.body);
      return pids.size === 2;
    });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await hit(port, '/limited'));
    expect(
      answers.map((a) => a.status),
      stderr,
    ).toEqual([200, 200, 200, 429, 429, 429]);
    const served = new Set(answers.filter((a) => a.status === 200).map((a) => a.body));
    expect([...served].sort()).toEqual([...pids].sort());

    primary.kill('SIGTERM');
    expect(await exit, stderr).toBe(0);
    await expect(hit(port, '/pid')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 30_000);
});

// --- internal ---

function hit(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ port, host: '127.0.0.1', path: target, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (const start = Date.now(); Date.now() - start < 15_000;) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the cluster did not answer within 15 s');
}
