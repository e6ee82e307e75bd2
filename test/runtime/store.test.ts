import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ENTRIES, MemoryStore } from '../../runtime/stores/memory.js';
import { RedisStore } from '../../runtime/stores/redis.js';
import type { Store } from '../../runtime/stores/types.js';
import { startRedis, type RedisServer } from '../_redis.js';
import { heapMB, mb } from '../_heap.js';

let redis: RedisServer;
let redisStore: RedisStore;
const prefix = `t${Date.now()}:`;

beforeAll(async () => {
  redis = await startRedis();
  redisStore = new RedisStore({
    url: redis.url,
    prefix,
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
    const store = new MemoryStore({ now: () => now });
    await store.limit('k', 1, 10);
    now = 9_000;
    expect(await store.limit('k', 1, 10)).toBe(true);
    now = 10_001;
    expect(await store.limit('k', 1, 10)).toBe(false);
  });

  it('refuses a maxEntries that is not a whole number above 0', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN])
      expect(() => new MemoryStore({ maxEntries }), String(maxEntries)).toThrow(/maxEntries/);
  });

  it('when full, evicts expired entries first, then the least recently used', async () => {
    let now = 0;
    const store = new MemoryStore({ maxEntries: 100, now: () => now });
    await store.limit('limited', 1, 60);
    expect(await store.limit('limited', 1, 60)).toBe(true); // the oldest entry from here on
    for (let i = 0; i < 50; i++) await store.limit(`short-${i}`, 5, 1);
    now = 2_000; // the 50 short windows have ended
    for (let i = 0; i < 99; i++) await store.limit(`a-${i}`, 5, 60);
    expect(store.size).toBe(100);
    expect(await store.limit('limited', 1, 60)).toBe(true); // the expired ones went, not it
    // Among entries of one call each, the one used longest ago goes.
    for (let i = 0; i < 50; i++) await store.limit(`b-${i}`, 5, 60);
    expect(await store.limit('a-1', 1, 60)).toBe(false); // gone, so counted afresh
    expect(store.size).toBe(100);
  });

  it('keeps a key over its limit, and a counter, through a flood of new keys from its client', async () => {
    // The attack: `login:<victim>` is limited; the same client then calls with thousands of
    // other keys to push it out, and tries the victim's password again.
    const store = new MemoryStore({ maxEntries: 100 });
    for (let i = 0; i < 3; i++) await store.limit('login:victim', 3, 60);
    expect(await store.limit('login:victim', 3, 60)).toBe(true);
    await store.limit('login:other', 3, 60);
    await store.limit('login:other', 3, 60); // two calls: one left
    for (let i = 0; i < 10_000; i++) await store.limit(`login:flood-${i}`, 3, 60);
    expect(store.size).toBe(100);
    expect(await store.limit('login:victim', 3, 60)).toBe(true);
    expect(await store.limit('login:other', 3, 60)).toBe(false);
    expect(await store.limit('login:other', 3, 60)).toBe(true);
  });

  it('stays bounded when every entry is over its limit: the oldest goes', async () => {
    const store = new MemoryStore({ maxEntries: 40 });
    for (let i = 0; i < 41; i++) {
      await store.limit(`k-${i}`, 1, 60);
      expect(await store.limit(`k-${i}`, 1, 60)).toBe(true);
    }
    expect(store.size).toBe(40);
    expect(await store.limit('k-0', 1, 60)).toBe(false);
  });

  it(`200,000 distinct clients: it stays at ${DEFAULT_MAX_ENTRIES} entries, and the heap bounded`, async () => {
    const store = new MemoryStore();
    await store.limit('limit:warm:hit', 5, 60);
    const before = heapMB();
    for (let i = 0; i < 200_000; i++)
      await store.limit(`limit:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:hit`, 5, 60);
    const after = heapMB();
    console.log(`memory store, 200,000 clients: heap ${mb(before)} → ${mb(after)} MB`);
    expect(store.size).toBe(DEFAULT_MAX_ENTRIES);
    expect(after - before).toBeLessThan(6);
  });

  it('requestRepeat with 60 values of 900 KB keeps digests: 60 entries, the heap unchanged', async () => {
    const store = new MemoryStore();
    const value = (i: number) => String.fromCharCode(65 + (i % 26)).repeat(900_000) + i;
    await store.repeat('warm', 'x', 60);
    const before = heapMB();
    for (let i = 0; i < 60; i++) expect(await store.repeat(`c${i}`, value(i), 86_400)).toBe(false);
    const after = heapMB();
    console.log(`memory store, 60 × 900 KB repeats: heap ${mb(before)} → ${mb(after)} MB`);
    expect(store.size).toBe(61);
    expect(after - before).toBeLessThan(1);
    expect(await store.repeat('c7', value(7), 86_400)).toBe(true);
    expect(await store.repeat('c7', value(8), 86_400)).toBe(false);
  });
});

describe('redis store keeps digests, bounded keys, and expiries', () => {
  it('a 900 KB value is stored as its SHA-256; every key has a TTL', async () => {
    const key = `big-${Math.random()}`;
    const value = 'v'.repeat(900_000);
    expect(await redisStore.repeat(key, value, 86_400)).toBe(false);
    expect(await redisStore.repeat(key, value, 86_400)).toBe(true);
    const stored = await redisStore.client.get(`${prefix}${key}`);
    expect(stored).toBe(createHash('sha256').update(value).digest('base64url'));
    const repeatTtl = await redisStore.client.pttl(`${prefix}${key}`);
    expect(repeatTtl).toBeGreaterThan(86_000_000);
    expect(repeatTtl).toBeLessThanOrEqual(86_400_000);
    await redisStore.limit(`count-${key}`, 5, 60);
    const limitTtl = await redisStore.client.pttl(`${prefix}count-${key}`);
    expect(limitTtl).toBeGreaterThan(0);
    expect(limitTtl).toBeLessThanOrEqual(60_000);
  });

  it('a key over 256 characters is stored as its digest, still one client', async () => {
    const key = `limit:${'x'.repeat(10_000)}:${Math.random()}`;
    expect(await redisStore.limit(key, 1, 60)).toBe(false);
    expect(await redisStore.limit(key, 1, 60)).toBe(true);
    expect(await redisStore.limit(`${key}-other`, 1, 60)).toBe(false);
    const keys = await redisStore.client.keys(`${prefix}*`);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(prefix.length + 256);
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
