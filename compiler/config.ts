import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

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
}

/** The configuration with defaults applied and paths made absolute. */
export interface ResolvedConfig {
  root: string;
  routesFile: string;
  routersDir: string;
  outFile: string;
  namespaces: Record<string, string>;
  defaultNamespace: string;
}

/** Typed helper for `course.config.ts`. */
export function defineConfig(config: CourseConfig): CourseConfig {
  return config;
}

/** Reads `<root>/course.config.ts` when present and applies the defaults. */
export async function loadConfig(root: string): Promise<ResolvedConfig> {
  const absolute = path.resolve(root);
  const file = path.join(absolute, 'course.config.ts');
  let config: CourseConfig = {};
  if (existsSync(file)) {
    const api = register({ namespace: `course-config-${Date.now()}` });
    try {
      const mod = (await api.import(pathToFileURL(file).href, import.meta.url)) as {
        default?: CourseConfig;
      };
      config = mod.default ?? {};
    } finally {
      await api.unregister();
    }
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
  };
}

/** `\App\X\` → `App\X`. */
export function trimNamespace(ns: string): string {
  return ns.replace(/^\\+|\\+$/g, '');
}
