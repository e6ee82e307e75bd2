import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { chooseOffsets, keyFunction } from '../../compiler/emit/static-key.js';
import { staticKey, StaticPaths } from '../../runtime/matching/statics.js';
import { segmentHash } from '../../runtime/matching/tree.js';

/** The generated key function, compiled with what the generated module imports for it. */
function compiled(offsets: readonly number[]): (path: string) => number {
  const js = ts.transpile(`(${keyFunction(offsets)})`, { target: ts.ScriptTarget.ES2022 });
  return new Function('segmentHash', `return ${js}`)(segmentHash) as (path: string) => number;
}

const pathArb = fc.stringMatching(/^(\/[a-z0-9.%-]{0,12}){0,6}$/);

describe('static path keys', () => {
  it('generated code computes the key the build stored, for any offsets and path', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(30), { maxLength: 4 }), pathArb, (offsets, path) => {
        expect(compiled(offsets)(path)).toBe(staticKey(path, offsets));
      }),
      { numRuns: 300 },
    );
  });

  it('picks characters near the end that tell numbered paths apart', () => {
    const paths = Array.from({ length: 3000 }, (_, i) => `/r${i % 50}/s${i}`);
    const offsets = chooseOffsets(paths);
    expect(offsets.length).toBeGreaterThan(0);
    expect(offsets.length).toBeLessThanOrEqual(4);
    const keys = new Set(paths.map((p) => staticKey(p, offsets)));
    // Few enough shared keys that a lookup makes about one comparison.
    expect(keys.size).toBeGreaterThan(paths.length * 0.8);
  });

  it('reads one character when the lengths alone tell the paths apart', () => {
    expect(chooseOffsets(['/a', '/bb', '/ccc'])).toEqual([0]);
  });

  it('hashes every character when no few characters tell the paths apart', () => {
    // The paths differ only far from their end, beyond the offsets searched.
    const tail = '/'.padEnd(40, 'x');
    const paths = Array.from({ length: 500 }, (_, i) => `/p${i}${tail}`);
    expect(chooseOffsets(paths)).toEqual([]);
    expect(new Set(paths.map((p) => staticKey(p, []))).size).toBe(paths.length);
  });
});

describe('StaticPaths', () => {
  /** A table of `paths` (each for GET, its hit its position), as the build writes it. */
  function table(paths: readonly string[], offsets: readonly number[]): StaticPaths {
    const json = JSON.stringify({
      verbs: [['GET']],
      paths: paths.flatMap((path, k) => [path, k]),
      keys: paths.map((path) => staticKey(path, offsets)),
    });
    return new StaticPaths(json, (path) => staticKey(path, offsets));
  }

  it('finds each of thousands of paths, and nothing else, whatever keys they share', () => {
    const paths = Array.from({ length: 5000 }, (_, i) => `/r${i % 70}/s${i}`);
    // A good choice of characters, one that leaves many paths per key, and every character.
    for (const offsets of [chooseOffsets(paths), [0], []]) {
      const statics = table(paths, offsets);
      paths.forEach((path, k) => expect(statics.find(path, 'GET'), path).toBe(k));
      expect(statics.find('/r1/s1', 'POST')).toBeUndefined();
      for (const other of ['/r1/s2', '/r0/s5000', '/r0/s', '/', '', '/r1/s1/'])
        expect(statics.find(other, 'GET'), other).toBeNull();
      expect(statics.verbs('/r3/s3')).toEqual(['GET']);
      expect(statics.verbs('/r3/s4')).toBeUndefined();
    }
  });
});
