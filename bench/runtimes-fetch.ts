// `npx tsx bench/runtimes-fetch.ts [rounds] [runtime-folder]`: the app of `npm run bench:runtimes`
// served in process on Bun and on Deno, Course's `app.fetch` beside Hono's, with no server or
// socket: the CPU each spends on a request (`process.cpuUsage()` over 30,000 requests made and
// their bodies read), the JSON POST through the group middleware and a `GET /user/{id}`.
// Rounds alternate the routers, each in its own process; medians. `runtime-folder` (a
// `course-router` package folder, `runtime/` of another checkout, built) serves Course from
// another build: run it once per build for an A/B of a change.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './checkout.js';
import { BODY, HONO, writeApp } from './runtimes-app.js';
import { benchDir } from './temp.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const RUNTIME = path.resolve(process.argv[3] ?? path.join(ROOT, 'runtime'));
const RUNTIMES: Record<string, string[]> = {
  bun: [path.join(ROOT, 'node_modules/@oven/bun-linux-x64/bin/bun')],
  deno: [path.join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno'), 'run', '-A'],
};

// One process: one router (`course` or `hono`) on one request (`post` or `get`), timed.
const LOOP = {
  'loop.ts': `import { Course } from 'course-router';
import { Hono } from 'hono';
import routes from './generated/routes.gen.ts';
${HONO}
const app = Course.start(routes);
const [router, scenario] = process.argv.slice(-2);
const handle = router === 'hono' ? hono.fetch : (request: Request) => app.fetch(request);
const BODY = ${JSON.stringify(BODY)};
const make = scenario === 'get'
  ? () => new Request('http://127.0.0.1/user/42')
  : () => new Request('http://127.0.0.1/api/users', { method: 'POST', body: BODY, headers: {
      'content-type': 'application/json', authorization: 'Bearer secret', 'content-length': String(BODY.length) } });
const expected = scenario === 'get' ? '{"id":"42"}' : '{"created":true,"name":"Ada Lovelace"}';
const first = await handle(make());
const text = await first.text();
if (first.status !== 200 || text !== expected) throw new Error(router + ' answered ' + first.status + ' ' + text);
const cpu = () => { const used = process.cpuUsage(); return used.user + used.system; };
for (let i = 0; i < 5000; i++) await (await handle(make())).arrayBuffer();
const start = cpu();
for (let i = 0; i < 30000; i++) await (await handle(make())).arrayBuffer();
console.log(((cpu() - start) / 30000).toFixed(2));
`,
};
const cwd = benchDir('runtimes-fetch');
await writeApp(cwd, LOOP, RUNTIME);

console.log(`| runtime | request | Course CPU/req | Hono CPU/req | Hono / Course |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (const [runtime, [binary, ...args]] of Object.entries(RUNTIMES)) {
  if (!existsSync(binary!))
    throw new Error(`${binary} is missing: run \`npm install\` (linux-x64)`);
  for (const scenario of ['post', 'get']) {
    const cpu: Record<string, number[]> = { course: [], hono: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const router of round % 2 === 0 ? ['course', 'hono'] : ['hono', 'course']) {
        const out = execFileSync(binary!, [...args, 'loop.ts', router, scenario], { cwd });
        cpu[router]!.push(Number(out.toString().trim()));
      }
    }
    const [course, hono] = [median(cpu['course']!), median(cpu['hono']!)];
    console.log(
      `| ${runtime} | ${scenario.toUpperCase()} | ${course.toFixed(1)} µs | ${hono.toFixed(1)} µs | ${(hono / course).toFixed(2)}× |`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
