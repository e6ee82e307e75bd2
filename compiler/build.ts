import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type ResolvedConfig } from './config.js';
import { closuresFileOf, emitModule } from './emit/index.js';
import type { MatcherThresholds } from './emit/match.js';
import { expandRoutes } from './expand.js';
import { BuildError, Diagnostics, RouteDefinitionError } from './errors.js';
import { formatChunks } from './format.js';
import { loadRoutes } from './load.js';
import { normalizeGroups, normalizeRoutes } from './normalize.js';
import { checkGroupWhere } from './where-names.js';
import { resolveApp } from './resolve.js';
import { SourceIndex } from './source-index.js';
import type { CompiledApp } from './types.js';
import { validateShadowing } from './shadowing.js';
import { validateAttributes, validateDrafts } from './validate.js';
import { readIfExists, removeIfExists, writeIfDifferent } from './write.js';

/** Options of `build()`. */
export interface BuildOptions {
  /** The app folder [the current directory]. */
  root?: string;
  /** Write nothing; report whether the output is current. */
  check?: boolean;
  /** Reuse parsed sources between builds (watch mode). */
  index?: SourceIndex;
  /** Where the matcher changes shape; tests lower them to try every shape. */
  thresholds?: MatcherThresholds;
}

/** What a build did. */
export interface BuildResult {
  config: ResolvedConfig;
  app: CompiledApp;
  /** The formatted module. */
  code: string;
  /** The module of the route files' closures beside it (`closuresFile`), when there are any. */
  closures: string | undefined;
  /** Where that module is; a stale one is removed when the app has no closures. */
  closuresFile: string;
  /** The output differs from what is on disk. */
  changed: boolean;
  /** The output files whose text differs from the build's (a stale closures file among them). */
  stale: string[];
  /** The output was written (never with `check`). */
  written: boolean;
  files: string[];
  warnings: RouteDefinitionError[];
  milliseconds: number;
}

/**
 * Compiles an app's route files into its generated module; throws `BuildError` listing every
 * definition error with its `file:line:col`.
 *
 * @example
 * const result = await build({ root: 'fixtures/app' });
 * console.log(`${result.app.routes.length} routes`);
 */
export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const config = await loadConfig(options.root ?? process.cwd());
  const compiled = await compile(config, options.index, options.thresholds);
  const closuresFile = closuresFileOf(config.outFile);
  const stale = [
    ...(readIfExists(config.outFile) === compiled.code ? [] : [config.outFile]),
    ...(readIfExists(closuresFile) === compiled.closures ? [] : [closuresFile]),
  ];
  const changed = stale.length > 0;
  let written = false;
  if (!options.check && changed) {
    // The closures first: the main module imports them.
    if (compiled.closures === undefined) removeIfExists(closuresFile);
    else writeIfDifferent(closuresFile, compiled.closures);
    writeIfDifferent(config.outFile, compiled.code);
    written = true;
  }
  return {
    ...compiled,
    closuresFile,
    config,
    changed,
    stale,
    written,
    milliseconds: performance.now() - started,
  };
}

/** Compiles without writing: the formatted module, the IR and the warnings. */
export async function compile(
  config: ResolvedConfig,
  index = new SourceIndex(),
  thresholds?: MatcherThresholds,
): Promise<Pick<BuildResult, 'app' | 'code' | 'closures' | 'files' | 'warnings'>> {
  let loaded;
  try {
    loaded = await loadRoutes(config);
  } catch (error) {
    if (error instanceof RouteDefinitionError) throw new BuildError([error], config.root);
    throw error;
  }
  index.refresh(loaded.files);
  const diagnostics = new Diagnostics();
  validateAttributes(loaded.recording, diagnostics);
  const definitions = expandRoutes(loaded.recording.routes, config, index, diagnostics);
  const drafts = normalizeRoutes(definitions, config, diagnostics);
  validateDrafts(drafts, config.root, diagnostics);
  checkGroupWhere(loaded.recording.groups, drafts, diagnostics);
  const groups = {
    handlers: normalizeGroups(loaded.recording, 'exceptionHandler', diagnostics),
    middleware: normalizeGroups(loaded.recording, 'middleware', diagnostics),
  };
  const app = resolveApp(drafts, groups, loaded.recording, config, index, diagnostics);
  validateShadowing(app.routes, config.root, diagnostics);
  diagnostics.inOrder();
  if (diagnostics.errors.length > 0) throw new BuildError(diagnostics.errors, config.root);
  const modules = emitModule(app, {
    outFile: config.outFile,
    hash: hashInputs(config, loaded.files),
    thresholds,
    importExtension: config.importExtension,
  });
  const [code, closures] = await Promise.all([
    formatChunks(modules.main),
    modules.closures && formatChunks(modules.closures),
  ]);
  return { app, code, closures, files: loaded.files, warnings: diagnostics.warnings };
}

// --- internal ---

function hashInputs(config: ResolvedConfig, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(config.root, file).split(path.sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return `sha256-${hash.digest('hex').slice(0, 16)}`;
}
