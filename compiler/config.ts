import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import type { SourceLocation } from 'course-router/internal';
import { BuildError, RouteDefinitionError } from './errors.js';
import { evaluationError } from './load.js';
import { suggestion } from 'course-router/internal';
import { escapeRegex } from './regex.js';

/** `course.config.ts`: every key is optional. */
export interface CourseConfig {
  /** Main route file [`routes.ts`]. */
  routes?: string;
  /** Folder of more route files, evaluated after `routes` in path order [`routers`]. */
  routers?: string;
  /** The generated module [`generated/routes.gen.ts`]. */
  out?: string;
  /** Namespace prefix → directory, PSR-4 style [`{ App: 'app' }`]. */
  namespaces?: Record<string, string>;
  /** Namespace of relative `'Class@method'` callbacks [`App\Components\Controller`]. */
  defaultNamespace?: string;
  /**
   * How the generated modules name the app's files they import [`'.js'`]: `'.js'` as tsc and
   * Node expect; `'.ts'` for Deno, Bun and bundlers that run the sources (with tsc, set
   * `allowImportingTsExtensions` or `rewriteRelativeImportExtensions`).
   */
  importExtension?: '.js' | '.ts';
}

/** The configuration with defaults applied and paths made absolute. */
export interface ResolvedConfig {
  root: string;
  routesFile: string;
  routersDir: string;
  outFile: string;
  namespaces: Record<string, string>;
  defaultNamespace: string;
  importExtension: '.js' | '.ts';
}

/** Typed helper for `course.config.ts`. */
export function defineConfig(config: CourseConfig): CourseConfig {
  return config;
}

/**
 * Reads `<root>/course.config.ts` when present and applies the defaults. A config that does
 * not evaluate, has a key Course does not know, or a value of the wrong kind is a
 * `BuildError` (`E_CONFIG`) located in the file.
 */
export async function loadConfig(root: string): Promise<ResolvedConfig> {
  const absolute = path.resolve(root);
  const file = path.join(absolute, 'course.config.ts');
  let config: CourseConfig = {};
  if (existsSync(file)) {
    const api = register({ namespace: `course-config-${Date.now()}` });
    let value: unknown;
    try {
      const mod = (await api.import(pathToFileURL(file).href, import.meta.url)) as {
        default?: unknown;
      };
      value = mod.default ?? {};
    } catch (error) {
      throw new BuildError([evaluationError(error, file, [file], 'E_CONFIG')], absolute);
    } finally {
      await api.unregister();
    }
    config = checkConfig(value, file, absolute);
  }
  return resolveConfig(absolute, config);
}

/** Applies defaults to `config` for the app in `root`. */
export function resolveConfig(root: string, config: CourseConfig): ResolvedConfig {
  const namespaces = config.namespaces ?? { App: 'app' };
  return {
    root,
    routesFile: path.resolve(root, config.routes ?? 'routes.ts'),
    routersDir: path.resolve(root, config.routers ?? 'routers'),
    outFile: path.resolve(root, config.out ?? 'generated/routes.gen.ts'),
    namespaces: Object.fromEntries(
      Object.entries(namespaces).map(([ns, dir]) => [trimNamespace(ns), path.resolve(root, dir)]),
    ),
    defaultNamespace: trimNamespace(config.defaultNamespace ?? 'App\\Components\\Controller'),
    importExtension: config.importExtension ?? '.js',
  };
}

/** `\App\X\` → `App\X`. */
export function trimNamespace(ns: string): string {
  return ns.replace(/^\\+|\\+$/g, '');
}

// --- internal ---

const KEYS: readonly string[] = Object.keys({
  routes: 0,
  routers: 0,
  out: 0,
  namespaces: 0,
  defaultNamespace: 0,
  importExtension: 0,
} satisfies Record<keyof CourseConfig, 0>);

/** `value` as a `CourseConfig`, or a `BuildError` naming every problem where its key is written. */
function checkConfig(value: unknown, file: string, root: string): CourseConfig {
  const text = readFileSync(file, 'utf8');
  const errors: RouteDefinitionError[] = [];
  const problem = (key: string | undefined, message: string, hint: string): void => {
    errors.push(new RouteDefinitionError('E_CONFIG', message, keyLocation(text, file, key), hint));
  };
  if (!isRecord(value)) {
    problem(
      undefined,
      'course.config.ts does not export an object',
      'export default defineConfig({ … })',
    );
  } else {
    for (const [key, v] of Object.entries(value)) {
      if (!KEYS.includes(key)) {
        problem(key, `unknown configuration key "${key}"`, suggestion(key, KEYS, 'keys'));
      } else if (key === 'namespaces') {
        if (!isRecord(v) || !Object.values(v).every((dir) => typeof dir === 'string' && dir !== ''))
          problem(
            key,
            '"namespaces" must map namespace prefixes to folders',
            "e.g. { App: 'app' }",
          );
      } else if (key === 'importExtension') {
        if (v !== '.js' && v !== '.ts')
          problem(key, "\"importExtension\" must be '.js' or '.ts'", "its default is '.js'");
      } else if (typeof v !== 'string' || v === '') {
        problem(key, `"${key}" must be a non-empty string`, `its default is ${DEFAULTS[key]}`);
      }
    }
  }
  if (errors.length > 0) throw new BuildError(errors, root);
  return value as CourseConfig;
}

const DEFAULTS: Record<string, string> = {
  routes: "'routes.ts'",
  routers: "'routers'",
  out: "'generated/routes.gen.ts'",
  defaultNamespace: "'App\\\\Components\\\\Controller'",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where `key` is written in the config's text (`key:`, quoted or not); else its start. */
function keyLocation(text: string, file: string, key: string | undefined): SourceLocation {
  const m =
    key === undefined
      ? null
      : new RegExp(`(^|[\\s{,])(['"]?)${escapeRegex(key)}\\2\\s*:`, 'm').exec(text);
  if (!m) return { file, line: 1, column: 1 };
  const at = m.index + m[1]!.length;
  const before = text.slice(0, at).split('\n');
  return { file, line: before.length, column: before.at(-1)!.length + 1 };
}
