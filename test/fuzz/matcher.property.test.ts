import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteTable } from 'course-router';
import { normalizePath } from '../../runtime/http/path.js';
import { resolveTarget } from '../../runtime/http/target.js';
import { referenceMatch, type RefRoute } from '../_reference.js';
import { cli } from '../_cli-session.js';
import { importTable, removeApp, writeApp } from '../_utils.js';

// `FUZZ_SCALE=20 npm run fuzz` for the long run; `npm test` runs the CI-safe size.
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1);
const ROUTE_SETS = 4 * SCALE;
const REQUESTS_PER_SET = 25_000;

const WORDS = ['a', 'b', 'api', 'x1', 'user'];
// `[^/]+` and `[0-9%]+` take an escape's characters: their regex must test the decoded value.
const REGEXES = ['\\w+', '[0-9]+', '[a-z]+', '[a-z-]+', '[^/]+', '[0-9%]+', '.*', '.+'];

/** A route: literal and parameter segments over a small alphabet, so routes collide often. */
const routeArb = fc
  .record({
    verb: fc.constantFrom('GET', 'POST', 'PUT'),
    parts: fc.array(
      fc.oneof(
        fc.constantFrom(...WORDS).map((w) => ({ kind: 'lit' as const, text: w })),
        fc.record({
          kind: fc.constant('param' as const),
          sep: fc.constantFrom('/', '-', '.'),
          regex: fc.constantFrom(...REGEXES),
        }),
      ),
      { minLength: 0, maxLength: 4 },
    ),
    optionalLast: fc.boolean(),
  })
  .map(({ verb, parts, optionalLast }) => {
    let url = '';
    const where: Record<string, string> = {};
    parts.forEach((part, k) => {
      if (part.kind === 'lit') url += `/${part.text}`;
      else {
        const name = `p${k}`;
        const optional = optionalLast && k === parts.length - 1 ? '?' : '';
        const sep = url === '' ? '/' : part.sep;
        url += `${sep}{${name}${optional}}`;
        // A slash-matching regex only last, and a class taking `-` or `.` only last after a
        // `/`: two of them in one route fail the ReDoS check.
        const last = k === parts.length - 1;
        const dots = part.regex.startsWith('.');
        const wide = part.regex.includes('-]') || part.regex.startsWith('[^');
        where[name] = (dots && !last) || (wide && (!last || sep !== '/')) ? '\\w+' : part.regex;
      }
    });
    return { verb, url: url || '/', where } satisfies RefRoute;
  });

const requestArb = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'DELETE'),
    fc.array(
      fc.oneof(
        fc.constantFrom(
          ...WORDS,
          '1',
          '42',
          'Z',
          'a-b',
          'x.y',
          '%41',
          '%2F',
          'a%2fb',
          '%25',
          '5%25',
          '%252F',
          'a%20b',
          'a%0Ab',
          '.',
          '..',
          '',
        ),
        fc.stringMatching(/^[a-z0-9]{1,3}$/),
      ),
      {
        maxLength: 5,
      },
    ),
    fc.constantFrom('', '/', '?q=1', '//'),
  )
  .map(([verb, segments, tail]) => [verb, `/${segments.join('/')}${tail}`] as const);

const apps: string[] = [];
afterAll(() => apps.forEach(removeApp));

async function build(routes: RefRoute[]): Promise<{ dir: string; table: RouteTable }> {
  const lines = routes.map(
    (r) =>
      `Course.match(['${r.verb.toLowerCase()}'], '${r.url}', (...p: unknown[]) => p).where(${JSON.stringify(r.where)});`,
  );
  const dir = writeApp({
    'routes.ts': `import { Course } from 'course-router';\n${lines.join('\n')}\n`,
  });
  apps.push(dir);
  const result = await cli(['build', '--root', dir]);
  expect(result.code, result.stderr).toBe(0);
  return { dir, table: await importTable(dir) };
}

describe('property: the generated matcher agrees with the reference matcher, and the server resolves targets as it does', () => {
  it(
    `for ${ROUTE_SETS} random route sets × ${REQUESTS_PER_SET} random requests`,
    { timeout: 300_000 * SCALE },
    async () => {
      // Small apps get code per route; large ones the runtime's shared walker: both are tried.
      const sample = (minLength: number, maxLength: number, seed: number) =>
        fc.sample(
          fc.uniqueArray(routeArb, { minLength, maxLength, selector: (r) => `${r.verb} ${r.url}` }),
          { numRuns: ROUTE_SETS / 2, seed },
        );
      const sets = [...sample(1, 30, 42), ...sample(150, 200, 43)];
      // Every set built first, four side by side.
      const built: Awaited<ReturnType<typeof build>>[] = [];
      for (let k = 0; k < sets.length; k += 4)
        built.push(...(await Promise.all(sets.slice(k, k + 4).map((routes) => build(routes)))));
      let cases = 0;
      let walked = 0;
      for (const [k, routes] of sets.entries()) {
        const { dir, table } = built[k]!;
        if (
          readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8').includes('walkTree($tree')
        )
          walked++;
        fc.assert(
          fc.property(requestArb, ([verb, raw]) => {
            const path = normalizePath(raw);
            if (path === undefined) return true;
            const expected = referenceMatch(routes, verb, path);
            const hit = table.match(verb, path, '');
            const actual = hit && {
              index: table.routes.indexOf(hit.route),
              params: [...hit.params],
            };
            cases++;
            // Compared here first: `expect` costs more than the match, 100,000 times over.
            if (!sameMatch(actual, expected))
              expect(actual, `${verb} ${raw} → ${path}`).toEqual(expected);
            // The server's way: the raw target matched first, normalised only when needed.
            const resolved = resolveTarget(table, verb, raw, '');
            if (
              resolved?.path !== path ||
              resolved?.hit?.route !== hit?.route ||
              !sameParams(resolved?.hit?.params, hit?.params)
            ) {
              expect(resolved?.path, raw).toBe(path);
              expect(resolved?.hit?.route, raw).toBe(hit?.route);
              expect(resolved?.hit?.params, raw).toEqual(hit?.params);
            }
          }),
          { numRuns: REQUESTS_PER_SET, seed: 7 },
        );
      }
      expect(cases).toBeGreaterThanOrEqual(ROUTE_SETS * REQUESTS_PER_SET * 0.9);
      expect(walked).toBe(ROUTE_SETS / 2);
    },
  );
});

type Match = { index: number; params: readonly (string | undefined)[] } | undefined;

/** What `toEqual` would say of two matches, without its cost. */
function sameMatch(a: Match, b: Match): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.index === b.index && sameParams(a.params, b.params);
}

function sameParams(
  a: readonly (string | undefined)[] | undefined,
  b: readonly (string | undefined)[] | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
