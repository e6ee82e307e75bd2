import { listsVerb } from './matcher.js';
import { segmentHash } from './tree.js';
import type { MatchHit } from '../types.js';
import type { RouteList } from './route-list.js';
import { Rows } from './rows.js';

type Answer = number | readonly (string | number)[];

/**
 * The key of a static path: its length and the characters at `offsets` from its end (`0` for
 * an offset past its start). The compiler picks the offsets that tell the app's static paths
 * apart and writes the same arithmetic as the small function the generated module gives
 * `StaticPaths`, so a lookup reads a few characters instead of hashing the whole path.
 * `offsets` empty: `segmentHash` of every character (the compiler's choice when no few
 * characters tell the paths apart).
 */
export function staticKey(path: string, offsets: readonly number[]): number {
  const n = path.length;
  if (offsets.length === 0) return segmentHash(path, 0, n);
  let key = n;
  for (const offset of offsets) key = key * 31 + (n > offset ? path.charCodeAt(n - 1 - offset) : 0);
  return key | 0;
}

/**
 * The answers of static paths, found by their key (`staticKey`, computed in JavaScript: `Map.get`
 * with a request's new string would first have V8 hash all of it in a runtime call), then one
 * comparison. Stored `{ verbs, paths: [path, answer, …], keys }`: an answer is `hit × sets + set`
 * when every verb of the path (`verbs[set]`) has the one hit, else `[verb, hit, …]`; `'*'` stands
 * for every verb; `keys` holds each path's key, computed at build time.
 */
export class StaticPaths {
  readonly #verbs: readonly (readonly string[])[];
  /** `[path, answer, path, answer, …]` as stored. */
  readonly #entries: readonly (string | Answer)[];
  /**
   * Open-addressed: `[key, position]` per slot (the path's position in `#entries`, `-1` in an
   * empty slot), found by the key's Fibonacci hash; paths that share a key take further slots.
   * Read inline, with no `Map` call.
   */
  readonly #slots: Int32Array;
  readonly #shift: number;
  readonly #key: (path: string) => number;

  constructor(json: string, key: (path: string) => number) {
    const data = JSON.parse(json) as {
      verbs: string[][];
      paths: (string | Answer)[];
      keys: number[];
    };
    this.#verbs = data.verbs;
    this.#entries = data.paths;
    this.#key = key;
    let bits = 2;
    while (1 << bits < data.keys.length * 2) bits++;
    this.#shift = 32 - bits;
    const slots = (this.#slots = new Int32Array(2 << bits).fill(-1));
    for (let k = 0; k < data.keys.length; k++) {
      const key = data.keys[k]!;
      let slot = this.#slotOf(key);
      while (slots[slot + 1] !== -1) slot = (slot + 2) & (slots.length - 1);
      slots[slot] = key;
      slots[slot + 1] = 2 * k;
    }
  }

  /** The hit of `method` on `path`; `undefined`: not for this verb; `null`: not a static path. */
  find(path: string, method: string): number | undefined | null {
    const answer = this.#answer(path);
    if (answer === undefined) return null;
    if (typeof answer === 'number') {
      const sets = this.#verbs.length;
      const verbs = this.#verbs[answer % sets]!;
      return listsVerb(verbs, method) || verbs.includes('*')
        ? Math.floor(answer / sets)
        : undefined;
    }
    let any: number | undefined;
    for (let i = 0; i < answer.length; i += 2) {
      const verb = answer[i];
      if (verb === method) return answer[i + 1] as number;
      if (verb === '*') any = answer[i + 1] as number;
    }
    return any;
  }

  /** The verbs `path` answers, or `undefined` when it is not a static path. */
  verbs(path: string): string[] | undefined {
    const answer = this.#answer(path);
    if (answer === undefined) return undefined;
    if (typeof answer === 'number') return [...this.#verbs[answer % this.#verbs.length]!];
    return answer.filter((_, i) => i % 2 === 0) as string[];
  }

  #answer(path: string): Answer | undefined {
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
}
/**
 * The hits of static paths, stored one `[route, params]` row per line (`null`: an absent
 * parameter; a route alone when it has none), each read and built when first returned.
 */
export function hitList(
  rows: string,
  count: number,
  routes: RouteList,
): (index: number) => MatchHit {
  const hits = new Rows(rows, count, (row: number | [number, (string | null)[]]): MatchHit =>
    typeof row === 'number'
      ? { route: routes.at(row), params: [] }
      : { route: routes.at(row[0]), params: row[1].map((p) => p ?? undefined) },
  );
  return (index) => hits.at(index);
}
