import { Node } from './_ts-morph.js';
import type { SourceIndex } from './source-index.js';
import type { ClassImport } from './types.js';

/**
 * Whether a middleware class may be the package's `Cors`, extended: its base classes, as tsc
 * resolves them, reach a class named `Cors` the package declares. A base tsc cannot resolve may
 * be one: the router tells for sure when it uses the class.
 */
export function mayBeCors(ref: ClassImport, index: SourceIndex): boolean {
  let node: Node | undefined = index.exportedClassIn(ref.file, ref.exportName)?.node;
  // A chain longer than any app's is not followed to its end.
  for (let depth = 0; depth < 32; depth++) {
    if (!Node.isClassDeclaration(node)) return false;
    if (node.getExtends() === undefined) return false;
    const base = node.getBaseClass();
    if (base === undefined) return true;
    if (base.getName() === 'Cors' && base.getSourceFile().isDeclarationFile()) return true;
    node = base;
  }
  return true;
}
