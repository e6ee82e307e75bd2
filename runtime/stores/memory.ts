import { digest, storeKey } from './digest.js';
import type { Store } from './types.js';

/** Options of the memory store. */
export interface MemoryStoreOptions {
  /**
   * Most entries kept, counters and remembered values together [10,000]. An entry costs about
   * 300 bytes (keys over 256 characters are kept as digests, values always are).
   */
  maxEntries?: number;
  /** The clock, in ms [`Date.now`]. */
  now?: () => number;
}

/** Default `maxEntries`: about 3 MB. Beyond that many clients per window, use the Redis store. */
export const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * The default store: one process's memory, at most `maxEntries` entries. When a new entry
 * finds the store full, expired entries go first, then the one used longest ago (a limited
 * client that keeps calling counts as used, so it stays). Evicting a live entry forgets it: a
 * limited client whose entry goes is let through again, a remembered value is no longer a
 * repeat. To reset a client that way an attacker must make `maxEntries` other clients call in
 * the meantime; with that many identities it could already spread its calls over them.
 */
export class MemoryStore implements Store {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #now: () => number;
  #writes = 0;
  #sweptAt = 0;

  constructor(options: MemoryStoreOptions = {}) {
    const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new TypeError('course: MemoryStore maxEntries must be a whole number above 0');
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** How many entries the store holds now. */
  get size(): number {
    return this.#entries.size;
  }

  limit(key: string, limit: number, seconds: number): Promise<boolean> {
    const now = this.#now();
    const name = `l${storeKey(key)}`;
    const found = this.#entries.get(name);
    const live = found !== undefined && found.until > now ? found : undefined;
    if (live && live.count >= limit) {
      this.#write(name, live, now); // used: the last to be evicted, but its window stays
      return Promise.resolve(true);
    }
    this.#write(name, { count: (live?.count ?? 0) + 1, until: now + seconds * 1000 }, now);
    return Promise.resolve(false);
  }

  repeat(key: string, value: string, seconds: number): Promise<boolean> {
    const now = this.#now();
    const name = `r${storeKey(key)}`;
    const entry = this.#entries.get(name);
    const hash = digest(value);
    if (entry && entry.until > now && entry.digest === hash) return Promise.resolve(true);
    this.#write(name, { count: 0, digest: hash, until: now + seconds * 1000 }, now);
    return Promise.resolve(false);
  }

  /** Writes `entry` as the most recently used, making room for it first. */
  #write(name: string, entry: Entry, now: number): void {
    // A Map keeps insertion order: deleting first moves the entry to the end.
    this.#entries.delete(name);
    if (this.#entries.size >= this.#max) this.#makeRoom(now);
    this.#entries.set(name, entry);
    if (++this.#writes - this.#sweptAt >= SWEEP_EVERY) this.#sweep(now);
  }

  #makeRoom(now: number): void {
    // A sweep visits every entry: while the store stays full it runs at most once per tenth
    // of `maxEntries` writes, so a flood of new clients costs a few steps per call.
    if (this.#writes - this.#sweptAt >= this.#max / 10) this.#sweep(now);
    if (this.#entries.size >= this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  #sweep(now: number): void {
    this.#sweptAt = this.#writes;
    for (const [name, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(name);
  }
}

// --- internal ---

// Below the cap, expired entries are also swept once this many writes have happened.
const SWEEP_EVERY = 10_000;

interface Entry {
  count: number;
  until: number;
  /** SHA-256 of the remembered value, never the value. */
  digest?: string;
}
