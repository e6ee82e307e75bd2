/**
 * The compiler's heavy CommonJS dependencies (TypeScript's bundle in ts-morph, prettier), loaded
 * with a V8 code cache: compiling TypeScript's 9 MB takes about a second of every `course build`,
 * which V8's cached data of the last build saves. The data is written when the process exits,
 * so it holds the functions the build ran, not only the top level. `COURSE_NO_CACHE=1` turns it
 * off; on Node 22.1 and later, Node's own compile cache does the job in the same folder.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { cacheCandidates, cacheFolder, CacheEntry } from './code-cache-file.js';

// Smaller modules compile in less time than reading and checking their cache takes.
const MIN_LENGTH = 100_000;

type Compile = (this: Module, content: string, filename: string) => unknown;
type Wrapper = (...args: [object, NodeJS.Require, Module, string, string]) => unknown;

const unsaved = new Map<string, { entry: CacheEntry; script: vm.Script }>();

/** `require(id)` from the module at `parentUrl`, what it loads compiled with the code cache. */
export function requireCached(id: string, parentUrl: string): unknown {
  const require = createRequire(parentUrl);
  const folder = enabled() ? cacheFolder(cacheCandidates(require.resolve(id))) : undefined;
  if (folder === undefined) return require(id);
  const nodeCache = (Module as { enableCompileCache?: (dir: string) => unknown })
    .enableCompileCache;
  if (nodeCache) {
    nodeCache(folder);
    return require(id);
  }
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const original = prototype._compile;
  prototype._compile = function (content, filename) {
    const entry = content.length < MIN_LENGTH ? undefined : entryOf(folder, filename);
    if (entry === undefined) return original.call(this, content, filename);
    return compileCached(this, content, filename, entry);
  };
  try {
    return require(id);
  } finally {
    prototype._compile = original;
  }
}

// --- internal ---

function enabled(): boolean {
  const off = process.env['COURSE_NO_CACHE'];
  return off === undefined || off === '' || off === '0';
}

/** The cache entry of a CommonJS module's file; none if its file cannot be read. */
function entryOf(folder: string, filename: string): CacheEntry | undefined {
  if (!/\.c?js$/.test(filename)) return undefined;
  try {
    return new CacheEntry(folder, filename);
  } catch {
    return undefined;
  }
}

/** What Node's own `_compile` does, but through a `vm.Script` given the cached data. */
function compileCached(module: Module, content: string, filename: string, entry: CacheEntry) {
  const cachedData = entry.read();
  const script = new vm.Script(Module.wrap(content), {
    filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    if (unsaved.size === 0) process.once('exit', save);
    unsaved.set(filename, { entry, script });
  }
  const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
  const exports = module.exports as object;
  return wrapper.call(
    exports,
    exports,
    requireOf(module),
    module,
    filename,
    path.dirname(filename),
  );
}

/** The `require` a module's code is given, as Node makes it. */
function requireOf(module: Module): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  const internal = Module as unknown as {
    _resolveFilename(request: string, parent: Module, isMain: boolean, options?: object): string;
    _resolveLookupPaths(request: string, parent: Module): string[] | null;
  };
  const resolve = ((request: string, options?: { paths?: string[] }) =>
    internal._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request) => internal._resolveLookupPaths(request, module);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = (
    Module as unknown as { _extensions: NodeJS.Require['extensions'] }
  )._extensions;
  require.cache = (Module as unknown as { _cache: NodeJS.Require['cache'] })._cache;
  return require;
}

/** Writes the data of every module compiled without usable data, with what has run since. */
function save(): void {
  for (const { entry, script } of unsaved.values()) {
    try {
      entry.write(script.createCachedData());
    } catch {
      // No cache this time: the next process compiles and tries again.
    }
  }
  unsaved.clear();
}
