// `npm run bench:http [-- --smoke] [--only <scenario text>]`: whole requests against bare
// node:http, Fastify and Hono, written into bench/RESULTS.md (its whole-request section).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFetch } from './fetch.js';
import { runHttp } from './http.js';
import { HTTP_END, HTTP_START, renderHttp } from './http-report.js';

const smoke = process.argv.includes('--smoke');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg === -1 ? undefined : process.argv[onlyArg + 1];
const outArg = process.argv.indexOf('--out');
const out =
  outArg !== -1
    ? process.argv[outArg + 1]!
    : path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

const http = await runHttp({ smoke, only });
process.stderr.write('bench: fetch\n');
const fetch = await runFetch({ smoke, only });
const section = renderHttp(http, fetch, smoke);
console.log(section);
const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
const start = old.indexOf(HTTP_START);
const end = old.indexOf(HTTP_END);
writeFileSync(
  out,
  start !== -1 && end !== -1
    ? old.slice(0, start) + section + old.slice(end + HTTP_END.length)
    : `${old.trimEnd()}\n\n${section}\n`,
);
process.stderr.write(`bench: wrote ${out}\n`);
