import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as course from 'course-router';
import { ROOT } from '../_utils.js';

/** The names README's "What `course-router` exports" table lists as values (not its types row). */
function documentedValues(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('### What `course-router` exports')[1]!.split('\n\n|')[1]!;
  const rows = `|${section.split('\n\n')[0]!}`.split('\n').slice(2);
  return rows
    .map((row) => row.split('|')[1]!)
    .filter((cell) => cell.trim() !== 'types')
    .flatMap((cell) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
}

describe('what course-router exports', () => {
  it('is what the README lists, one name per thing', () => {
    expect(Object.keys(course).sort()).toEqual(documentedValues().sort());
  });

  it('hashes passwords under the spec’s names only (pass_hash → passHash)', async () => {
    expect(course).not.toHaveProperty('hashPassword');
    expect(course).not.toHaveProperty('verifyPassword');
    const hash = await course.passHash('secret', 4);
    expect(await course.passVerify('secret', hash)).toBe(true);
    expect(course.passwordInfo(hash)).toEqual({
      algo: '2y',
      algoName: 'bcrypt',
      options: { cost: 4 },
    });
  });
});
