import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file's current text, or `undefined` when it does not exist. */
export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes `content` only when it differs from what is on disk, through a temporary file and a
 * rename so a reader never sees half a module. Returns whether it wrote.
 */
export function writeIfDifferent(file: string, content: string): boolean {
  if (readIfExists(file) === content) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
  return true;
}

/** Removes `file` if it exists. */
export function removeIfExists(file: string): void {
  rmSync(file, { force: true });
}
