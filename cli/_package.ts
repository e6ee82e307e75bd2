import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** This package's folder: the parent of `dist/` when built, this file's folder as source. */
export const PACKAGE_DIR = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '..' : '.', import.meta.url),
);

/** This package's version, from its `package.json`. */
export function ownVersion(): string {
  const text = readFileSync(new URL('package.json', `file://${PACKAGE_DIR}`), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
