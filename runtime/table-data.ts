/**
 * The generated module keeps its tables as JSON text: a JavaScript engine reads a string
 * literal and `JSON.parse` far faster than the same data written as object literals, and
 * per-route objects are built on first use. These functions turn that text into the shapes
 * the matcher and dispatch use.
 */
import type { RouteTest } from './matcher.js';
import type {
  HandlerInstance,
  Instantiable,
  MatchHit,
  MiddlewareEntry,
  Params,
  RouteEntry,
  UrlPart,
} from './types.js';

/**
 * A route as stored: verbs (a position in the verb lists), URL, callback (a closure's
 * position, or `-1 - k` for the `k`th of the methods), source line and column, source file (a
 * position), parameter count, stack (middleware and exception handlers, a position in the
 * shared list), name (`0`: none), domain (`0`: none), and the handler label (`0`: the usual
 * one, `closure <file>:<line>` or the method's). Fields left out at the end are `0`.
 */
export type RouteRow = readonly [
  verbs: number,
  url: string,
  call: number,
  line: number,
  column: number,
  file?: number,
  arity?: number,
  stack?: number,
  name?: string | 0,
  domain?: string | 0,
  label?: string | 0,
];

/** Middleware (`[class, args]`) and exception handlers (classes) shared by routes. */
export type StackRow = readonly [
  middleware: readonly (readonly [klass: number, args: readonly string[]])[],
  handlers: readonly number[],
];

/** Classes a table refers to, by position (`new () => unknown`). */
type AnyClass = new () => never;
type AnyFunction = (...args: never[]) => unknown;

/**
 * Rows of a table stored as JSON text, one per line, each parsed (and made into a `T`) when
 * first asked for; the line offsets are taken on first use.
 */
export class Rows<T> {
  readonly length: number;
  readonly #text: string;
  readonly #make: (row: never) => T;
  readonly #items: (T | undefined)[];
  #starts: Uint32Array | undefined;

  constructor(text: string, count: number, make: (row: never) => T) {
    this.length = count;
    this.#text = text;
    this.#make = make;
    this.#items = new Array<T | undefined>(count);
  }

  /** The row at `index`. */
  at(index: number): T {
    let item = this.#items[index];
    if (item === undefined) item = this.#items[index] = this.#make(this.#parse(index) as never);
    return item;
  }

  #parse(index: number): unknown {
    if (this.#starts === undefined) {
      const starts = new Uint32Array(this.length + 1);
      let at = 0;
      for (let i = 1; i < this.length; i++) starts[i] = at = this.#text.indexOf('\n', at) + 1;
      starts[this.length] = this.#text.length + 1;
      this.#starts = starts;
    }
    return JSON.parse(this.#text.slice(this.#starts[index], this.#starts[index + 1]! - 1));
  }
}

/**
 * The routes of a generated module, each parsed and built into a `RouteEntry` when first
 * asked for (`rows`: one JSON row per line).
 */
export class RouteList {
  readonly #rows: Rows<RouteEntry>;
  readonly #verbs: readonly (readonly string[])[];
  readonly #files: readonly string[];
  readonly #methods: readonly (readonly [klass: number, method: string, label: string])[];
  readonly #stacks: readonly [
    readonly MiddlewareEntry[],
    readonly Instantiable<HandlerInstance>[],
  ][];
  readonly #closures: readonly AnyFunction[];
  readonly #classes: readonly AnyClass[];

  readonly length: number;

  constructor(
    json: string,
    rows: string,
    closures: readonly AnyFunction[],
    classes: readonly AnyClass[],
  ) {
    const data = JSON.parse(json) as {
      count: number;
      verbs: string[][];
      files: string[];
      stacks: StackRow[];
      methods: [number, string, string][];
    };
    this.#methods = data.methods;
    this.length = data.count;
    this.#rows = new Rows(rows, data.count, (row: RouteRow) => this.#build(row));
    this.#verbs = data.verbs;
    this.#files = data.files;
    this.#closures = closures;
    this.#classes = classes;
    this.#stacks = data.stacks.map(([middleware, handlers]) => [
      middleware.map(([klass, args]) => ({ use: classes[klass]! as never, args })),
      handlers.map((klass) => classes[klass]! as never),
    ]);
  }

  /** The route at `index`. */
  at(index: number): RouteEntry {
    return this.#rows.at(index);
  }

  /** Every route, in registration order. */
  all(): RouteEntry[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  #build(row: RouteRow): RouteEntry {
    const [verbs, url, call, line, column, file = 0, arity = 0, stack = 0] = row;
    const [name = 0, domain = 0, label = 0] = row.slice(8) as (string | 0)[];
    const [middleware, handlers] = this.#stacks[stack]!;
    const path = this.#files[file]!;
    return {
      methods: this.#verbs[verbs]!,
      url,
      name: name === 0 ? undefined : name,
      handler:
        label !== 0
          ? label
          : call < 0
            ? this.#methods[-1 - call]![2]
            : `closure ${path.slice(path.lastIndexOf('/') + 1)}:${line}`,
      call: this.#caller(call, arity),
      middleware,
      handlers,
      ...(domain === 0 ? {} : { domain }),
      source: `${path}:${line}:${column}`,
    };
  }

  /** The callback called with exactly `arity` positional parameters. */
  #caller(call: RouteRow[3], arity: number): (params: Params) => unknown {
    type Fn = (...args: (string | undefined)[]) => unknown;
    let fn: (self: unknown) => Fn;
    let self: () => unknown;
    if (call >= 0) {
      const closure = this.#closures[call] as Fn;
      fn = () => closure;
      self = () => undefined;
    } else {
      const [klass, method] = this.#methods[-1 - call]!;
      const Class = this.#classes[klass] as unknown as new () => Record<string, Fn>;
      fn = (instance) => (instance as Record<string, Fn>)[method]!;
      self = () => new Class();
    }
    // Exactly `arity` arguments, as the route's callback declares them.
    switch (arity) {
      case 0:
        return () => {
          const target = self();
          return fn(target).call(target);
        };
      case 1:
        return (p) => {
          const target = self();
          return fn(target).call(target, p[0]);
        };
      case 2:
        return (p) => {
          const target = self();
          return fn(target).call(target, p[0], p[1]);
        };
      default:
        return (p) => {
          const target = self();
          return fn(target).apply(
            target,
            Array.from({ length: arity }, (_, i) => p[i]),
          );
        };
    }
  }
}

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

/**
 * Route tests as stored: `{ count, verbs, regexes: [[source, flags], …] }` and one test per
 * line, its verbs and regexes written as their position + 1 (`0`: every verb, or none). Each
 * test is read when first tried.
 */
export function testList(json: string, rows: string): Rows<RouteTest> {
  const data = JSON.parse(json) as {
    count: number;
    verbs: string[][];
    regexes: [string, string][];
  };
  const regexes = data.regexes.map(([source, flags]) => new RegExp(source, flags));
  const regex = (n: number): RegExp => regexes[n - 1]!;
  return new Rows(
    rows,
    data.count,
    ([route, verbs, host, path, url, urlParams, captures]: StoredTest): RouteTest => [
      route,
      verbs === 0 ? 0 : data.verbs[verbs - 1]!,
      typeof host === 'number' && host !== 0 ? regex(host) : host,
      typeof path === 'number'
        ? regex(path)
        : path.map((step) =>
            typeof step === 'string'
              ? step
              : ([step[0], step[1] === 0 ? 0 : regex(step[1])] as const),
          ),
      url === 0 ? 0 : regex(url),
      urlParams,
      captures,
    ],
  );
}

type StoredTest = [
  route: number,
  verbs: number,
  host: string | number,
  path: number | (string | [0 | 1, number])[],
  url: number,
  urlParams: number,
  captures: number,
];

/** URL templates by name, in an object with no prototype. */
export function templates(json: string): Readonly<Record<string, readonly UrlPart[]>> {
  const out = Object.create(null) as Record<string, readonly UrlPart[]>;
  return Object.assign(out, JSON.parse(json) as Record<string, readonly UrlPart[]>);
}
