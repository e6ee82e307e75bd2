import path from 'node:path';
import type { ts as Ts } from 'ts-morph';
import { Node, ts, type ParameterDeclaration } from './_ts-morph.js';
import type { SourceLocation } from 'course-router/internal';
import type { Diagnostics } from './errors.js';
import type { RouteDraft } from './normalize.js';
import type { ParamSpec } from './types.js';
import type { SourceIndex } from './source-index.js';

/** A value a handler receives by position (CONTRACT §5.2), and what it may be. */
export interface Delivered {
  /** The route parameter's name; `undefined` for a `setMatch` capture or a middleware argument. */
  name: string | undefined;
  /** It may be `undefined` (an optional route parameter). */
  optional: boolean;
  /** Where it comes from, for messages: `{id}`, `{gid} of the group prefix`, `capture 1`. */
  what: string;
  /** The value itself, when the build knows it (a middleware's `Name:value`). */
  value?: string;
  /** The values it may be, when its `where()` regex writes them out (`ParamSpec.values`). */
  values?: readonly string[];
  /** Its regex matches digits alone (`ParamSpec.digits`): a `${number}` takes it. */
  digits?: true;
  /** When it is `undefined`, for messages [when the URL leaves it out]. */
  absent?: string;
}

/** What a route delivers to its handler: domain, URL (prefixes included), `setMatch` captures. */
export function deliveredOf(draft: RouteDraft): Delivered[] {
  const own = new Set([...String(draft.definition.url).matchAll(/\{(\w+)\??\}/g)].map((m) => m[1]));
  const param = (from: string) => (p: ParamSpec) => ({
    name: p.name,
    optional: p.optional,
    what: `{${p.name}${p.optional ? '?' : ''}}${own.has(p.name) ? '' : from}`,
    values: p.values,
    digits: p.digits,
  });
  // A `setMatch()` route matches by its regex: its URL's placeholders are filled only when the
  // URL's pattern matches the request too.
  const url = draft.match
    ? (p: ParamSpec) => ({
        ...param(' of the group prefix')(p),
        optional: true,
        absent: 'when the request matches setMatch() but not the URL',
      })
    : param(' of the group prefix');
  return [
    ...(draft.domain?.params ?? []).map(param(' of the domain')),
    ...draft.params.map(url),
    ...Array.from({ length: draft.match?.captures ?? 0 }, (_, i) => ({
      name: undefined,
      optional: draft.match!.optional.includes(i + 1),
      what: `capture ${i + 1} of setMatch()`,
    })),
  ];
}

/** What a handler declares, as far as the check needs it. */
interface Declared {
  name: string;
  loc: SourceLocation;
  /** A required parameter: no `?`, no default, not a rest. */
  required: boolean;
  rest: boolean;
  /** Its type (a rest's element type) takes a `string`; `undefined` when it takes `undefined`. */
  takesString: boolean;
  /** Its type takes this string (`'admin'` for a parameter typed `'admin' | 'owner'`). */
  takesText: (text: string) => boolean;
  /** Its type is, or holds, a string literal: some strings, not every one. */
  literal: boolean;
  /** Its type is a primitive (`string`, `number`…): no object, such as a request, is one. */
  primitive: boolean;
  takesUndefined: boolean;
  /** The type as written, for messages. */
  typeText: string;
  /** Not annotated: tsc types it from the route's own URL (a closure's parameter). */
  inferred: boolean;
}

/** The function-like node whose parameters a handler declares. */
export type HandlerDeclaration = Node;

/**
 * Checks a handler's declared parameters against what the route delivers (CONTRACT §5.9): each
 * must take a `string` (and `undefined` where the route parameter is optional), and it may not
 * require more than are delivered. Errors are at `loc`, the route call, and name the handler's
 * parameter and where it is declared; a route parameter reaching a parameter of another name is
 * a warning. `skip` leading parameters are not the route's (a middleware's request).
 */
export function checkHandlerParams(
  label: string,
  declaration: HandlerDeclaration,
  delivered: readonly Delivered[],
  loc: SourceLocation,
  root: string,
  index: SourceIndex,
  diagnostics: Diagnostics,
  skip = 0,
): void {
  const declared = declaredParams(declaration, index)?.slice(skip);
  if (declared === undefined) return;
  const where = (d: Declared) => `declared at ${relative(d.loc, root)}`;
  for (const [i, d] of declared.entries()) {
    if (d.rest) {
      const bad = delivered
        .slice(i)
        .find((v) => !takesValue(d, v) || (v.optional && !d.takesUndefined));
      if (bad)
        diagnostics.error(
          'E_HANDLER',
          `${label}: its rest parameter ...${d.name}: ${d.typeText} cannot take ${bad.what}, a string${bad.optional ? ' or undefined' : ''} (${where(d)})`,
          loc,
          bad.optional && d.takesString
            ? `declare ...${d.name}: (string | undefined)[]`
            : `${skip ? 'middleware arguments' : 'route parameters'} arrive as strings: declare ...${d.name}: string[]`,
        );
      break;
    }
    const value = delivered[i];
    if (value === undefined) {
      if (d.required)
        diagnostics.error(
          'E_HANDLER',
          `${label}: its parameter ${d.name} is required, but the ${skip ? 'middleware is given' : 'route gives'} ${count(delivered.length, skip ? 'argument' : 'parameter')} (${where(d)})`,
          loc,
          skip
            ? `give it after a colon in the middleware's name ('Name:value'), or make it optional (${d.name}?: string)`
            : `make it optional (${d.name}?: string) or add {${d.name}} to the URL`,
        );
      continue;
    }
    if (!takesValue(d, value)) {
      const untaken = value.values?.find((v) => !d.takesText(v));
      diagnostics.error(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${d.typeText} cannot take ${value.what}, ${untaken !== undefined ? `which its where() lets be ${JSON.stringify(untaken)}` : value.digits ? 'a string of digits' : 'a string'} (${where(d)})`,
        loc,
        value.value !== undefined && d.literal
          ? `give it one of the values ${d.typeText} takes, or declare ${d.name}: string`
          : value.name !== undefined && d.literal
            ? `give {${value.name}} a where() that writes out values ${d.typeText} takes${example(value.name, d.typeText)}, or declare ${d.name}: string`
            : value.name !== undefined && numeric(d)
              ? `give {${value.name}} a where() of digits (where('${value.name}', '[0-9]+')), or declare ${d.name}: string`
              : `${skip ? 'middleware arguments' : 'route parameters'} arrive as strings: ${isIdentifier(d.name) ? `declare ${d.name}: string${value.digits ? ' (or `${number}`: its where() matches digits alone)' : ''}` : 'take each as a string parameter'} and convert it`,
      );
    } else if (value.optional && !d.takesUndefined) {
      diagnostics.error(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${d.typeText} cannot take ${value.what}, which is undefined ${value.absent ?? 'when the URL leaves it out'} (${where(d)})`,
        loc,
        d.inferred
          ? annotate(delivered)
          : value.absent === undefined
            ? `declare ${d.name}?: string, or give it a default (${d.name} = '…')`
            : `declare ${d.name}: string | undefined`,
      );
    } else if (d.inferred && d.takesUndefined && !value.optional) {
      // tsc types it by its position in the route's own URL, where a group's parameter is.
      diagnostics.warn(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${d.typeText} receives ${value.what}, which is never undefined: tsc sees only the route's own URL (${where(d)})`,
        loc,
        annotate(delivered),
      );
    } else if (value.name !== undefined && value.name !== d.name) {
      diagnostics.warn(
        'E_HANDLER',
        `${label}: its parameter ${d.name} receives ${value.what} (parameters arrive by position, ${where(d)})`,
        loc,
        `name it ${value.name}, or take the parameters before it too`,
      );
    }
  }
}

/**
 * The hint for a closure whose parameters tsc types from the route's own URL when a group's
 * come first: each of them annotated, as the route delivers them.
 */
function annotate(delivered: readonly Delivered[]): string {
  const names = delivered.map((v, i) => v.name ?? `capture${i + 1}`);
  // `?` only where no required parameter follows: TypeScript allows no other.
  const lastRequired = delivered.findLastIndex((v) => !v.optional);
  const params = delivered.map((v, i) =>
    !v.optional
      ? `${names[i]}: string`
      : i > lastRequired
        ? `${names[i]}?: string`
        : `${names[i]}: string | undefined`,
  );
  return `annotate the closure's parameters: (${params.join(', ')})`;
}

/** Whether a parameter's name is one (`id`), not a pattern (`{ id }`): TypeScript's scanner says. */
function isIdentifier(name: string): boolean {
  return (
    name !== '' &&
    [...name].every((char, i) =>
      (i === 0 ? ts.isIdentifierStart : ts.isIdentifierPart)(
        char.codePointAt(0)!,
        ts.ScriptTarget.ES2022,
      ),
    )
  );
}

/** `where()` writing out the values of a union of string literals: ` (where('lang', 'en|fr'))`. */
function example(name: string, typeText: string): string {
  const values = [...typeText.matchAll(/'([\w-]*)'/g)].map((m) => m[1]);
  return values.length === 0 ? '' : ` (where('${name}', '${values.join('|')}'))`;
}

/**
 * Whether `d`'s type takes `v`: any string, the very string the build knows it is, or each of the
 * strings its `where()` regex allows.
 */
function takesValue(d: Declared, v: Delivered): boolean {
  if (d.takesString) return true;
  if (v.value !== undefined) return d.takesText(v.value);
  if (v.digits && numeric(d)) return true;
  return v.values !== undefined && v.values.every((value) => d.takesText(value));
}

// Numerals a type taking every string of digits takes (`${number}`; not `${bigint}`, which is no
// `007` to tsc): a leading zero, several digits. A numeral too long for a double (309 digits) is
// no `${number}` to tsc either; a `where()` of digits is taken as one all the same, as meant.
const NUMERALS = ['0', '007', '1234567890'];

/** Whether `d`'s type takes every numeral (`NUMERALS`). */
function numeric(d: Declared): boolean {
  return NUMERALS.every((text) => d.takesText(text));
}

/** The function-like declaration of a class's instance method (an arrow property too). */
export function methodDeclaration(classNode: Node, method: string): HandlerDeclaration | undefined {
  let methods = methodCache.get(classNode);
  if (methods === undefined) methodCache.set(classNode, (methods = new Map()));
  if (!methods.has(method)) methods.set(method, findMethod(classNode, method));
  return methods.get(method);
}

/** A closure written inline (an arrow function or a function expression). */
export function isFunctionLike(node: Node): boolean {
  return (
    Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isMethodDeclaration(node)
  );
}

// --- internal ---

const methodCache = new WeakMap<Node, Map<string, HandlerDeclaration | undefined>>();

function findMethod(classNode: Node, method: string): HandlerDeclaration | undefined {
  const property = classNode.getType().getProperty(method);
  const declarations = property?.getDeclarations() ?? [];
  // Overloads: the implementation's parameters are not what callers see; leave them be.
  const methods = declarations.filter((d) => Node.isMethodDeclaration(d));
  if (methods.length > 1) return undefined;
  const only = declarations[0];
  if (only && Node.isPropertyDeclaration(only)) {
    const initializer = only.getInitializer();
    return initializer && isFunctionLike(initializer) ? initializer : undefined;
  }
  return methods[0];
}

const cache = new WeakMap<Node, Declared[] | undefined>();

const PRIMITIVE =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.ESSymbolLike;

/** What the router gives a method, by position: `{ what: 'the request', type: 'CourseRequest' }`. */
export interface Given {
  what: string;
  type: string;
  /** Type names it is not, though they may look like it (`Request`), why, and what to declare. */
  not?: { names: RegExp; why: string; hint: string };
}

/**
 * Checks the leading parameters of a method the router calls with objects (`handle(request)`,
 * `handleError(request, error)`, `boot(router, request)`): one typed a primitive (`request:
 * string`) cannot be given one, and would read `undefined` where it meant a value.
 * `given` is what each receives, in order.
 */
export function checkLeadingParams(
  label: string,
  declaration: HandlerDeclaration,
  given: readonly Given[],
  loc: SourceLocation,
  root: string,
  index: SourceIndex,
  diagnostics: Diagnostics,
): void {
  const declared = declaredParams(declaration, index);
  const written =
    Node.isMethodDeclaration(declaration) || Node.isArrowFunction(declaration)
      ? declaration.getParameters()
      : [];
  for (const [i, d] of (declared ?? []).slice(0, given.length).entries()) {
    const { what, type, not } = given[i]!;
    if (d.rest) continue;
    const at = `declared at ${relative(d.loc, root)}`;
    if (d.primitive) {
      diagnostics.error(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${d.typeText} is given ${what} (${type}) (${at})`,
        loc,
        `declare ${d.name}: ${type}`,
      );
      continue;
    }
    // The build does not read the package's types: a class the router gives is told by its name.
    const name = referenceName(written[i]);
    if (name === undefined || name === type) continue;
    const other = given.find((g) => g.type === name);
    if (other !== undefined)
      diagnostics.error(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${name} is given ${what} (${type}), not ${other.what} (${at})`,
        loc,
        `declare the parameters in the order they are given: (${given.map((g) => g.type).join(', ')})`,
      );
    else if (not?.names.test(name))
      diagnostics.error(
        'E_HANDLER',
        `${label}: its parameter ${d.name}: ${name} is given ${what} (${type}), ${not.why} (${at})`,
        loc,
        not.hint,
      );
  }
}

/** The name a parameter's type refers to (`HttpException` of `errors.HttpException`), if it is one. */
function referenceName(parameter: ParameterDeclaration | undefined): string | undefined {
  const node = parameter?.getTypeNode();
  if (!Node.isTypeReference(node)) return undefined;
  return node.getTypeName().getText().split('.').at(-1);
}

/**
 * The first of a middleware's `args` its `handle(request, ...)` declares no parameter for (and
 * no rest parameter takes), if any: it is not used.
 */
export function unusedArgument(
  declaration: HandlerDeclaration,
  args: readonly string[],
  index: SourceIndex,
): string | undefined {
  if (!Node.isMethodDeclaration(declaration)) return undefined;
  const declared = declaredParams(declaration, index);
  if (declared === undefined || declared.some((d) => d.rest)) return undefined;
  return args[Math.max(0, declared.length - 1)];
}

function declaredParams(declaration: Node, index: SourceIndex): Declared[] | undefined {
  if (cache.has(declaration)) return cache.get(declaration);
  let declared: Declared[] | undefined;
  if (
    Node.isArrowFunction(declaration) ||
    Node.isFunctionExpression(declaration) ||
    Node.isMethodDeclaration(declaration)
  ) {
    const checker = index.project.getTypeChecker().compilerObject;
    declared = declaration
      .getParameters()
      .filter((p) => p.getName() !== 'this')
      .flatMap((p) => describe(p, checker));
  }
  cache.set(declaration, declared);
  return declared;
}

/**
 * What a parameter declares: one, or for a rest parameter of a tuple type (`...[a, b]: [string,
 * string]`, `...params: RouteParams<'name'>`), one for each of its elements.
 */
function describe(p: ParameterDeclaration, checker: Ts.TypeChecker): Declared[] {
  const source = p.getSourceFile();
  const { line, column } = source.getLineAndColumnAtPos(p.getNameNode().getStart());
  const loc = { file: source.getFilePath(), line, column };
  const rest = p.isRestParameter();
  const typeNode = p.getTypeNode();
  if (rest && typeNode !== undefined) {
    const whole = checker.getTypeFromTypeNode(typeNode.compilerNode);
    if (checker.isTupleType(whole)) return tupleParams(p, whole as Ts.TypeReference, loc, checker);
  }
  const optional = p.hasQuestionToken() || p.hasInitializer();
  const type = declaredType(p, rest, checker);
  // An unannotated method's parameter is `any`: not typed by the route.
  const inferred =
    typeNode === undefined &&
    !p.hasInitializer() &&
    type !== undefined &&
    (type.flags & ts.TypeFlags.Any) === 0;
  const typeText =
    typeNode?.getText() ??
    (type === undefined
      ? 'any'
      : inferred
        ? `${checker.typeToString(type)} (as the route's own URL types it)`
        : checker.typeToString(type));
  return [declare(p.getName(), loc, type, { rest, optional, typeText, inferred }, checker)];
}

/** The elements of a rest parameter's tuple, each a parameter, named as the tuple or pattern names it. */
function tupleParams(
  p: ParameterDeclaration,
  tuple: Ts.TypeReference,
  loc: SourceLocation,
  checker: Ts.TypeChecker,
): Declared[] {
  const target = tuple.target as Ts.TupleType;
  const pattern = p.getNameNode();
  const bound = Node.isArrayBindingPattern(pattern)
    ? pattern.getElements().map((e) => (Node.isBindingElement(e) ? e.getName() : undefined))
    : [];
  return checker.getTypeArguments(tuple).map((type, i) => {
    const flags = target.elementFlags[i] ?? ts.ElementFlags.Required;
    const name =
      target.labeledElementDeclarations?.[i]?.name.getText() ?? bound[i] ?? `${p.getName()}[${i}]`;
    // A variadic element (`...T` of a type parameter) says nothing of its values.
    const known =
      flags & ts.ElementFlags.Variadic || type.flags & ts.TypeFlags.Any ? undefined : type;
    return declare(
      name,
      loc,
      known,
      {
        rest: (flags & ts.ElementFlags.Variable) !== 0,
        optional: (flags & ts.ElementFlags.Optional) !== 0,
        typeText: checker.typeToString(type),
      },
      checker,
    );
  });
}

/** A declared parameter of `type` (`undefined`: any): a rest one's is its elements'. */
function declare(
  name: string,
  loc: SourceLocation,
  type: Ts.Type | undefined,
  how: { rest: boolean; optional: boolean; typeText: string; inferred?: boolean },
  checker: Ts.TypeChecker,
): Declared {
  // A type parameter (`<T extends string>(id: T)`) takes what its constraint takes.
  if (type !== undefined && type.flags & ts.TypeFlags.TypeParameter) {
    const constraint = checker.getBaseConstraintOfType(type);
    type =
      constraint === undefined || constraint.flags & ts.TypeFlags.Unknown ? undefined : constraint;
  }
  const takes = (source: Ts.Type) => type === undefined || checker.isTypeAssignableTo(source, type);
  // A string enum's members are the strings they stand for, which tsc alone tells apart.
  const enumValues = new Set(
    (type?.isUnion() ? type.types : type ? [type] : [])
      .filter((t) => t.flags & ts.TypeFlags.EnumLiteral && t.isStringLiteral())
      .map((t) => (t as Ts.StringLiteralType).value),
  );
  return {
    name,
    loc,
    required: !how.rest && !how.optional,
    rest: how.rest,
    takesString: takes(checker.getStringType()),
    takesText: (text) => enumValues.has(text) || takes(checker.getStringLiteralType(text)),
    primitive: type !== undefined && (type.flags & PRIMITIVE) !== 0,
    literal:
      type !== undefined &&
      (type.isStringLiteral() || (type.isUnion() && type.types.some((t) => t.isStringLiteral()))),
    takesUndefined: how.optional || takes(checker.getUndefinedType()),
    typeText: how.typeText,
    inferred: how.inferred === true,
  };
}

/**
 * The type a parameter declares, or that tsc gives it from the route call, `undefined` when it
 * cannot be told (a type the build cannot resolve: the route file's own tsc run checks those).
 */
function declaredType(
  p: ParameterDeclaration,
  rest: boolean,
  checker: Ts.TypeChecker,
): Ts.Type | undefined {
  const typeNode = p.getTypeNode()?.compilerNode;
  if (rest) {
    // `string[]`, `readonly string[]`, `Array<string>`: its elements' type.
    if (typeNode === undefined) return undefined;
    const array = checker.getTypeFromTypeNode(typeNode);
    const element = checker.getIndexTypeOfType(array, ts.IndexKind.Number);
    return element === undefined || element.flags & ts.TypeFlags.Any ? undefined : element;
  }
  let type: Ts.Type;
  if (typeNode !== undefined) type = checker.getTypeFromTypeNode(typeNode);
  else {
    const initializer = p.getInitializer()?.compilerNode;
    // No annotation and no default: the type tsc gives it from the route call, which sees only
    // the route's own URL (a closure's `(gid, id?)` under a prefix is typed as if `gid` were the
    // route's first parameter); `any` (a method's) says nothing.
    if (initializer === undefined)
      return rest ? undefined : checker.getTypeAtLocation(p.compilerNode);
    type = checker.getBaseTypeOfLiteralType(checker.getTypeAtLocation(initializer));
  }
  // An unresolved name (a package's type: the build reads no packages) is the error type, which
  // takes anything: say nothing.
  return type.flags & ts.TypeFlags.Any ? undefined : type;
}

/** `no parameter`, `only one parameter`, `only 2 parameters`. */
function count(n: number, noun: string): string {
  return n === 0 ? `no ${noun}` : n === 1 ? `only one ${noun}` : `only ${n} ${noun}s`;
}

function relative(loc: SourceLocation, root: string): string {
  return `${path.relative(root, loc.file).split(path.sep).join('/')}:${loc.line}:${loc.column}`;
}
