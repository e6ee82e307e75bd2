/**
 * `course-kit`: what an app's `course.config.ts` imports. The `course` command is this
 * package's bin.
 *
 * @example
 * import { defineConfig } from 'course-kit';
 * export default defineConfig({ routes: 'routes.ts' });
 */
export { defineConfig } from 'course-compiler/config';
export type { CourseConfig } from 'course-compiler/config';
