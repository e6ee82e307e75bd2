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
 * verbs with one answer together. The table is built
 * when a request first needs it: paths found by their key (`staticKeyOf`, computed in
 * JavaScript: `Map.get` with a request's new string would first have V8 hash all of it in a
 * runtime call), then one comparison.
 */
export class StaticPaths {
  readonly #routes: RouteList;
  readonly #offsets: readonly number[];
  readonly #text: string;
  #table: Table | undefined;

  constructor(routes: RouteList, offsets: readonly number[], rows: string) {
    this.#routes = routes;
    this.#offsets = offsets;
    this.#text = rows;
  }

  /** The hit of `method` on `path`; `undefined`: not for this verb; `null`: not a static path. */
  find(path: string, method: string): MatchHit | undefined | null {
    const table = (this.#table ??= this.#build());
    const at = table.find(path);
    if (at === -1) return null;
    let hit: number | undefined;
    const set = table.sets[at]!;
    if (set !== -1) {
      const verbs = table.verbs[set]!;
      if (listsVerb(verbs, method) || verbs.includes('*')) hit = table.hitOf[at]!;
    } else {
      const answer = table.mixed[table.hitOf[at]!]!;
      for (let i = 0; i < answer.length; i += 2) {
        const verb = answer[i];
        if (verb === method) {
          hit = answer[i + 1] as number;
          break;
        }
        if (verb === '*') hit = answer[i + 1] as number;
      }
    }
    return hit === undefined ? undefined : (table.hits[hit] ??= this.#hit(table.stored[hit]!));
  }

  /** The verbs `path` answers, or `undefined` when it is not a static path. */
  verbs(path: string): string[] | undefined {
    const table = (this.#table ??= this.#build());
    const at = table.find(path);
    if (at === -1) return undefined;
    const set = table.sets[at]!;
    if (set !== -1) return [...table.verbs[set]!];
    return table.mixed[table.hitOf[at]!]!.filter((_, i) => i % 2 === 0) as string[];
  }

  #hit(stored: Stored): MatchHit {
    return typeof stored === 'number'
      ? this.#routes.hit(stored)
      : {
          route: this.#routes.at(stored[0]),
          params: (stored.slice(1) as (string | null)[]).map((p) => p ?? undefined),
        };
  }

  #build(): Table {
    const rows = parseLines(this.#text) as [string, ...(string | Stored)[]][];
    const table = new Table(
      rows.map(([path]) => path),
      staticKeyOf(this.#offsets),
    );
    const sets = new Map<string, number>();
    rows.forEach(([, ...pairs], at) => {
      if (pairs.length === 2) {
        const set = pairs[0] as string;
        if (!sets.has(set)) sets.set(set, table.verbs.push(set.split('|')) - 1);
        table.sets[at] = sets.get(set)!;
        table.hitOf[at] = table.stored.push(pairs[1] as Stored) - 1;
        return;
      }
      const answer: (string | number)[] = [];
      for (let k = 0; k < pairs.length; k += 2) {
        const hit = table.stored.push(pairs[k + 1] as Stored) - 1;
        for (const verb of (pairs[k] as string).split('|')) answer.push(verb, hit);
      }
      table.sets[at] = -1;
      table.hitOf[at] = table.mixed.push(answer) - 1;
    });
    return table;
  }
}

// --- internal ---

/** One past any path's length: an offset that reads nothing. */
const NONE = 2 ** 30;

/** A route number, or the route and its parameter values (`null`: absent). */
type Stored = number | [number, ...(string | null)[]];

/** The static paths as a lookup reads them. */
class Table {
  readonly paths: readonly string[];
  /** Per path: its verbs (a position in `verbs`) when they share one answer, else `-1`. */
  readonly sets: Int32Array;
  /** Per path: its answer (a position in `stored`), or with several, a position in `mixed`. */
  readonly hitOf: Int32Array;
  readonly verbs: string[][] = [];
  /** `[verb, hit, …]` of each path whose verbs get different answers. */
  readonly mixed: (string | number)[][] = [];
  readonly stored: Stored[] = [];
  /** Each stored answer as a hit, made when first returned. */
  readonly hits: (MatchHit | undefined)[] = [];
  /**
   * Open-addressed: `[key, position]` per slot (`-1` in an empty slot's position), found by
   * the key's Fibonacci hash; paths that share a key take further slots. Read inline, with no
   * `Map` call.
   */
  readonly #slots: Int32Array;
  readonly #shift: number;
  readonly #key: (path: string) => number;

  constructor(paths: readonly string[], key: (path: string) => number) {
    this.paths = paths;
    this.sets = new Int32Array(paths.length);
    this.hitOf = new Int32Array(paths.length);
    this.#key = key;
    let bits = 2;
    while (1 << bits < paths.length * 2) bits++;
    this.#shift = 32 - bits;
    const slots = (this.#slots = new Int32Array(2 << bits).fill(-1));
    for (let k = 0; k < paths.length; k++) {
      const pathKey = key(paths[k]!);
      let slot = this.#slotOf(pathKey);
      while (slots[slot + 1] !== -1) slot = (slot + 2) & (slots.length - 1);
      slots[slot] = pathKey;
      slots[slot + 1] = k;
    }
  }

  /** The position of `path`, or `-1`. */
  find(path: string): number {
    const key = this.#key(path);
    const slots = this.#slots;
    for (let slot = this.#slotOf(key); ; slot = (slot + 2) & (slots.length - 1)) {
      const position = slots[slot + 1]!;
      if (position === -1) return -1;
      if (slots[slot] === key && this.paths[position] === path) return position;
    }
  }

  #slotOf(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> this.#shift) << 1;
  }
}
