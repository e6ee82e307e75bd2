import { Redis, type RedisOptions } from 'ioredis';
import { digest, storeKey } from './digest.js';
import { MemoryStore } from './memory.js';
import type { Store } from './types.js';

/** Options of the Redis store. */
export interface RedisStoreOptions {
  /** `redis://host:port/db` [`REDIS_URL`, else `redis://127.0.0.1:6379`]. */
  url?: string;
  /** Prefix of every key [`course:`]. */
  prefix?: string;
  /** Longest wait for Redis per call, in ms, before the fallback answers [250]. */
  timeout?: number;
  /** Answers while Redis is unreachable [a `MemoryStore` of this process]. */
  fallback?: Store;
  /** Told when Redis becomes unreachable and when it is back [`console.warn`]. */
  onStateChange?: (state: 'down' | 'up', error?: unknown) => void;
}

// One round trip each, atomic in Redis: the same rules as MemoryStore. Every key is written
// with its expiry and keeps a digest, never a value: a client costs Redis a small key for
// one window (a day for a repeat), and Redis's `maxmemory` policy bounds the rest.
const LIMIT = `
local count = tonumber(redis.call('GET', KEYS[1])) or 0
if count >= tonumber(ARGV[1]) then return 1 end
redis.call('SET', KEYS[1], count + 1, 'PX', ARGV[2])
return 0`;
const REPEAT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 0`;

type Scripted = Redis & {
  courseLimit(key: string, limit: number, ms: number): Promise<number>;
  courseRepeat(key: string, value: string, ms: number): Promise<number>;
};

/**
 * State shared by every process through Redis. Policy when Redis is unreachable: no crash and
 * no queue; each call waits at most `timeout` ms (also for the first connection, right after
 * start), then this process's fallback store answers (limits still hold, per process) until
 * Redis answers again.
 */
export class RedisStore implements Store {
  readonly client: Scripted;
  readonly #prefix: string;
  readonly #fallback: Store;
  readonly #timeout: number;
  readonly #onStateChange: (state: 'down' | 'up', error?: unknown) => void;
  #down = false;
  /** Settles when the first connection attempt ends, ready or failed. */
  readonly #firstAttempt: Promise<void>;
  #attempted = false;

  constructor(options: RedisStoreOptions = {}) {
    const redisOptions: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeout ?? 250,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    };
    const client = new Redis(
      options.url ?? process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      redisOptions,
    );
    client.defineCommand('courseLimit', { numberOfKeys: 1, lua: LIMIT });
    client.defineCommand('courseRepeat', { numberOfKeys: 1, lua: REPEAT });
    client.on('error', (error: unknown) => this.#state('down', error));
    client.on('ready', () => this.#state('up'));
    this.#firstAttempt = new Promise((resolve) => {
      const settle = () => {
        this.#attempted = true;
        resolve();
      };
      client.once('ready', settle);
      client.once('error', settle);
    });
    this.client = client as Scripted;
    this.#prefix = options.prefix ?? 'course:';
    this.#fallback = options.fallback ?? new MemoryStore();
    this.#timeout = options.timeout ?? 250;
    this.#onStateChange = options.onStateChange ?? defaultReport;
  }

  limit(key: string, limit: number, seconds: number): Promise<boolean> {
    return this.#run(
      () => this.client.courseLimit(this.#prefix + storeKey(key), limit, ms(seconds)),
      () => this.#fallback.limit(key, limit, seconds),
    );
  }

  repeat(key: string, value: string, seconds: number): Promise<boolean> {
    return this.#run(
      () => this.client.courseRepeat(this.#prefix + storeKey(key), digest(value), ms(seconds)),
      () => this.#fallback.repeat(key, value, seconds),
    );
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }

  async #run(command: () => Promise<number>, fallback: () => Promise<boolean>): Promise<boolean> {
    // A call right after start waits (at most `timeout`) for the first connection, so that
    // instances share state from their first request, not only once Redis has answered.
    if (!this.#attempted)
      await withTimeout(this.#firstAttempt, this.#timeout).catch(() => undefined);
    if (this.client.status !== 'ready') {
      this.#state('down', new Error(`Redis connection is ${this.client.status}`));
      return fallback();
    }
    try {
      return (await withTimeout(command(), this.#timeout)) === 1;
    } catch (error) {
      this.#state('down', error);
      return fallback();
    }
  }

  #state(state: 'down' | 'up', error?: unknown): void {
    if ((state === 'down') === this.#down) return;
    this.#down = state === 'down';
    this.#onStateChange(state, error);
  }
}

// --- internal ---

function defaultReport(state: 'down' | 'up', error?: unknown): void {
  if (state === 'down')
    console.warn(
      'course: Redis is unreachable; limits hold per process until it is back:',
      String(error),
    );
  else console.warn('course: Redis is back; limits are shared again');
}

// Redis refuses an expiry of 0 ms.
function ms(seconds: number): number {
  return Math.max(1, Math.ceil(seconds * 1000));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
