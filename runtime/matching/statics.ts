import { listsVerb } from './matcher.js';
import type { RouteList } from './route-list.js';
import { parseLines } from './rows.js';
import { segmentHash } from './tree.js';
import type { MatchHit } from '../types.js';

/**
 * The key of a static path for a large app's table: its length and its characters at up to four
 * `offsets` from its end (`0` for an offset past its start), which the build picks to tell the
 * app's paths apart, so that a lookup reads a few characters instead of hashing the whole
 * path; with no offsets, `segmentHash` of every character. The build scores its choice of
 * offsets with this same function.
 */
export function staticKeyOf(offsets: readonly number[]): (path: string) => number {
  if (offsets.length === 0) return (path) => segmentHash(path, 0, path.length);
  // Four reads whatever the count: one past any path adds 0, and the constants stay in the code.
  const [a = NONE, b = NONE, c = NONE, d = NONE] = offsets;
  return (path) => {
    const n = path.length;
    let key = n * 31 + (n > a ? path.charCodeAt(n - 1 - a) : 0);
    key = key * 31 + (n > b ? path.charCodeAt(n - 1 - b) : 0);
    key = key * 31 + (n > c ? path.charCodeAt(n - 1 - c) : 0);
    return (key * 31 + (n > d ? path.charCodeAt(n - 1 - d) : 0)) | 0;
  };
}

/** How many offsets `staticKeyOf` reads at most. */
export const MAX_OFFSETS = 4;

/**
 * The static paths of a large app, as the generated module lists them: one per line,
 * `[path, verbs, answer, verbs, answer, …]`, verbs as `GET|HEAD` (`*`: every verb) and an answer a
 * route number, or `[route, value, …]` when the route has parameters (`null`: an absent one),
 * verbs with one answer together. The table is built when a request first needs it: paths
 * found by their key (`staticKeyOf`, computed in JavaScript: `Map.get` with a request's new
 * string would first have V8 hash all of it in a runtime call), then one comparison.
 */
export class StaticPaths {
  readonly #routes: RouteList;
  readonly #offsets: readonly number[];
  readonly #text: string;
  #built = false;
  /**
   * `[path, answer, path, answer, …]`, a path beside its answer (one cache line for both): an
   * answer is `hit × sets + set` when the path's verbs (`#verbs[set]`) share one hit, else
   * `[verb, hit, …]`; a hit is a position in `#stored`.
   */
  #entries: (string | Answer)[] = [];
  #verbs: string[][] = [];
  #stored: Stored[] = [];
  /** Each stored answer as a hit, made when first returned. */
  #hits: (MatchHit | undefined)[] = [];
  /**
   * Open-addressed: `[key, position]` per slot (the path's position in `#entries`, `-1` in an
   * empty slot), found by the key's Fibonacci hash; paths that share a key take further slots.
   * Read inline, with no `Map` call.
   */
  #slots = new Int32Array(0);
  #shift = 32;
  #key: (path: string) => number = () => 0;

  constructor(routes: RouteList, offsets: readonly number[], rows: string) {
    this.#routes = routes;
    this.#offsets = offsets;
    this.#text = rows;
  }

  /** The hit of `method` on `path`; `undefined`: not for this verb; `null`: not a static path. */
  find(path: string, method: string): MatchHit | undefined | null {
    const answer = this.#answer(path);
    if (answer === undefined) return null;
    let hit: number | undefined;
    if (typeof answer === 'number') {
      const sets = this.#verbs.length;
      const verbs = this.#verbs[answer % sets]!;
      if (listsVerb(verbs, method) || verbs.includes('*')) hit = Math.floor(answer / sets);
    } else {
      for (let i = 0; i < answer.length; i += 2) {
        const verb = answer[i];
        if (verb === method) {
          hit = answer[i + 1] as number;
          break;
        }
        if (verb === '*') hit = answer[i + 1] as number;
      }
    }
    return hit === undefined ? undefined : (this.#hits[hit] ??= this.#hit(this.#stored[hit]!));
  }

  /** The verbs `path` answers, or `undefined` when it is not a static path. */
  verbs(path: string): string[] | undefined {
    const answer = this.#answer(path);
    if (answer === undefined) return undefined;
    if (typeof answer === 'number') return [...this.#verbs[answer % this.#verbs.length]!];
    return answer.filter((_, i) => i % 2 === 0) as string[];
  }

  #answer(path: string): Answer | undefined {
    if (!this.#built) this.#build();
    const key = this.#key(path);
    const slots = this.#slots;
    for (let slot = this.#slotOf(key); ; slot = (slot + 2) & (slots.length - 1)) {
      const position = slots[slot + 1]!;
      if (position === -1) return undefined;
      if (slots[slot] === key && this.#entries[position] === path) {
        return this.#entries[position + 1] as Answer;
      }
    }
  }

  #slotOf(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> this.#shift) << 1;
  }

  #hit(stored: Stored): MatchHit {
    return typeof stored === 'number'
      ? this.#routes.hit(stored)
      : {
          route: this.#routes.at(stored[0]),
          params: (stored.slice(1) as (string | null)[]).map((p) => p ?? undefined),
        };
  }

  #build(): void {
    const rows = parseLines(this.#text) as [string, ...(string | Stored)[]][];
    const sets = new Map<string, number>();
    // A path whose verbs share one hit keeps `[hit, set]` until the count of sets is known.
    const answers = rows.map(([, ...pairs]): [number, number] | (string | number)[] => {
      const hits = pairs
        .filter((_, k) => k % 2 === 1)
        .map((h) => this.#stored.push(h as Stored) - 1);
      if (hits.length === 1) {
        const set = pairs[0] as string;
        if (!sets.has(set)) sets.set(set, this.#verbs.push(set.split('|')) - 1);
        return [hits[0]!, sets.get(set)!];
      }
      return hits.flatMap((hit, k) => (pairs[2 * k] as string).split('|').flatMap((v) => [v, hit]));
    });
    // Made at their full length: an array filled from far in would hold its items as a dictionary.
    this.#hits = new Array<MatchHit | undefined>(this.#stored.length);
    const count = this.#verbs.length;
    this.#entries = rows.flatMap(([path], k) => {
      const answer = answers[k]!;
      return [
        path,
        typeof answer[0] === 'number' ? answer[0] * count + (answer[1] as number) : answer,
      ];
    });
    const key = (this.#key = staticKeyOf(this.#offsets));
    let bits = 2;
    while (1 << bits < rows.length * 2) bits++;
    this.#shift = 32 - bits;
    const slots = (this.#slots = new Int32Array(2 << bits).fill(-1));
    for (let k = 0; k < rows.length; k++) {
      const pathKey = key(rows[k]![0]);
      let slot = this.#slotOf(pathKey);
      while (slots[slot + 1] !== -1) slot = (slot + 2) & (slots.length - 1);
      slots[slot] = pathKey;
      slots[slot + 1] = 2 * k;
    }
    this.#built = true;
  }
}

// --- internal ---

/** One past any path's length: an offset that reads nothing. */
const NONE = 2 ** 30;

type Answer = number | readonly (string | number)[];

/** A route number, or the route and its parameter values (`null`: absent). */
type Stored = number | [number, ...(string | null)[]];
