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
 * A new string with the characters of `text`, as `req.url` is for each request: a flat string
 * (node's HTTP parser makes a sequential one-byte string, never a slice of another) with no
 * cached hash. Reusing one literal string hides hashing and V8's caches; a slice of a longer
 * string (`(' ' + text).slice(1)`) is a kind of string no server sees, on which reading
 * characters costs more.
 */
export function fresh(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/**
 * Measures every contender on `requests` (each call looks all of them up), in rounds that
 * rotate the order of the contenders (round `k` starts with contender `first + k`); the
 * result is the median of the rounds.
 */
export async function measureLookups(
  contenders: readonly Contender[],
  requests: readonly (readonly [method: string, url: string])[],
  options: RunOptions,
  rounds = options.smoke ? 1 : 2,
  first = 0,
): Promise<LookupResult[]> {
  for (const contender of contenders) check(contender, requests);
  const samples = new Map<string, { fresh: number[]; literal: number[] }>();
  for (let round = 0; round < rounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + first + round) % contenders.length]!);
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
  const started = process.hrtime.bigint();
  for (let i = 0; i < targets.length; i++) {
    sink = lookup(methods[i], targets[i]);
  }
  return [Number(process.hrtime.bigint() - started), sink];
`;

// Fresh strings are made before each batch, untimed: making them is the HTTP parser's work,
// not the router's. A batch's strings fit in the processor's cache, as a new `req.url` does.
const BATCH = 8192;

async function perLookup(
  contender: Contender,
  requests: readonly (readonly [string, string])[],
  freshStrings: boolean,
  options: RunOptions,
): Promise<number> {
  // One loop function per router and string kind, so no call site is shared between them.
  const loop = new Function('lookup', 'methods', 'targets', LOOP) as (
    lookup: Contender['lookup'],
    methods: readonly string[],
    targets: readonly string[],
  ) => [number, unknown];
  const batches = options.smoke ? 3 : 36;
  const methods = Array.from({ length: BATCH }, (_, i) => requests[i % requests.length]![0]);
  const literal = Array.from({ length: BATCH }, (_, i) => requests[i % requests.length]![1]);
  const time = () => {
    let elapsed = 0;
    for (let b = 0; b < batches; b++)
      elapsed += loop(contender.lookup, methods, freshStrings ? literal.map(fresh) : literal)[0];
    return elapsed / (batches * BATCH);
  };
  // Garbage another router left (registering thousands of routes makes much) is collected
  // before the clock starts, when the process allows it, so no one pays for another's.
  (globalThis as { gc?: () => void }).gc?.();
  time();
  const samples: number[] = [];
  for (let i = 0; i < (options.smoke ? 3 : 5); i++) {
    samples.push(time());
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
