// Lookups at scale by kind of path: `tsx bench/scale-split.ts [size]` — the app's static paths,
// its dynamic ones, and all of them, for Course and the two fastest other routers at scale.
import { measureLookups } from './lookup.js';
import { scaleRoutes } from './route-sets.js';
import * as routers from './routers.js';

const size = Number(process.argv[2] ?? 10_000);
const { routes, urls } = scaleRoutes(size);
const contenders = [
  await routers.course(routes, `split${size}`),
  routers.memoirist(routes),
  routers.medley(routes),
];
// Dynamic routes are the `p…` and `n…` ones, and `/x/{id}`.
const dynamic = urls.filter((url) => /\/[pn]\d+\//.test(url) || url === '/x/42');
const kinds = {
  static: urls.filter((url) => !dynamic.includes(url)),
  dynamic,
  all: urls,
};
for (const [kind, list] of Object.entries(kinds)) {
  const requests = list.map((url) => ['GET', url] as const);
  const results = await measureLookups(contenders, requests, { smoke: false }, 3);
  const cells = results.map((r) => `${r.router} ${r.fresh.toFixed(0)} ns`);
  console.log(`${kind} (${list.length} paths): ${cells.join(', ')}`);
}
