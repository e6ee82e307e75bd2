import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseOffsets } from '../../compiler/emit/static-key.js';
import { RouteList } from '../../runtime/matching/route-list.js';
import { staticKeyOf, StaticPaths } from '../../runtime/matching/statics.js';

const staticKey = (path: string, offsets: readonly number[]) => staticKeyOf(offsets)(path);

const pathArb = fc.stringMatching(/^(\/[a-z0-9.%-]{0,12}){0,6}$/);

describe('static path keys', () => {
  it('tell apart paths that differ in length or at an offset they read', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(30), { minLength: 1, maxLength: 4 }),
        pathArb,
        fc.nat(30),
        (offsets, path, at) => {
          // Another character at a read offset, or another length: another key (the key is a
          // bijection of the characters it reads, as long as none is past a path's start).
          const longer = `${path}x`;
          expect(staticKey(longer, offsets)).not.toBe(staticKey(path, offsets));
          if (offsets.includes(at) && at < path.length) {
            const i = path.length - 1 - at;
            const other = path.slice(0, i) + (path[i] === 'a' ? 'b' : 'a') + path.slice(i + 1);
            expect(staticKey(other, offsets)).not.toBe(staticKey(path, offsets));
          }
        },
      ),
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
  /** A table of `paths` (each for GET, its route its position), as the build writes it. */
  function table(paths: readonly string[], offsets: readonly number[]): StaticPaths {
    const routes = new RouteList(
      {},
      { C: class {} },
      paths
        .map((url, route) => JSON.stringify([route, 'GET', url, 'C@m', 'routes.ts:1:1']))
        .join('\n'),
    );
    const rows = paths.map((path, k) => JSON.stringify([path, 'GET', k])).join('\n');
    return new StaticPaths(routes, offsets, rows);
  }

  it('finds each of thousands of paths, and nothing else, whatever keys they share', () => {
    const paths = Array.from({ length: 5000 }, (_, i) => `/r${i % 70}/s${i}`);
    // A good choice of characters, one that leaves many paths per key, and every character.
    for (const offsets of [chooseOffsets(paths), [0], []]) {
      const statics = table(paths, offsets);
      paths.forEach((path) => expect(statics.find(path, 'GET')?.route.url, path).toBe(path));
      expect(statics.find('/r1/s1', 'POST')).toBeUndefined();
      for (const other of ['/r1/s2', '/r0/s5000', '/r0/s', '/', '', '/r1/s1/'])
        expect(statics.find(other, 'GET'), other).toBeNull();
      expect(statics.verbs('/r3/s3')).toEqual(['GET']);
      expect(statics.verbs('/r3/s4')).toBeUndefined();
    }
  });
});
