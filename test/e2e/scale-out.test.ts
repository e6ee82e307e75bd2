import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedis, type RedisServer } from '../_redis.js';
import { ROOT } from '../_utils.js';

let redis: RedisServer;
const servers: ChildProcess[] = [];
const ports: number[] = [];

function startDemo(port: number, redisUrl: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'fixtures/app/server.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), REDIS_URL: redisUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  servers.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Course demo on')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${String(code)}: ${stderr}`)));
  });
}

const hit = async (port: number) => (await fetch(`http://127.0.0.1:${port}/limited`)).status;

beforeAll(async () => {
  redis = await startRedis();
  ports.push(await freePort());
  let second = await freePort();
  while (second === ports[0]) second = await freePort();
  ports.push(second);
  await Promise.all(ports.map((port) => startDemo(port, redis.url)));
});

afterAll(async () => {
  for (const child of servers) child.kill();
  await redis?.stop();
});

describe('two instances sharing one redis-server', () => {
  it('enforce one limit together: the 6th request across both is limited', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await hit(ports[i % 2]!));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await hit(ports[0]!)).toBe(429);
  });

  it('a Redis outage: no crash, every request answered from the per-process fallback, shared again after', async () => {
    await redis.stop();
    const during = [];
    for (let i = 0; i < 12; i++) during.push(await hit(ports[i % 2]!));
    // Each instance now counts alone: 5 allowed per instance, then limited.
    expect(during.filter((s) => s === 200)).toHaveLength(10);
    expect(during.filter((s) => s === 429)).toHaveLength(2);
    expect(servers.every((child) => child.exitCode === null)).toBe(true);
    await redis.start();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await hit(ports[1]!);
    expect([200, 429]).toContain(after);
    expect(servers.every((child) => child.exitCode === null)).toBe(true);
  });
});
