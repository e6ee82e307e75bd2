// `npm run bench`: every benchmark, written to bench/RESULTS.md. `--smoke`: seconds, for CI.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldBuild, typeCheck } from './build-types.js';
import { runFetch } from './fetch.js';
import { runHttp } from './http.js';
import type { LookupResult } from './lookup.js';
import { renderReport } from './report.js';
import { runScale, runStartup } from './scale.js';
import { runQueries, runStandard } from './standard.js';

const smoke = process.argv.includes('--smoke');
const outArg = process.argv.indexOf('--out');
const out =
  outArg !== -1
    ? process.argv[outArg + 1]!
    : path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
const options = { smoke };
const step = (name: string) => process.stderr.write(`bench: ${name}\n`);

step('standard set');
const standard = await runStandard(options);
step('query strings');
const queries = await runQueries(options);
step('scale');
const scale = await runScale(smoke ? [1_000] : [1_000, 10_000], options);
step('start-up');
const startup = await runStartup(smoke ? 1_000 : 10_000, options);
step('http');
const http = await runHttp(options);
step('fetch');
const fetch = await runFetch(options);
step('build');
const builds = (smoke ? [100] : [1_000, 10_000]).map((size) => coldBuild(size, options));
step('types');
const types = await typeCheck(smoke ? 200 : 5_000, smoke ? 100 : 2_000, options);

const report = renderReport({
  smoke,
  machine: `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${process.platform}`,
  node: process.version,
  standard,
  queries,
  scale,
  startup,
  http,
  fetch,
  builds,
  types,
});
// `npm run bench:runtimes` writes its own section (Bun, Deno): kept as it was.
const runtimes = existsSync(out)
  ? /<!-- runtimes -->[^]*<!-- \/runtimes -->\n/.exec(readFileSync(out, 'utf8'))
  : null;
writeFileSync(out, runtimes ? `${report.trimEnd()}\n\n${runtimes[0]}` : report);
step(`wrote ${out}`);

export type { LookupResult };
