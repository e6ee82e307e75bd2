import path from 'node:path';
import type { CompiledApp } from '../types.js';
import type { EmitContext } from './_context.js';

/**
 * The hoisted closures, one scope per route file so that names from different files never
 * collide: inside it, the file's imports and constants under their own names, then the
 * closures, returned as a list. `$closures` joins the lists; `order` gives each closure's id
 * at its position there.
 */
export function emitClosures(
  app: CompiledApp,
  context: EmitContext,
): { text: string; order: number[] } {
  const byFile = new Map<string, number[]>();
  for (const closure of app.closures) {
    const list = byFile.get(closure.source.file) ?? [];
    list.push(closure.id);
    byFile.set(closure.source.file, list);
  }
  const chunks: string[] = [];
  const order: number[] = [];
  const lists: string[] = [];
  for (const [file, ids] of byFile) {
    const list = `$f${lists.length}`;
    lists.push(`...${list}`);
    order.push(...ids);
    const relative = path.relative(app.root, file).split(path.sep).join('/');
    const bindings = app.imports
      .filter((entry) => entry.file === file && !entry.typeOnly)
      .map((entry) => `const ${entry.local} = ${context.codeLocal(entry)};`);
    const constants = app.constants.filter((c) => c.file === file).map((c) => c.text);
    const closures = ids.map((id) => app.closures[id]!.text);
    chunks.push(
      `// ${relative}\nconst ${list} = (() => {\n` +
        [...unique(bindings), ...constants].join('\n') +
        `\nreturn [\n${closures.join(',\n')},\n] as const;\n})();`,
    );
  }
  chunks.push(`const $closures = [${lists.join(', ')}];`);
  return { text: chunks.join('\n\n'), order };
}

// --- internal ---

function unique(lines: string[]): string[] {
  return [...new Set(lines)];
}
