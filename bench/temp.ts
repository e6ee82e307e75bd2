import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The folder holding this process's benchmark apps.
const ROOT = path.join(os.tmpdir(), `course-bench-${process.pid}`);
let registered = false;

/** The folder of one benchmark app, `name`; every one is removed when the process exits. */
export function benchDir(name: string): string {
  if (!registered) {
    registered = true;
    process.once('exit', () => rmSync(ROOT, { recursive: true, force: true }));
  }
  return path.join(ROOT, name);
}
