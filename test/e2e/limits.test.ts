import { createHash } from 'node:crypto';
import { Agent, request as httpRequestRaw } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, type RouteTable } from 'course-router';
import { RedisStore } from 'course-router/redis';
import { startRedis, type RedisServer } from '../_redis.js';
import { heapMB, mb } from '../_heap.js';
import { buildApp, importTable, removeApp, serve, writeApp, type Served } from '../_utils.js';

// The state a client makes the router keep, flooded through both adapters: many distinct
// addresses (believed from X-Forwarded-For under `trustProxy`) and large repeated values.
const FILES = {
  'routes.ts': `
import { Course, input, requestLimit } from 'course-router';

Course.get('/limited', async () => ((await requestLimit('hit', 3, 60)) ? 'limited' : 'ok'));
Course.get('/keyed', async () => ((await requestLimit(String(input('k')), 3, 60)) ? 'limited' : 'ok'));
Course.get('/counted', async () => ((await requestLimit('n', Number(input('n')), Number(input('s')))) ? 'limited' : 'ok'));
Course.post('/repeat', 'Forms@repeat');
`,
  'app/Components/Controller/Forms.ts': `
import { Controller, input } from 'course-router';
export class Forms extends Controller {
  async repeat() {
    return (await this.requestRepeat('form', String(input('text')))) ? 'repeat' : 'new';
  }
}`,
};

let dir: string;
let table: RouteTable;
let redis: RedisServer;

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  table = await importTable(dir);
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
  removeApp(dir);
});

// 170,000 requests: minutes on a loaded machine.
describe('memory store under a flood of distinct clients', { timeout: 300_000 }, () => {
  let store: MemoryStore;
  let served: Served;
  beforeAll(async () => {
    store = new MemoryStore();
    served = await serve(table, { store, trustProxy: 1 });
  });
  afterAll(() => served?.close());

  it('150,000 clients through Fetch and 12,000 over node:http: 10,000 entries, the heap bounded', async () => {
    await limited(served, '192.0.2.1', 'fetch');
    const before = heapMB();
    for (let i = 0; i < 150_000; i += 500)
      await Promise.all(
        Array.from({ length: 500 }, (_, j) => limited(served, address(i + j), 'fetch')),
      );
    const afterFetch = heapMB();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    for (let i = 150_000; i < 162_000; i += 200)
      await Promise.all(
        Array.from({ length: 200 }, (_, j) => limited(served, address(i + j), agent)),
      );
    agent.destroy();
    const after = heapMB();
    console.log(
      `162,000 clients: heap ${mb(before)} → ${mb(afterFetch)} (150,000 via Fetch) → ${mb(after)} MB; ${store.size} entries`,
    );
    expect(store.size).toBe(10_000);
    expect(after - before).toBeLessThan(8);
  });

  it('a limited client that keeps calling through the flood stays limited', async () => {
    const victim = '198.51.100.77';
    for (let i = 0; i < 3; i++) expect(await limited(served, victim, 'fetch')).toBe('ok');
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5_000; i += 500)
        await Promise.all(
          Array.from({ length: 500 }, (_, j) =>
            limited(served, address(200_000 + round * 5_000 + i + j), 'fetch'),
          ),
        );
      expect(await limited(served, victim, round % 2 ? 'fetch' : 'http'), `round ${round}`).toBe(
        'limited',
      );
    }
    expect(store.size).toBe(10_000);
  });

  it('60 clients posting 900 KB each to requestRepeat: 60 digests, the heap unchanged', async () => {
    await repeat(served, '192.0.2.2', 'warm', 'fetch');
    const before = heapMB();
    const size = store.size;
    for (let i = 0; i < 60; i++) {
      const via = i % 2 ? 'fetch' : 'http';
      expect(await repeat(served, `203.0.113.${i}`, bigValue(i), via)).toBe('new');
    }
    const after = heapMB();
    console.log(`60 × 900 KB repeats: heap ${mb(before)} → ${mb(after)} MB`);
    expect(store.size - size).toBeLessThanOrEqual(60); // each new entry may evict an old one
    expect(after - before).toBeLessThan(2);
    expect(await repeat(served, '203.0.113.5', bigValue(5), 'http')).toBe('repeat');
    expect(await repeat(served, '203.0.113.6', bigValue(6), 'fetch')).toBe('repeat');
  });
});

describe('Redis store through the app', () => {
  const prefix = `e2e${Date.now()}:`;
  let store: RedisStore;
  let served: Served;
  beforeAll(async () => {
    store = new RedisStore({ url: redis.url, prefix, onStateChange: () => {} });
    // Two proxies believed: the client's own entry is whatever it sent, up to a request head.
    served = await serve(table, { store, trustProxy: 2 });
  });
  afterAll(async () => {
    await served?.close();
    await store?.close();
  });

  it('a 900 KB requestRepeat value is stored as its digest, with a one-day TTL', async () => {
    for (const via of ['fetch', 'http'] as const) {
      const client = `192.0.2.${via.length}, 10.0.0.1`;
      expect(await repeat(served, client, bigValue(1), via)).toBe('new');
      expect(await repeat(served, client, bigValue(1), via)).toBe('repeat');
      // The client's length first: no client and key read as another pair.
      const key = `${prefix}repeat:9:192.0.2.${via.length}:form`;
      expect(await store.client.get(key)).toBe(
        createHash('sha256').update(bigValue(1)).digest('base64url'),
      );
      const ttl = await store.client.pttl(key);
      expect(ttl).toBeGreaterThan(86_000_000);
      expect(ttl).toBeLessThanOrEqual(86_400_000);
    }
  });

  it('a 12 KB client identity is kept as a short key that expires with its window', async () => {
    const client = `${'a'.repeat(12_000)}, 10.0.0.1`;
    for (const via of ['fetch', 'http'] as const) {
      await store.client.flushdb();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await limited(served, client, via));
      expect(answers).toEqual(['ok', 'ok', 'ok', 'limited']);
      const keys = await store.client.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]!.length).toBeLessThanOrEqual(prefix.length + 256);
      const ttl = await store.client.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });
});

describe('who a client is', () => {
  it('an IPv6 client is its /56 network: its other addresses share its limit', async () => {
    const served = await serve(table, { store: new MemoryStore(), trustProxy: 1 });
    try {
      const answers = [];
      for (let i = 1; i <= 4; i++) answers.push(await limited(served, `2001:db8::${i}`, 'fetch'));
      expect(answers).toEqual(['ok', 'ok', 'ok', 'limited']);
      // Another address of the same /56, written otherwise, over node:http.
      expect(await limited(served, '2001:DB8:0:ff:1:2:3:4', 'http')).toBe('limited');
      // An IPv4 address written in IPv6 is that IPv4 client.
      for (let i = 0; i < 3; i++) expect(await limited(served, '198.51.100.9', 'fetch')).toBe('ok');
      for (const written of ['::198.51.100.9', '::ffff:0:198.51.100.9', '64:ff9b::198.51.100.9'])
        expect(await limited(served, written, 'http'), written).toBe('limited');
      expect(await limited(served, '::198.51.100.10', 'http')).toBe('ok');
      // The next /56 is another subscriber; an IPv4 client is its address.
      expect(await limited(served, '2001:db8:0:100::1', 'http')).toBe('ok');
      expect(await limited(served, '192.0.2.1', 'fetch')).toBe('ok');
      expect(await limited(served, '192.0.2.2', 'fetch')).toBe('ok');
    } finally {
      await served.close();
    }
  });

  it("a limit below one call, or a window of no time, is an error, not each store's own reading", async () => {
    const errors: string[] = [];
    const served = await serve(table, {
      store: new MemoryStore(),
      onError: (error) => errors.push((error as Error).message),
    });
    try {
      for (const query of ['n=0&s=60', 'n=-1&s=60', 'n=x&s=60', 'n=3&s=0']) {
        const answer = await call(served, 'GET', `/counted?${query}`, {}, undefined, 'fetch');
        expect(answer, query).toBe('Internal Server Error');
      }
      expect(errors[0]).toBe(
        'course: requestLimit(key, limit, seconds) needs a limit of 1 or more and seconds above 0, not 0 and 60',
      );
      expect(await call(served, 'GET', '/counted?n=1&s=60', {}, undefined, 'fetch')).toBe('ok');
    } finally {
      await served.close();
    }
  });

  it('no client and key read as another pair, in memory and in Redis', async () => {
    const prefix = `pair${Date.now()}:`;
    const redisStore = new RedisStore({ url: redis.url, prefix, onStateChange: () => {} });
    try {
      for (const store of [new MemoryStore(), redisStore]) {
        const served = await serve(table, {
          store,
          identify: (request) => request.getHeader('x-user') ?? '',
        });
        try {
          const keyed = (user: string, key: string) =>
            call(
              served,
              'GET',
              `/keyed?k=${encodeURIComponent(key)}`,
              { 'x-user': user },
              undefined,
              'fetch',
            );
          for (let i = 0; i < 3; i++) expect(await keyed('ann', 'b:login')).toBe('ok');
          expect(await keyed('ann', 'b:login')).toBe('limited');
          // `ann:b` with `login` is another client's own limit.
          expect(await keyed('ann:b', 'login')).toBe('ok');
        } finally {
          await served.close();
        }
      }
    } finally {
      await redisStore.close();
    }
  });
});

// --- helpers ---

type Via = 'fetch' | 'http' | Agent;

function address(i: number): string {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

function bigValue(i: number): string {
  return String.fromCharCode(65 + (i % 26)).repeat(900_000);
}

function limited(served: Served, client: string, via: Via): Promise<string> {
  return call(served, 'GET', '/limited', { 'x-forwarded-for': client }, undefined, via);
}

function repeat(served: Served, client: string, text: string, via: Via): Promise<string> {
  const headers = {
    'x-forwarded-for': client,
    'content-type': 'application/x-www-form-urlencoded',
  };
  return call(served, 'POST', '/repeat', headers, `text=${text}`, via);
}

/** One request through the Fetch adapter, or over a socket to the node:http one. */
async function call(
  served: Served,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  via: Via,
): Promise<string> {
  if (via === 'fetch') {
    const response = await served.app.fetch(
      new Request(`http://localhost${path}`, { method, headers, body }),
    );
    return response.text();
  }
  const { hostname, port } = new URL(served.base);
  // A socket of its own (no keep-alive) unless the flood's agent is given: a kept-alive one the
  // server closes after 5 s idle, as a slow flood between two such calls allows, would reset.
  const agent = via === 'http' ? false : via;
  return new Promise((resolve, reject) => {
    const req = httpRequestRaw({ hostname, port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end(body);
  });
}
