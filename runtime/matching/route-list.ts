import { callbackParts, classRefParts } from '../dsl/class-refs.js';
import type {
  HandlerInstance,
  Instantiable,
  MatchHit,
  MiddlewareEntry,
  Params,
  RouteEntry,
} from '../types.js';
import { innermostCors } from '../features/cors-mark.js';
import { Rows } from './rows.js';

/**
 * A route as the generated module lists it, one JSON array per line in registration order
 * (the line of route `n` starts `[n,`): its number, verbs (`GET|POST`, `*` for every verb), URL,
 * handler, where it was defined (`routes.ts:13:10`) and name (`null` or left out: none), then
 * what only some routes have. `handler`, `middleware` and `exceptionHandlers` are written as the route files
 * name them (`UserController@show`, `Middleware\Auth:admin`, or `closure routes.ts:10`, whose
 * function is `closures[n]`); the classes they name are the module's `classes`, by those names.
 * Where one name stands for two classes, the second is written `Name#2` (the `#2` is not shown
 * at run time).
 */
export type RouteRow = readonly [
  route: number,
  verbs: string,
  url: string,
  handler: string,
  at: string,
  name?: string | null,
  more?: RouteMore,
];

/** What only some routes have. */
export interface RouteMore {
  /** The host pattern of the route's domain group. */
  domain?: string;
  /** A `setMatch` regex, as `/source/flags`, and how many values its captures give. */
  match?: string;
  captures?: number;
  middleware?: string[];
  exceptionHandlers?: string[];
  /** The route may match a path that is not normal (`RouteEntry.normalOnly`). */
  normalOnly?: false;
  /** The build proved the route's code synchronous (`RouteEntry.sync`). */
  sync?: true;
}

/** Classes a table refers to, by the names its routes give them. */
type AnyClass = abstract new (...args: never[]) => unknown;
type AnyFunction = (...args: never[]) => unknown;

/**
 * The routes of a generated module, each parsed and built into a `RouteEntry` when first
 * asked for.
 */
export class RouteList {
  readonly #rows: Rows<RouteEntry>;
  readonly #closures: Readonly<Record<number, AnyFunction>>;
  readonly #classes: Readonly<Record<string, AnyClass>>;
  #hits: (MatchHit | undefined)[] | undefined;
  #callbacks: Record<string, (params: Params) => unknown> | undefined;

  constructor(
    closures: Readonly<Record<number, AnyFunction>>,
    classes: Readonly<Record<string, AnyClass>>,
    rows: string,
  ) {
    this.#rows = new Rows(rows, (row: RouteRow, index) => this.#build(row, index));
    this.#closures = closures;
    this.#classes = classes;
  }

  get length(): number {
    return this.#rows.length;
  }

  /** The route numbered `index`. */
  at(index: number): RouteEntry {
    return this.#rows.at(index);
  }

  /** Every route, in registration order. */
  all(): RouteEntry[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /** A hit of route `index` with no parameter values, made once. */
  hit(index: number): MatchHit {
    // Made at its full length: an array filled from far in would hold its items as a dictionary.
    const hits = (this.#hits ??= new Array<MatchHit | undefined>(this.length));
    return (hits[index] ??= { route: this.at(index), params: [] });
  }

  /** Route callbacks by `'Class@method'`, the first route naming one winning. */
  callbacks(): Readonly<Record<string, (params: Params) => unknown>> {
    if (this.#callbacks !== undefined) return this.#callbacks;
    const out = Object.create(null) as Record<string, (params: Params) => unknown>;
    for (const route of this.all()) {
      if (!route.handler.startsWith('closure ')) out[route.handler] ??= route.call;
    }
    return (this.#callbacks = out);
  }

  #build(row: RouteRow, index: number): RouteEntry {
    const [route, verbs, url, handler, at, name, more = {}] = row;
    if (route !== index)
      throw new Error(`course: line ${index} of the route table holds route ${route}`);
    // Domain parameters, URL parameters (each placeholder opens with `{`), then captures.
    const arity = count(more.domain ?? '', '{') + count(url, '{') + (more.captures ?? 0);
    return {
      methods: verbs.split('|'),
      url,
      name: name ?? undefined,
      handler: shown(handler),
      call: this.#caller(route, verbs, url, handler, arity),
      middleware: innermostCors(
        (more.middleware ?? []).map((text) => {
          const { name, args } = classRefParts(text);
          return { use: this.#class(name) as MiddlewareEntry['use'], args };
        }),
      ),
      handlers: (more.exceptionHandlers ?? []).map(
        (name) => this.#class(name) as Instantiable<HandlerInstance>,
      ),
      ...(more.domain === undefined ? {} : { domain: more.domain }),
      source: at,
      normalOnly: more.normalOnly !== false,
      sync: more.sync === true,
    };
  }

  #class(name: string): AnyClass {
    const found = Object.hasOwn(this.#classes, name) ? this.#classes[name] : undefined;
    if (found === undefined) throw new Error(`course: the route table names no class ${name}`);
    return found;
  }

  /**
   * The callback called with exactly `arity` arguments, as the route's callback declares them
   * (a rewrite to `'Class@method'` passes the parameters of another route).
   */
  #caller(
    route: number,
    verbs: string,
    url: string,
    handler: string,
    arity: number,
  ): (params: Params) => unknown {
    type Fn = (...args: (string | undefined)[]) => unknown;
    // Matching gives exactly `arity` values; anything else is cut or padded.
    const args = (p: Params): Params =>
      p.length === arity ? p : Array.from({ length: arity }, (_, i) => p[i]);
    if (handler.startsWith('closure ')) {
      const closure = this.#closures[route] as Fn | undefined;
      if (closure === undefined)
        throw new Error(`course: the closures module has no function for route ${route}`);
      // A stack frame names the route (`at GET /user/{id}`), not its number in the module; a
      // function the route file named keeps its name.
      if (closure.name === String(route))
        Object.defineProperty(closure, 'name', { value: `${verbs} ${url}` });
      // No spread for a callback that takes no parameters: the call JITs as a plain one.
      return arity === 0 ? () => closure() : (p) => closure(...args(p));
    }
    const [klass, method] = callbackParts(handler)!;
    const Class = this.#class(klass) as unknown as new () => Record<string, Fn>;
    return arity === 0 ? () => new Class()[method]!() : (p) => new Class()[method]!(...args(p));
  }
}

// --- internal ---

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/** A handler as people see it: without the `#2` that tells apart two classes of one name. */
function shown(handler: string): string {
  return handler.replace(/#\d+(?=@[^@]*$)/, '');
}
