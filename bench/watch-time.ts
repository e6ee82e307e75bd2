// Watch-mode rebuild time: `tsx bench/watch-time.ts [sizes…]` — one route edited, time to the new module.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, SourceIndex } from '../compiler/index.js';
import { median } from './lookup.js';
import { scaleRoutes } from './route-sets.js';
import { writeCourseApp } from './routers.js';
import { benchDir } from './temp.js';

/** Cold build, then the median time of rebuilding after editing one route, reusing the sources. */
export async function watchRebuild(
  size: number,
  edits = 5,
): Promise<{ routes: number; coldMs: number; rebuildMs: number }> {
  const dir = benchDir(`watch-${size}`);
  writeCourseApp(dir, scaleRoutes(size).routes, true);
  const index = new SourceIndex();
  const cold = await build({ root: dir, index });
  const routes = path.join(dir, 'routes.ts');
  const times: number[] = [];
  for (let i = 0; i < edits; i++) {
    writeFileSync(routes, readFileSync(routes, 'utf8').replace(/=> (null|\d+)\)/, `=> ${i + 1})`));
    index.refresh([routes]);
    const started = performance.now();
    await build({ root: dir, index });
    times.push(performance.now() - started);
  }
  return { routes: size, coldMs: cold.milliseconds, rebuildMs: median(times) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const size of process.argv.slice(2).map(Number).filter(Boolean).length
    ? process.argv.slice(2).map(Number)
    : [100, 1000]) {
    const r = await watchRebuild(size);
    console.log(
      `${r.routes} routes: first build ${r.coldMs.toFixed(0)} ms (in process), rebuild after one edit ${r.rebuildMs.toFixed(0)} ms`,
    );
  }
}
