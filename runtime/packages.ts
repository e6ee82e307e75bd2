import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

// The published package carries qs and busboy bundled in dist/vendor (`bundle.mjs`): a server
// installs one package. The sources, run as they are in this repository, load the packages.
const BUNDLED = import.meta.url.includes('/dist/');

/** A third-party library the runtime ships, loaded when a feature first needs it. */
export function vendored<T>(name: 'qs' | 'busboy'): T {
  return load(BUNDLED ? `./vendor/${name}.cjs` : name) as T;
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
  return load.resolve(name);
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
