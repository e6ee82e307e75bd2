import type { RouteTable } from './types.js';

/** This release of `course-router` (its package.json's version; a test keeps them equal). */
export const VERSION = '0.1.0';

/**
 * A generated module and the runtime that loads it belong to one release: the table's layout
 * and the code it calls change between releases. A module built by another release of the
 * compiler (or by one from before modules named theirs) is refused with one clear error.
 * A table written by hand, which names no release, is taken as it is.
 */
export function checkRelease(table: RouteTable | undefined): void {
  if (table === undefined || table.compiledBy === VERSION) return;
  if (table.compiledBy === undefined && !(GENERATED in table)) return;
  const built = table.compiledBy ?? 'an earlier release';
  throw new Error(
    `course: the generated module was built by course-compiler ${built}, but this is course-router ${VERSION}: run \`course build\` to rebuild it with this release`,
  );
}

/** Marks the tables `defineRoutes` makes, which always name the release that built them. */
export const GENERATED = Symbol.for('course.generated');
