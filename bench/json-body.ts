// `npx tsx bench/json-body.ts`: what a JSON body costs a request, against `JSON.parse` of its
// bytes. 1 MiB of `[{},{},…]` (the most objects `bodyLimit` lets in) through the Fetch adapter,
// less the same number of bytes that parse to one string; the difference is the body's parse
// and the removal of its prototypes, which should stay within twice `JSON.parse`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from '../compiler/index.js';
import { Course } from '../runtime/index.js';
import type { RouteTable } from '../runtime/types.js';
import { benchDir } from './temp.js';
import { writeCourseApp } from './routers.js';

const MiB = 1024 * 1024;
const EMPTY_OBJECTS = '[' + '{},'.repeat((MiB - 200) / 3 - 10) + '{}]';
const ONE_STRING = `["${'x'.repeat(MiB - 200)}"]`;

const dir = benchDir('json-body');
writeCourseApp(dir, []);
writeFileSync(
  path.join(dir, 'routes.ts'),
  `import { Course, input } from 'course-router';\nCourse.post('/sink', () => (input(), 'ok'));\n`,
);
await build({ root: dir });
const { default: table } = (await import(
  pathToFileURL(path.join(dir, 'generated/routes.gen.ts')).href
)) as { default: RouteTable };
const app = Course.start(table);

const post = async (body: string) => {
  const response = await app.fetch(
    new Request('http://localhost/sink', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
  await response.text();
};

const parse = await fastest(9, () => JSON.parse(EMPTY_OBJECTS));
const carried = await fastest(9, () => post(ONE_STRING));
const parsed = await fastest(9, () => post(EMPTY_OBJECTS));
const cost = parsed - carried;
console.log(
  `JSON.parse ${parse.toFixed(1)} ms; the body's cost ${cost.toFixed(1)} ms (${(cost / parse).toFixed(2)}× JSON.parse)`,
);

async function fastest(runs: number, work: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}
