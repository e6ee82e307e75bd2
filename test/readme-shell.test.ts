import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './_redis.js';
import { README, WORKSPACE } from './_readme-blocks.js';
import { Workspace } from './_readme-workspace.js';
import { writeFile } from './_utils.js';

// README.md's shell blocks and the files between them run here, in a fresh workspace, as a user
// pastes them: the first app from the packed packages, the app made by hand, the database
// (_readme-workspace.ts). test/readme.test.ts runs the other blocks.

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('README.md', () => {
  it('the shell blocks work as pasted: the first app, the app by hand, the database', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'course-readme-'));
    const workspace = new Workspace(root, await freePort());
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    cleanup.push(() => workspace.stop());
    const init = (file: string) => readFileSync(path.join(root, 'my-app', file), 'utf8');
    for (const block of README.blocks) {
      const { marker } = block;
      const where = `README.md:${block.line}`;
      if (marker.kind === 'sh') await workspace.block(marker.dir, block.text, marker.serves);
      else if (marker.kind === 'output')
        expect(workspace.lastOutput.trimEnd(), where).toBe(block.text.trimEnd());
      else if (marker.kind === 'same-as-init') expect(block.text, where).toBe(init(marker.path));
      else if (marker.kind === 'file' && WORKSPACE.has(marker.app)) {
        writeFile(path.join(root, marker.app), marker.path, block.text);
        workspace.wrote(path.join(root, marker.app, marker.path), block.text);
        if (marker.sameAsInit) expect(block.text, where).toBe(init(marker.path));
      }
    }
  }, 600_000);
});
