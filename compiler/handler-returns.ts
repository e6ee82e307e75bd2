import type { ts as Ts } from 'ts-morph';
import { Node, ts, type ArrowFunction, type MethodDeclaration } from './_ts-morph.js';
import type { HandlerDeclaration } from './handler-params.js';
import type { SourceIndex } from './source-index.js';

// What a handler returns, as the build reads its type: a route's value is its answer (CONTRACT
// §5.2), a middleware's or exception handler's anything but `undefined` or `null` ends the request.

/**
 * Whether a method may return a boolean (or a promise of one): a middleware's `handle` that
 * does answers the request with it (`true` sent as the page), where the author meant "go on".
 */
export function mayReturnBoolean(declaration: HandlerDeclaration, index: SourceIndex): boolean {
  if (!Node.isMethodDeclaration(declaration)) return false;
  const checker = index.project.getTypeChecker().compilerObject;
  return returnedTypes(declaration, checker).some(
    (member) => (member.flags & ts.TypeFlags.BooleanLike) !== 0,
  );
}

/** A value a route may return that has no response form, and what to return instead. */
export interface Formless {
  /** What it is: `a function`, `a Map`. */
  what: string;
  hint: string;
}

/**
 * What a route's handler may return that has no response form (CONTRACT §5.2), if anything: a
 * function (returned where its call was meant: `() => helper` for `() => helper()`), a symbol, or
 * an object JSON would send as `{}` (a `Map`, a `Set`, an iterator, an `Error`).
 */
export function formlessReturn(
  declaration: HandlerDeclaration,
  index: SourceIndex,
): Formless | undefined {
  if (!Node.isMethodDeclaration(declaration) && !Node.isArrowFunction(declaration))
    return undefined;
  const checker = index.project.getTypeChecker().compilerObject;
  const walk: Walk = { checker, seen: new Set() };
  for (const member of returnedTypes(declaration, checker)) {
    const formless = formlessType(member, checker) ?? withinJson(member, walk, '', 0);
    if (formless !== undefined) return formless;
  }
  return undefined;
}

/**
 * Whether a function returns no promise, as the build reads it: it is not `async`, and each type
 * it may return is known and has no `then` (not `any`, `unknown`, `object`, `{}` or a type
 * parameter, which a promise could be). A route whose code all does so is served without
 * `AsyncLocalStorage` (`RouteEntry.sync`).
 */
export function returnsAtOnce(declaration: HandlerDeclaration, index: SourceIndex): boolean {
  if (
    !Node.isMethodDeclaration(declaration) &&
    !Node.isArrowFunction(declaration) &&
    !Node.isFunctionExpression(declaration) &&
    !Node.isFunctionDeclaration(declaration)
  )
    return false;
  if (declaration.isAsync()) return false;
  const checker = index.project.getTypeChecker().compilerObject;
  const signature = checker.getSignatureFromDeclaration(declaration.compilerNode);
  if (signature === undefined) return false;
  const returned = checker.getReturnTypeOfSignature(signature);
  return (returned.isUnion() ? returned.types : [returned]).every((type) => settled(type, checker));
}

// --- internal ---

// Types a promise may hide behind.
const OPAQUE =
  ts.TypeFlags.Any |
  ts.TypeFlags.Unknown |
  ts.TypeFlags.NonPrimitive |
  ts.TypeFlags.TypeVariable |
  ts.TypeFlags.Index |
  ts.TypeFlags.Conditional |
  ts.TypeFlags.Substitution;

/**
 * A returned type that is known to hold no promise: a primitive, or an object type that names
 * what it holds (properties or an index signature: not `{}`) and no `then`.
 */
function settled(type: Ts.Type, checker: Ts.TypeChecker): boolean {
  if (type.flags & OPAQUE) return false;
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return true;
  if (type.getProperty('then') !== undefined) return false;
  return type.getProperties().length > 0 || checker.getIndexInfosOfType(type).length > 0;
}

/**
 * The members of what a method or closure returns (a promise's value for an `async` one or one
 * returning a promise), a union's each.
 */
function returnedTypes(
  declaration: MethodDeclaration | ArrowFunction,
  checker: Ts.TypeChecker,
): readonly Ts.Type[] {
  const signature = checker.getSignatureFromDeclaration(declaration.compilerNode);
  if (signature === undefined) return [];
  const returned = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(returned) ?? returned;
  return type.isUnion() ? type.types : [type];
}

const CALL: Formless = {
  what: 'a function',
  hint: 'call it, and return what it gives (() => helper() rather than () => helper)',
};

// The language's objects JSON sends as `{}`, by name (theirs or a class's they extend).
const FORMLESS_OBJECTS: Record<string, Formless> = {
  Map: { what: 'a Map', hint: 'return Object.fromEntries(map), or [...map]' },
  Set: { what: 'a Set', hint: 'return [...set]' },
  WeakMap: { what: 'a WeakMap', hint: 'return a plain object or an array' },
  WeakSet: { what: 'a WeakSet', hint: 'return a plain object or an array' },
  Generator: { what: 'an iterator', hint: 'return [...iterator]' },
  AsyncGenerator: { what: 'an async iterator', hint: 'return await Array.fromAsync(iterator)' },
  Error: {
    what: 'an Error',
    hint: 'throw it: an exception handler, or the status answer, takes it',
  },
};

function formlessType(type: Ts.Type, checker: Ts.TypeChecker): Formless | undefined {
  if (type.flags & ts.TypeFlags.ESSymbolLike)
    return { what: 'a symbol', hint: 'return a string: String(symbol.description)' };
  if (type.getCallSignatures().length > 0) return CALL;
  return type.flags & ts.TypeFlags.Object ? namedObject(type, checker, 0) : undefined;
}

/** One look through the type of a route's value (`withinJson`). */
interface Walk {
  checker: Ts.TypeChecker;
  /** The types looked into: each once, and no more than `MAX_WALKED`. */
  seen: Set<Ts.Type>;
}

// How deep, and across how many types, a returned value's properties are looked into.
const MAX_DEPTH = 6;
const MAX_WALKED = 300;

// Objects sent as they are (not as JSON), or whose JSON a method of theirs writes.
const SENT_AS_THEY_ARE = new Set([
  'Response',
  'CourseResponse',
  'Uint8Array',
  'Buffer',
  'ArrayBuffer',
  'Blob',
  'ReadableStream',
]);

/**
 * What JSON would lose or refuse inside the value a route returns (its properties, an array's
 * elements, a record's values): a `Map`, `Set`, iterator, `Error` or promise written as `{}`, a
 * bigint it throws for. A function or symbol there is left out by JSON, as a class's methods
 * are: not looked for. `path` names where (`.tags`, `[].at`).
 */
function withinJson(type: Ts.Type, walk: Walk, path: string, depth: number): Formless | undefined {
  const { checker, seen } = walk;
  if (type.isUnion()) {
    for (const member of type.types) {
      const found = withinJson(member, walk, path, depth);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (path !== '' && type.flags & ts.TypeFlags.BigIntLike)
    return { what: `a bigint (at ${path})`, hint: 'JSON has no bigint: write it as String(value)' };
  if (!(type.flags & ts.TypeFlags.Object) || depth > MAX_DEPTH) return undefined;
  if (seen.has(type) || seen.size >= MAX_WALKED) return undefined;
  seen.add(type);
  const name = type.getSymbol()?.getName();
  if (path !== '') {
    if (name === 'Promise') return { what: `a promise (at ${path})`, hint: 'await it first' };
    const named = namedObject(type, checker, 0);
    if (named === FORMLESS_OBJECTS['Error'])
      return { what: `an Error (at ${path})`, hint: 'write what the client may read of it' };
    if (named !== undefined) return { what: `${named.what} (at ${path})`, hint: named.hint };
  }
  if (name !== undefined && SENT_AS_THEY_ARE.has(name)) return undefined;
  if (type.getProperty('toJSON') !== undefined || type.getCallSignatures().length > 0)
    return undefined;
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const element of checker.getTypeArguments(type as Ts.TypeReference)) {
      const found = withinJson(element, walk, `${path}[]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const property of type.getProperties()) {
    if (property.flags & ts.SymbolFlags.Method) continue;
    const found = withinJson(
      checker.getTypeOfSymbol(property),
      walk,
      `${path}.${property.getName()}`,
      depth + 1,
    );
    if (found !== undefined) return found;
  }
  for (const info of checker.getIndexInfosOfType(type)) {
    const found = withinJson(info.type, walk, `${path}[key]`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The formless object `type` is, by its name or one it extends (a class of `Error`). */
function namedObject(type: Ts.Type, checker: Ts.TypeChecker, depth: number): Formless | undefined {
  const name = type.getSymbol()?.getName();
  if (name !== undefined && Object.hasOwn(FORMLESS_OBJECTS, name)) return FORMLESS_OBJECTS[name];
  const target = (type as Ts.TypeReference).target ?? type;
  if (depth > 8 || !(target.flags & ts.TypeFlags.Object)) return undefined;
  if (!((target as Ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return undefined;
  for (const base of checker.getBaseTypes(target as Ts.InterfaceType)) {
    const found = namedObject(base, checker, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
