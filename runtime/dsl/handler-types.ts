/**
 * What a route's handler receives, as far as the route call can see it.
 *
 * The call sees only its own URL: `{x}` is a `string`, `{x?}` a `string | undefined`, in order.
 * It cannot see what a group puts before them (domain and prefix parameters) or a `setMatch`
 * that replaces them, so it is lenient exactly there, and `course build`, which sees the whole
 * list, checks the rest:
 * - positions after the URL's own are `string` (a prefix shifts the route's own ones there);
 * - a parameter is checked both ways (method-style), so a closure annotated `(gid: string, id?: string)`
 *   under a group prefix is accepted where its position holds an optional route parameter, while
 *   `(id: number)` is refused everywhere: `number` and `string` are unrelated either way.
 * An unannotated parameter takes the type of its position in the route's own URL.
 */

/** The parameters a URL literal declares, in order: `{x}` → `string`, `{x?}` → `string | undefined`. */
export type UrlParamTypes<U extends string> = string extends U ? string[] : Placeholders<U, []>;

/** The arguments a closure given to `Course.get(url, …)` may declare. */
export type ClosureParams<U extends string> = string extends U
  ? string[]
  : [...Placeholders<U, []>, ...string[]];

/** A closure route handler for the URL `U`, its parameters typed from the URL. */
export type RouteClosure<U extends string> = {
  // Method syntax: parameters are compared both ways (see above).
  handler(...params: ClosureParams<U>): unknown;
}['handler'];

/** The names of the methods of instances of `C`. */
export type MethodNames<C extends abstract new (...args: never[]) => unknown> = {
  [K in keyof InstanceType<C>]-?: InstanceType<C>[K] extends (...args: never[]) => unknown
    ? K
    : never;
}[keyof InstanceType<C>] &
  string;

/**
 * A route callback for the URL `U`: a closure typed from it, `'Class@method'` (checked by the
 * build), or `[Class, 'method']` naming a method of the class.
 */
export type RouteCallback<U extends string, C extends abstract new (...args: never[]) => unknown> =
  RouteClosure<U> | string | readonly [C, MethodNames<C>];

// --- internal ---

/** Tail-recursive, so a URL with many placeholders costs tsc no deep instantiation. */
/**
 * What a partial group's callback receives for the URL `U`, at build time: each placeholder as
 * written, without its `?` (`'/lang/{lang}'`: `'{lang}'`). Its routes are the same for every
 * value, and comparing one (`lang === 'fr'`) is a tsc error.
 */
export type PlaceholderTexts<U extends string> = string extends U ? string[] : Texts<U, []>;

type Texts<S extends string, Acc extends string[]> = S extends `${string}{${infer P}}${infer Rest}`
  ? Texts<Rest, [...Acc, `{${P extends `${infer N}?` ? N : P}}`]>
  : Acc;

type Placeholders<
  S extends string,
  Acc extends unknown[],
> = S extends `${string}{${infer P}}${infer Rest}`
  ? Placeholders<Rest, [...Acc, P extends `${string}?` ? string | undefined : string]>
  : Acc;
