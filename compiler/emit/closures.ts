import path from 'node:path';
import type { CompiledApp } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import { EmitContext } from './_context.js';
import { describeRoute } from './_describe.js';

/**
 * The sibling module of the closures written in route files (`routes.closures.gen.ts`), apart
 * from the main module so that tsc checks that one: a closure keeps the types of the file it
 * comes from, which this module cannot always name (`// @ts-nocheck`). One scope per route file,
 * so that names from different files never collide: inside it, the file's imports and
 * constants under their own names, then its closures, each under the number of its route.
 * `undefined` when the app has none.
 */
export function emitClosures(
  app: CompiledApp,
  outFile: string,
  header: string,
  importExtension: '.js' | '.ts' = '.js',
): Chunk[] | undefined {
  if (app.closures.length === 0) return undefined;
  const context = new EmitContext(outFile, [], importExtension);
  const routeOf = new Map<number, number>();
  for (const route of app.routes)
    if (route.handler.kind === 'closure') routeOf.set(route.handler.closure, route.index);
  const byFile = new Map<string, number[]>();
  for (const closure of app.closures) {
    if (!routeOf.has(closure.id)) continue;
    const list = byFile.get(closure.source.file) ?? [];
    list.push(closure.id);
    byFile.set(closure.source.file, list);
  }
  const scopes: string[] = [];
  for (const [file, ids] of byFile) {
    const relative = path.relative(app.root, file).split(path.sep).join('/');
    const bindings = app.imports
      .filter((entry) => entry.file === file && !entry.typeOnly)
      .map((entry) => `const ${entry.local} = ${context.codeLocal(entry)};`);
    const constants = app.constants.filter((c) => c.file === file).map((c) => c.text);
    // Each closure says where it was written: a stack trace through this module leads there.
    const closures = ids.map((id) => {
      const route = app.routes[routeOf.get(id)!]!;
      const { text, source } = app.closures[id]!;
      const at = `${relative}:${source.line}:${source.column}`;
      return `// ${describeRoute(route)}, written at ${at}\n${route.index}: ${text}`;
    });
    scopes.push(
      `// ${relative}\nconst $f${scopes.length} = (() => {\n` +
        [...new Set(bindings), ...constants].join('\n') +
        `\nreturn {\n${closures.join(',\n')},\n};\n})();`,
    );
  }
  const all = scopes.map((_, k) => `...$f${k}`).join(', ');
  return [
    printed(header),
    code(
      [
        context.statements().join('\n'),
        ...scopes,
        `/** Each closure under the number of its route in the route table. */\nexport const closures = { ${all} };`,
      ].join('\n\n'),
    ),
  ];
}
