import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'node_modules/**',
      'generated/**',
      'fixtures/snapshots/*/generated/**',
      'cli/templates/**',
      'coverage/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['runtime/**/*.ts'],
    rules: restrict([
      {
        group: ['**/compiler/**', '**/compiler', '**/cli/**', '**/cli'],
        message: 'runtime/ must not import compiler/ or cli/',
      },
      {
        group: ['ts-morph', 'prettier', 'regexp-tree', 'chokidar', 'commander', 'tsx', 'tsx/*'],
        message: 'runtime/ loads no build-time package',
      },
    ]),
  },
  {
    files: ['compiler/**/*.ts'],
    rules: restrict([
      { group: ['**/cli/**', '**/cli'], message: 'compiler/ must not import cli/' },
    ]),
  },
);
