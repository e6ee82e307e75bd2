import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A folder for the whole test run, given to every test file (`inject('courseRun')`): the
 * workspaces are packed into it once, by the first file that installs them (`test/_install.ts`).
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-run-'));
  project.provide('courseRun', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
