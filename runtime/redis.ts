/**
 * `course-router/redis`: the Redis store, a separate entry so that apps without Redis never
 * load its client.
 */
export { RedisStore } from './store/redis.js';
export type { RedisStoreOptions } from './store/redis.js';
