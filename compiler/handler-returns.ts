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
  for (const member of returnedTypes(declaration, checker)) {
    const formless = formlessType(member, checker);
    if (formless !== undefined) return formless;
  }
  return undefined;
}

// --- internal ---

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
