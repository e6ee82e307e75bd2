import type { Contender } from './routers.js';

/** Options of a measurement run. */
export interface RunOptions {
  /** Seconds, not minutes: few samples, one round (CI keeps the suite from rotting). */
  smoke: boolean;
}

/** Median nanoseconds per lookup of one router on one case, with fresh and literal strings. */
export interface LookupResult {
  router: string;
  fresh: number;
  literal: number;
}

/**
 * A string with the same characters as `text` but no cached hash, as `req.url` is for each
 * request (a reused literal hides hashing and V8's caches).
 */
export function fresh(text: string): string {
  return (' ' + text).slice(1);
}

/**
 * Measures every contender on `requests` (each call looks all of them up), in rounds that
 * rotate the order of the contenders; the result is the median of the rounds.
 */
export async function measureLookups(
  contenders: readonly Contender[],
  requests: readonly (readonly [method: string, url: string])[],
  options: RunOptions,
  rounds = options.smoke ? 1 : 2,
): Promise<LookupResult[]> {
  for (const contender of contenders) check(contender, requests);
  const samples = new Map<string, { fresh: number[]; literal: number[] }>();
  for (let round = 0; round < rounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    for (const contender of order) {
      const entry = samples.get(contender.name) ?? { fresh: [], literal: [] };
      entry.fresh.push(await perLookup(contender, requests, true, options));
      entry.literal.push(await perLookup(contender, requests, false, options));
      samples.set(contender.name, entry);
    }
  }
  return contenders.map((c) => ({
    router: c.name,
    fresh: median(samples.get(c.name)!.fresh),
    literal: median(samples.get(c.name)!.literal),
  }));
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// --- internal ---

// A plain timed loop rather than a harness: harnesses that keep results alive to defeat
// dead-code elimination make allocating routers look several times slower than they are.
const LOOP = `
  let sink;
  const count = requests.length;
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const request = requests[i % count];
    sink = lookup(request[0], FRESH);
  }
  const elapsed = Number(process.hrtime.bigint() - started);
  return [elapsed / iterations, sink];
`;

async function perLookup(
  contender: Contender,
  requests: readonly (readonly [string, string])[],
  freshStrings: boolean,
  options: RunOptions,
): Promise<number> {
  // One loop function per router and string kind, so no call site is shared between them.
  const body = LOOP.replace('FRESH', freshStrings ? "(' ' + request[1]).slice(1)" : 'request[1]');
  const loop = new Function('lookup', 'requests', 'iterations', body) as (
    lookup: Contender['lookup'],
    requests: readonly (readonly [string, string])[],
    iterations: number,
  ) => [number, unknown];
  const iterations = options.smoke ? 20_000 : 300_000;
  loop(contender.lookup, requests, iterations);
  const samples: number[] = [];
  for (let i = 0; i < (options.smoke ? 3 : 5); i++) {
    samples.push(loop(contender.lookup, requests, iterations)[0]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return median(samples);
}

function check(contender: Contender, requests: readonly (readonly [string, string])[]): void {
  for (const [method, url] of requests) {
    const found = contender.lookup(method, url) as unknown;
    const miss =
      found === undefined || found === null || (Array.isArray(found) && found[0]?.length === 0);
    if (miss) throw new Error(`${contender.name} found no route for ${method} ${url}`);
  }
}
