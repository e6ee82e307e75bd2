import { defineConfig } from 'course-kit';

// The generated modules import the app's files as `.ts`, as the app's own files do: the
// runtime runs the TypeScript as it is (Deno resolves a module by its exact name).
export default defineConfig({ importExtension: '.ts' });
