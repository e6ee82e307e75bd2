import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../runtime/store/memory.js';
import { RedisStore } from '../../runtime/store/redis.js';
import type { Store } from '../../runtime/store/types.js';
import { startRedis, type RedisServer } from '../_redis.js';

let redis: RedisServer;
let redisStore: RedisStore;

beforeAll(async () => {
  redis = await startRedis();
  redisStore = new RedisStore({
    url: redis.url,
    prefix: `t${Date.now()}:`,
    onStateChange: () => {},
  });
  await new Promise<void>((resolve) =>
    redisStore.client.status === 'ready' ? resolve() : redisStore.client.once('ready', resolve),
  );
});

afterAll(async () => {
  await redisStore?.close();
  await redis?.stop();
});

const memory = new MemoryStore();
const stores: [string, () => Store][] = [
  ['memory', () => memory],
  ['redis', () => redisStore],
];

describe.each(stores)('%s store', (_name, store) => {
  it('100 concurrent calls with limit 5 let exactly 5 through', async () => {
    const key = `burst-${Math.random()}`;
    const results = await Promise.all(Array.from({ length: 100 }, () => store().limit(key, 5, 60)));
    expect(results.filter((limited) => !limited)).toHaveLength(5);
  });

  it('limit 3 called 8 times: F,F,F,T,T,T,T,T (the original)', async () => {
    const key = `seq-${Math.random()}`;
    const results: boolean[] = [];
    for (let i = 0; i < 8; i++) results.push(await store().limit(key, 3, 60));
    expect(results).toEqual([false, false, false, true, true, true, true, true]);
  });

  it('requestRepeat: a→false, a→true, b→false, b→true', async () => {
    const key = `repeat-${Math.random()}`;
    const results = [];
    for (const value of ['a', 'a', 'b', 'b']) results.push(await store().repeat(key, value, 60));
    expect(results).toEqual([false, true, false, true]);
  });

  it('the window slides with each allowed call, and resets once it expires', async () => {
    const key = `slide-${Math.random()}`;
    expect(await store().limit(key, 2, 0.4)).toBe(false);
    await sleep(250);
    expect(await store().limit(key, 2, 0.4)).toBe(false); // extends the window to now + 0.4 s
    await sleep(250); // 0.5 s after the first call: a fixed window would have reset
    expect(await store().limit(key, 2, 0.4)).toBe(true);
    await sleep(450);
    expect(await store().limit(key, 2, 0.4)).toBe(false);
  });
});

describe('memory store', () => {
  it('a limited call does not extend the window', async () => {
    let now = 0;
    const store = new MemoryStore(() => now);
    await store.limit('k', 1, 10);
    now = 9_000;
    expect(await store.limit('k', 1, 10)).toBe(true);
    now = 10_001;
    expect(await store.limit('k', 1, 10)).toBe(false);
  });
});

describe('redis store when Redis is unreachable', () => {
  it('answers from the per-process fallback within the timeout, then uses Redis again', async () => {
    const states: string[] = [];
    const store = new RedisStore({
      url: redis.url,
      timeout: 200,
      onStateChange: (s) => states.push(s),
    });
    await new Promise<void>((resolve) => store.client.once('ready', resolve));
    const key = `outage-${Math.random()}`;
    expect(await store.limit(key, 2, 60)).toBe(false);
    await redis.stop();
    const started = Date.now();
    const during = [
      await store.limit(key, 2, 60),
      await store.limit(key, 2, 60),
      await store.limit(key, 2, 60),
    ];
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(during).toEqual([false, false, true]); // the fallback counts on its own
    expect(states).toContain('down');
    await redis.start();
    await new Promise<void>((resolve) =>
      store.client.status === 'ready' ? resolve() : store.client.once('ready', resolve),
    );
    expect(states.at(-1)).toBe('up');
    expect(await store.limit(`after-${Math.random()}`, 1, 60)).toBe(false);
    await store.close();
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
