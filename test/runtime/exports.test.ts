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

/** README's "Helpers: snake_case → camelCase" rows: the spec's name, the helpers, the method. */
function helperRows(): { spec: string; helpers: string[]; method: string | undefined }[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('## Helpers: snake_case → camelCase')[1]!.split('\n\n|')[1]!;
  const rows = `|${section.split('\n\n')[0]!}`.split('\n').slice(2);
  return rows.map((row) => {
    const [, spec, helpers, method] = row.split('|').map((cell) => cell.trim());
    // `Course.request()`, `passHash(password, cost = 10)`: the name before the parenthesis.
    const name = (cell: string) => /^`([\w.]+)/.exec(cell)?.[1];
    return {
      spec: spec!.replaceAll('`', ''),
      helpers: helpers!.split(' / ').map((cell) => name(cell.trim())!),
      method: name(method!),
    };
  });
}

describe('what course-router exports', () => {
  it("has every helper of README's snake_case → camelCase table, and Controller every method", () => {
    const rows = helperRows();
    expect(rows.map((row) => row.spec)).toContain('pass_hash');
    for (const { spec, helpers, method } of rows) {
      for (const helper of helpers) {
        const value = helper
          .split('.')
          .reduce<unknown>((on, key) => (on as Record<string, unknown>)[key], course);
        expect(typeof value, `${spec}: ${helper}`).toBe('function');
      }
      if (method !== undefined)
        expect(typeof course.Controller.prototype[method as never], `${spec}: ${method}`).toBe(
          'function',
        );
    }
  });

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
