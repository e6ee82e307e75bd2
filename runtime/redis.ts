/**
 * `course-router/redis`: the Redis store, a separate entry so that apps without Redis never
 * load its client. Its client, ioredis, is an optional peer dependency: importing this entry
 * without it is an error naming the install, not a module resolution trace.
 */
import type * as Store from './stores/redis.js';
import { requirePackage } from './packages.js';
import { unavailableOn } from './platform.js';

unavailableOn(
  ['Cloudflare Workers'],
  'course-router/redis (RedisStore needs TCP connections to Redis)',
  'use the MemoryStore (limits per isolate), or a Store of your own over Workers KV or Durable Objects',
);
requirePackage('ioredis', 'course-router/redis');
const store = await import('./stores/redis.js');

export const RedisStore = store.RedisStore;
export type RedisStore = Store.RedisStore;
export type { RedisStoreOptions } from './stores/redis.js';
