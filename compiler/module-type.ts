import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RouteDefinitionError } from './errors.js';

/**
 * Refuses route files that Node would run as CommonJS: route files and the modules they import
 * are ES modules (top-level `import`, `await`), and evaluated as CommonJS they fail in ways that
 * name no cause. A `.ts` or `.js` file is an ES module only under a `package.json` whose `type`
 * is `module`; `.mts` and `.mjs` always are.
 */
export function checkModuleType(files: readonly string[]): void {
  for (const file of files) {
    if (/\.m[tj]s$/.test(file)) continue;
    const manifest = nearestManifest(path.dirname(file));
    const text = manifest === undefined ? '' : readFileSync(manifest, 'utf8');
    let type: unknown;
    try {
      type = (JSON.parse(text || '{}') as { type?: unknown }).type;
    } catch {
      type = undefined;
    }
    if (type === 'module') continue;
    const line = text.split('\n').findIndex((l) => /"type"\s*:/.test(l));
    throw new RouteDefinitionError(
      'E_CONFIG',
      manifest === undefined
        ? `${path.basename(file)} would run as CommonJS: no package.json says "type": "module"`
        : `the app is CommonJS (${type === undefined ? 'package.json has no "type"' : `"type": ${JSON.stringify(type)}`}), and route files are ES modules`,
      { file: manifest ?? file, line: line + 1 || 1, column: 1 },
      manifest === undefined
        ? 'add a package.json with "type": "module" to the app (npm pkg set type=module)'
        : 'set "type": "module" in package.json (npm pkg set type=module)',
    );
  }
}

// --- internal ---

function nearestManifest(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(at) === at) return undefined;
  }
}
