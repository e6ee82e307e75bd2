import path from 'node:path';
import type { SourceLocation } from 'course-router/internal';

/** Codes of build errors, stable for tools and tests. */
export type ErrorCode =
  | 'E_LOAD'
  | 'E_CONFIG'
  | 'E_PATTERN'
  | 'E_PARAM_NAME'
  | 'E_REGEX'
  | 'E_REGEX_UNSAFE'
  | 'E_CALLBACK'
  | 'E_MODULE'
  | 'E_CLASS'
  | 'E_METHOD'
  | 'E_HANDLER'
  | 'E_CAPTURE'
  | 'E_DUPLICATE_NAME'
  | 'E_DUPLICATE_ROUTE'
  | 'E_SETTING';

/** A problem in a route definition, located at the call that caused it. */
export class RouteDefinitionError extends Error {
  readonly code: ErrorCode;
  readonly loc: SourceLocation;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, loc: SourceLocation, hint?: string) {
    super(message);
    this.name = 'RouteDefinitionError';
    this.code = code;
    this.loc = loc;
    this.hint = hint;
  }

  /** `file:line:col: message (hint)`, with the file relative to `root`. */
  format(root: string): string {
    const hint = this.hint ? `\n  hint: ${this.hint}` : '';
    return `${formatLocation(this.loc, root)}: error ${this.code}: ${this.message}${hint}`;
  }
}

/** A build that found errors in the route definitions. */
export class BuildError extends Error {
  readonly errors: readonly RouteDefinitionError[];
  readonly root: string;

  constructor(errors: readonly RouteDefinitionError[], root: string) {
    super(errors.map((e) => e.format(root)).join('\n'));
    this.name = 'BuildError';
    this.errors = errors;
    this.root = root;
  }
}

/** `file:line:col`, with the file relative to `root` and `/` separators. */
export function formatLocation(loc: SourceLocation, root: string): string {
  const file = path.isAbsolute(loc.file) ? path.relative(root, loc.file) : loc.file;
  return `${file.split(path.sep).join('/')}:${loc.line}:${loc.column}`;
}

/**
 * Collects errors so a build reports every problem at once, each once: a call run several
 * times (in a loop, or one resource's seven routes) gives the same problem at the same place.
 */
export class Diagnostics {
  readonly errors: RouteDefinitionError[] = [];
  readonly warnings: RouteDefinitionError[] = [];

  readonly #seen = new Set<string>();

  error(code: ErrorCode, message: string, loc: SourceLocation, hint?: string): void {
    this.#add(this.errors, new RouteDefinitionError(code, message, loc, hint));
  }

  warn(code: ErrorCode, message: string, loc: SourceLocation, hint?: string): void {
    this.#add(this.warnings, new RouteDefinitionError(code, message, loc, hint));
  }

  /** The errors and the warnings each in source order: file, line, column. */
  inOrder(): this {
    for (const list of [this.errors, this.warnings]) list.sort(bySource);
    return this;
  }

  /** A separate collection, for checks whose errors may become warnings. */
  scratch(): Diagnostics {
    return new Diagnostics();
  }

  #add(list: RouteDefinitionError[], error: RouteDefinitionError): void {
    const key = `${list === this.errors ? 'error' : 'warning'}\0${error.format('')}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    list.push(error);
  }
}

function bySource(a: RouteDefinitionError, b: RouteDefinitionError): number {
  if (a.loc.file !== b.loc.file) return a.loc.file < b.loc.file ? -1 : 1;
  return a.loc.line - b.loc.line || a.loc.column - b.loc.column;
}
