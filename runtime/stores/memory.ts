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
 * finds the store full, expired entries go first; then, of the `EVICTION_SCAN` entries used
 * longest ago, the one that weighs least: an entry of one call (or a remembered value) before a
 * counter of more, and a counter before a key over its limit, the oldest first among equals.
 * Evicting a live entry forgets it: a limited key whose entry goes is let through again, a
 * remembered value is no longer a repeat. A client calling with new keys (other accounts, other
 * values) makes entries of one call each, which go before the counters it would want reset: to
 * reset a limited key it must make `EVICTION_SCAN` keys over their limits the oldest entries,
 * and a counter of `n` calls, `maxEntries` counters of `n` calls or more.
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
      live.limited = true; // kept over the others when room is made
      this.#write(name, live, now); // used: the last to be evicted, but its window stays
      return Promise.resolve(true);
    }
    const count = (live?.count ?? 0) + 1;
    this.#write(name, { count, limited: count >= limit, until: now + seconds * 1000 }, now);
    return Promise.resolve(false);
  }

  repeat(key: string, value: string, seconds: number): Promise<boolean> {
    const now = this.#now();
    const name = `r${storeKey(key)}`;
    const entry = this.#entries.get(name);
    const hash = digest(value);
    if (entry && entry.until > now && entry.digest === hash) return Promise.resolve(true);
    this.#write(name, { count: 1, limited: false, digest: hash, until: now + seconds * 1000 }, now);
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
    if (this.#entries.size < this.#max) return;
    let lightest: string | undefined;
    let least = Infinity;
    let seen = 0;
    for (const [name, entry] of this.#entries) {
      const weight = entry.limited ? Infinity : entry.count;
      if (weight < least || lightest === undefined) {
        [lightest, least] = [name, weight];
        if (weight <= 1) break; // nothing weighs less
      }
      if (++seen === EVICTION_SCAN) break;
    }
    this.#entries.delete(lightest!);
  }

  #sweep(now: number): void {
    this.#sweptAt = this.#writes;
    for (const [name, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(name);
  }
}

// --- internal ---

// Below the cap, expired entries are also swept once this many writes have happened.
const SWEEP_EVERY = 10_000;
// How many of the entries used longest ago room is made among.
const EVICTION_SCAN = 32;

interface Entry {
  /** Calls counted (1 for a remembered value). */
  count: number;
  /** Whether the key was over its limit when last called. */
  limited: boolean;
  until: number;
  /** SHA-256 of the remembered value, never the value. */
  digest?: string;
}
