import type {
  HandlerInstance,
  Instantiable,
  MiddlewareEntry,
  Params,
  RouteEntry,
} from '../types.js';
import { Rows } from './rows.js';

/**
 * A route as stored: verbs (a position in the verb lists), URL, callback (a closure's
 * position, or `-1 - k` for the `k`th of the methods), source line and column, source file (a
 * position), parameter count, stack (middleware and exception handlers, a position in the
 * shared list), name (`0`: none), domain (`0`: none), the handler label (`0`: the usual
 * one, `closure <file>:<line>` or the method's), and `1` when the route may match a path that
 * is not normal (`RouteEntry.normalOnly`). Fields left out at the end are `0`.
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
  loose?: 0 | 1,
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
    const [name = 0, domain = 0, label = 0] = row.slice(8, 11) as (string | 0)[];
    const loose = row[11] ?? 0;
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
      normalOnly: loose === 0,
    };
  }

  /** The callback called with exactly `arity` arguments, as the route's callback declares them. */
  #caller(call: RouteRow[3], arity: number): (params: Params) => unknown {
    type Fn = (...args: (string | undefined)[]) => unknown;
    // Matching gives exactly `arity` values; anything else is cut or padded.
    const args = (p: Params): Params =>
      p.length === arity ? p : Array.from({ length: arity }, (_, i) => p[i]);
    if (call >= 0) {
      const closure = this.#closures[call] as Fn;
      return (p) => closure(...args(p));
    }
    const [klass, method] = this.#methods[-1 - call]!;
    const Class = this.#classes[klass] as unknown as new () => Record<string, Fn>;
    return (p) => new Class()[method]!(...args(p));
  }
}
