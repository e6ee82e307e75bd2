import type { MatchHit } from '../types.js';
import type { RouteList } from './routes.js';
import { Rows } from './rows.js';

/**
 * The answers of static paths, in a `Map` (a request's path is a new string, which a `Map`
 * hashes once). Stored `{ verbs, paths: [path, answer, …] }`: an answer is `hit × sets + set`
 * when every verb of the path (`verbs[set]`) has the one hit, else `[verb, hit, …]`; `'*'`
 * stands for every verb.
 */
export class StaticPaths {
  readonly #verbs: readonly (readonly string[])[];
  readonly #paths = new Map<string, number | readonly (string | number)[]>();

  constructor(json: string) {
    const data = JSON.parse(json) as {
      verbs: string[][];
      paths: (string | number | (string | number)[])[];
    };
    this.#verbs = data.verbs;
    const paths = data.paths;
    for (let i = 0; i < paths.length; i += 2) {
      this.#paths.set(paths[i] as string, paths[i + 1] as number | (string | number)[]);
    }
  }

  /** The hit of `method` on `path`; `undefined`: not for this verb; `null`: not a static path. */
  find(path: string, method: string): number | undefined | null {
    const answer = this.#paths.get(path);
    if (answer === undefined) return null;
    if (typeof answer === 'number') {
      const sets = this.#verbs.length;
      const verbs = this.#verbs[answer % sets]!;
      return verbs.includes(method) || verbs.includes('*') ? Math.floor(answer / sets) : undefined;
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
    const answer = this.#paths.get(path);
    if (answer === undefined) return undefined;
    if (typeof answer === 'number') return [...this.#verbs[answer % this.#verbs.length]!];
    return answer.filter((_, i) => i % 2 === 0) as string[];
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
