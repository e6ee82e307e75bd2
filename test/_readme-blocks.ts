import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readReadme, type Block } from './_readme.js';
import { ROOT } from './_utils.js';

// README.md's blocks as the two files that run them see them: test/readme.test.ts (the markers
// and the example apps) and test/readme-shell.test.ts (the shell blocks, in a user's workspace).

export const README = readReadme(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

/** The blocks of one kind of marker. */
export const of = <K extends Block['marker']['kind']>(kind: K) =>
  README.blocks.filter(
    (b): b is Block & { marker: Extract<Block['marker'], { kind: K }> } => b.marker.kind === kind,
  );

/** Folders the shell blocks work in; every other app is an example app. */
export const WORKSPACE = new Set(['.', 'course', ...of('sh').map((b) => b.marker.dir)]);
