import type { Store } from './types.js';

// Expired entries are swept once this many writes have happened, so memory stays bounded.
const SWEEP_EVERY = 10_000;

/** The default store: one process's memory. Use the Redis store for several processes. */
export class MemoryStore implements Store {
  readonly #counts = new Map<string, { count: number; until: number }>();
  readonly #values = new Map<string, { value: string; until: number }>();
  #writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  limit(key: string, limit: number, seconds: number): Promise<boolean> {
    const now = this.now();
    const entry = this.#counts.get(key);
    if (entry && entry.until > now && entry.count >= limit) return Promise.resolve(true);
    const count = entry && entry.until > now ? entry.count + 1 : 1;
    this.#counts.set(key, { count, until: now + seconds * 1000 });
    this.#sweep(now);
    return Promise.resolve(false);
  }

  repeat(key: string, value: string, seconds: number): Promise<boolean> {
    const now = this.now();
    const entry = this.#values.get(key);
    if (entry && entry.until > now && entry.value === value) return Promise.resolve(true);
    this.#values.set(key, { value, until: now + seconds * 1000 });
    this.#sweep(now);
    return Promise.resolve(false);
  }

  #sweep(now: number): void {
    if (++this.#writes % SWEEP_EVERY !== 0) return;
    for (const map of [this.#counts, this.#values] as Map<string, { until: number }>[]) {
      for (const [key, entry] of map) if (entry.until <= now) map.delete(key);
    }
  }
}
