import { defineConfig } from 'course-kit';

// Deno resolves a module by its own name: the generated modules import the app's `.ts` files.
export default defineConfig({ importExtension: '.ts' });
