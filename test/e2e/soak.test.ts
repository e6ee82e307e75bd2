import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { RedisStore } from 'course-router/redis';
import { startRedis, type RedisServer } from '../_redis.js';
import { importTable, ROOT, serve, type Served } from '../_utils.js';
import { heapMB } from '../_heap.js';

// `SOAK_SECONDS=60 npm run soak` for the long run; `npm test` runs a few seconds.
const ROUND_SECONDS = Number(process.env['SOAK_SECONDS'] ?? 1.5);
const ROUNDS = 4;

let redis: RedisServer;
let store: RedisStore;
let served: Served;

beforeAll(async () => {
  redis = await startRedis();
  store = new RedisStore({ url: redis.url, onStateChange: () => {} });
  const table: RouteTable = await importTable(ROOT, 'generated/routes.gen.ts');
  served = await serve(table, { store });
});

afterAll(async () => {
  await served?.close();
  await store?.close();
  await redis?.stop();
});

const PATHS = [
  '/',
  '/hello/ann',
  '/user/5',
  '/user/5/posts/a-b',
  '/photos',
  '/photos/1',
  '/animals/view/dog',
  '/api/photos/2',
  '/nope',
  '/limited',
];

function load(seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: served.base,
    connections: 8,
    duration: seconds,
    requests: PATHS.map((path) => ({ method: 'GET', path })),
  });
}

describe('soak: the demo under load on 127.0.0.1', () => {
  it(
    'serves every round with no error, no timeout, no 5xx, and no heap growth',
    { timeout: 120_000 + ROUND_SECONDS * ROUNDS * 2_000 },
    async () => {
      const heaps: number[] = [];
      let served_ = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const result = await load(ROUND_SECONDS);
        expect(result.errors, `round ${round}`).toBe(0);
        expect(result.timeouts, `round ${round}`).toBe(0);
        expect(result['5xx'], `round ${round}`).toBe(0);
        served_ += result.requests.total;
        heaps.push(heapMB());
      }
      console.log(
        `soak: ${served_} requests, heap after each round (MB): ${heaps.map((h) => h.toFixed(1)).join(', ')}`,
      );
      // After the first round has warmed everything up, the heap stays flat.
      expect(heaps.at(-1)! - heaps[1]!).toBeLessThan(8);
    },
  );

  it(
    'a Redis outage mid-load ends with no crash and no 5xx; limits fall back per process',
    { timeout: 60_000 },
    async () => {
      const running = load(3);
      await new Promise((resolve) => setTimeout(resolve, 700));
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 800));
      await redis.start();
      const result = await running;
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(result['5xx']).toBe(0);
      const limited = await served.app.fetch(new Request('http://localhost/limited'));
      expect([200, 429]).toContain(limited.status);
    },
  );
});
