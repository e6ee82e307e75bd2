import { requireContext } from '../http/context.js';
import { HttpException } from '../http/errors.js';
import { queryOf } from './input.js';

/**
 * A schema of the Standard Schema interface (https://standardschema.dev), which zod, valibot,
 * ArkType and others implement: the part of it `validInput` uses, as the interface's authors
 * ask a library that accepts such schemas to copy it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** What a schema says of a value: its output, or what is wrong with it. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One thing wrong with a value, and where (keys, or `{ key }` segments). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The input type of a Standard Schema (`never` when it does not say). */
type SchemaInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];

type AnyFunction = (...args: never[]) => unknown;

/** The output type of a Standard Schema. */
export type SchemaOutput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['output'];

/**
 * What `validInput` takes besides the schema: nothing when its input may be an object of fields
 * (`z.object()`, `z.record()`, `z.unknown()`, a union with one); else `FieldsSchemaNeeded`, as a
 * schema of a string or an array refuses every body and query (422).
 */
export type OfFields<S extends StandardSchemaV1> =
  unknown extends SchemaInput<S>
    ? unknown
    : [SchemaInput<S>] extends [never]
      ? unknown
      : [Exclude<Extract<SchemaInput<S>, object>, readonly unknown[] | AnyFunction>] extends [never]
        ? FieldsSchemaNeeded
        : unknown;

/** A schema `validInput` cannot take: it checks a body's or a query's fields, an object. */
export interface FieldsSchemaNeeded {
  readonly 'validInput() checks an object of fields: give it an object schema (z.object())': never;
}

/**
 * What `validInput(schema, 'get')` takes besides the schema: nothing when each field of its input
 * may be a query value, text (or a list or record of them); else a type naming the fields that
 * cannot (`page: number`: every query refused with a 422; `z.coerce.number()` takes text).
 */
export type OfQuery<S extends StandardSchemaV1> = [NotQueryValues<SchemaInput<S>>] extends [never]
  ? unknown
  : {
      readonly [
        K in `query values are text: ${NotQueryValues<SchemaInput<S>>} cannot be one (z.coerce)`
      ]: never;
    };

/** The fields of `I` that no query value can be (a number, a boolean, a list of them). */
type NotQueryValues<I> = I extends readonly unknown[]
  ? never
  : {
      [K in keyof I & string]-?: TakesQueryValue<Exclude<I[K], undefined>> extends true ? never : K;
    }[keyof I & string];

/** Whether a query value (text, a list of texts, a record of them) may be a `T`. */
type TakesQueryValue<T> = unknown extends T
  ? true
  : [Extract<T, string>] extends [never]
    ? [Extract<T, object>] extends [never]
      ? false
      : [Extract<T, readonly unknown[]>] extends [never]
        ? true
        : Extract<T, readonly unknown[]> extends readonly (infer E)[]
          ? TakesQueryValue<E>
          : true
    : true;

/** One issue of a refused input: its path written `a.b.0` (empty for the whole), its message. */
export interface InputIssue {
  path: string;
  message: string;
}

/** The 422 `validInput` throws: its message lists the first issues, `issues` has them all. */
export class ValidationException extends HttpException {
  readonly issues: readonly InputIssue[];

  constructor(issues: readonly InputIssue[]) {
    super(422, `Invalid input: ${summary(issues)}`);
    this.name = 'ValidationException';
    this.issues = issues;
  }
}

/**
 * The request's body fields (`'post'`, the default) or its query (`'get'`) checked by `schema`:
 * the schema's output, typed as it types it, or a `ValidationException` (422) naming what is
 * wrong.
 *
 * @example const user = await validInput(z.object({ name: z.string(), age: z.number() }));
 */
export async function validInput<S extends StandardSchemaV1, From extends 'get' | 'post' = 'post'>(
  schema: S & OfFields<S> & (From extends 'get' ? OfQuery<S> : unknown),
  source: From = 'post' as From,
): Promise<SchemaOutput<S>> {
  const request = requireContext('validInput').request;
  const value =
    source === 'get'
      ? queryOf(request)
      : (request.parsed?.post ?? (Object.create(null) as Record<string, unknown>));
  const result = await schema['~standard'].validate(value);
  if (result.issues !== undefined) throw new ValidationException(result.issues.map(issueOf));
  return result.value as SchemaOutput<S>;
}

// --- internal ---

// The issues a message names; the rest are in `issues`.
const NAMED = 5;

function issueOf(issue: StandardIssue): InputIssue {
  const keys = (issue.path ?? []).map((segment) =>
    String(typeof segment === 'object' ? segment.key : segment),
  );
  return { path: keys.join('.'), message: issue.message };
}

function summary(issues: readonly InputIssue[]): string {
  const named = issues
    .slice(0, NAMED)
    .map(({ path, message }) => (path === '' ? message : `${path}: ${message}`));
  if (issues.length > NAMED) named.push(`and ${issues.length - NAMED} more`);
  return named.join('; ');
}
