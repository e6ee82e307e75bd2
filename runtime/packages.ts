import { createRequire } from 'node:module';

// Made when first needed: a Worker's module has no file URL to require from, and does no
// work at import.
let loader: NodeJS.Require | undefined;
const require = (): NodeJS.Require => (loader ??= createRequire(import.meta.url));
const load = (name: string): unknown => require()(name);

type Vendored = 'qs' | 'busboy';
const provided: Partial<Record<Vendored, unknown>> = {};

/**
 * A third-party library the runtime ships, loaded when a feature first needs it. The published
 * package carries qs and busboy bundled in dist/vendor (`bundle.mjs`): a server installs one
 * package. The sources, run as they are in this repository, load the packages; a Worker's
 * bundle imports them with the entry (`provideVendored`).
 */
export function vendored<T>(name: Vendored): T {
  return (provided[name] ??
    load(import.meta.url.includes('/dist/') ? `./vendor/${name}.cjs` : name)) as T;
}

/** Hands the vendored libraries over where nothing can be required (Cloudflare Workers). */
export function provideVendored(libraries: Partial<Record<Vendored, unknown>>): void {
  Object.assign(provided, libraries);
}

/**
 * Loads a CommonJS package when a feature first needs it, so that importing `course-router` or
 * one of its entries loads nothing an app does not use. A package that is not installed is an
 * error naming the command that installs it; any other failure is rethrown as it is. `from`
 * resolves the package as another package sees it (a driver as Knex requires it).
 */
export function requirePackage<T>(
  name: string,
  feature: string,
  { install = name, from }: { install?: string; from?: string } = {},
): T {
  try {
    return (from ? createRequire(from) : load)(name) as T;
  } catch (error) {
    if (isMissing(error, name)) throw new MissingPackageError(name, feature, install);
    throw error;
  }
}

/** What a database app installs: Knex and the SQLite driver the generated configuration uses. */
export const DATABASE_PACKAGES = 'knex better-sqlite3';

/** A package a feature needs is not installed; the message names the install. */
export class MissingPackageError extends Error {
  constructor(name: string, feature: string, install: string) {
    super(
      `course: ${feature} needs the package "${name}", which is not installed: npm install ${install}`,
    );
    this.name = 'MissingPackageError';
  }
}

/** Where `name` is installed, as seen from `course-router`. */
export function packagePath(name: string): string {
  return require().resolve(name);
}

// --- internal ---

/** Node's error for `name` itself, not for a package it requires. */
function isMissing(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
    error.message.startsWith(`Cannot find module '${name}'`)
  );
}
