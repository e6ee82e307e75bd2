import type { FetchResult } from './fetch.js';
import { SERVERS, type HttpResult, type Server } from './http.js';
import { SCENARIOS } from './http-scenarios.js';

/** Where the whole-request section sits in RESULTS.md, so `npm run bench:http` can replace it. */
export const HTTP_START = '<!-- whole requests: npm run bench:http -->';
export const HTTP_END = '<!-- end of whole requests -->';

const NAMES: Record<Server, string> = {
  node: 'bare node:http',
  fastify: 'Fastify',
  hono: 'Hono (@hono/node-server)',
  course: 'Course (node:http)',
};

/** The whole-request section of RESULTS.md: goals, then each figure. */
export function renderHttp(http: HttpResult[], fetch: FetchResult[], smoke: boolean): string {
  const scenarios = [...new Set(http.map((h) => h.scenario))];
  const cell = (scenario: string, server: Server) =>
    http.find((h) => h.scenario === scenario && h.server === server)!;
  // Server CPU per request of `other` over Course's: above 1, Course uses less.
  const ratio = (scenario: string, other: Server) =>
    cell(scenario, other).cpuMicros / cell(scenario, 'course').cpuMicros;
  const goals: [string, number, number][] = scenarios.map((s) =>
    s === SCENARIOS[0]!.name
      ? [`${s}: ≥ 1.1× Fastify`, ratio(s, 'fastify'), 1.1]
      : s.startsWith('GET /user')
        ? [`${s}: ≥ 95% of bare node:http`, ratio(s, 'node'), 0.95]
        : [`${s}: ≥ Fastify`, ratio(s, 'fastify'), 1],
  );
  for (const s of new Set(fetch.map((f) => f.scenario))) {
    const of = (handler: string) => fetch.find((f) => f.scenario === s && f.handler === handler)!;
    goals.push([
      `Fetch adapter, ${s}: ≥ Hono's app.fetch`,
      of('hono').micros / of('course').micros,
      1,
    ]);
  }
  const x = (n: number) => `${n.toFixed(2)}×`;
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return `${HTTP_START}
## Whole requests (npm run bench:http)

${smoke ? '**Smoke run: one short round, no warm-up; not figures to quote.**\n\n' : ''}The scenarios of \`bench/http-scenarios.ts\` on the app of \`bench/http-apps.ts\`, written for
each server (40 REST routes under \`/api\` behind a group middleware that wants a bearer token,
same answers byte for byte, each server checked first). Each server runs in its own process with
\`NODE_ENV=production\`, loaded by autocannon on 127.0.0.1 with 10 connections; ${smoke ? 'one round' : 'three rounds (the first with a 1 s warm-up before each measure) of 3 s,'} alternating the
servers. Server CPU per request is the process's user and system time (\`/proc/<pid>/stat\`)
over the round divided by the requests it answered: on a shared machine it moves far less than
requests/s, and the goals are read from it. Figures are medians of the rounds.

| goal (server CPU per request) | measured | met |
| --- | ---: | :---: |
${goals.map(([goal, value, min]) => row([goal, x(value), value >= min ? 'yes' : 'no'])).join('\n')}

### Server CPU µs per request (ratio: the other's over Course's; above 1, Course uses less)

${row(['scenario', ...SERVERS.map((s) => NAMES[s]), 'vs bare', 'vs Fastify', 'vs Hono'])}
${row(['---', ...SERVERS.map(() => '---:'), '---:', '---:', '---:'])}
${scenarios.map((s) => row([s, ...SERVERS.map((k) => cell(s, k).cpuMicros.toFixed(1)), x(ratio(s, 'node')), x(ratio(s, 'fastify')), x(ratio(s, 'hono'))])).join('\n')}

### Requests per second (the load generator shares the machine's two cores)

${row(['scenario', ...SERVERS.map((s) => NAMES[s]), 'errors'])}
${row(['---', ...SERVERS.map(() => '---:'), '---:'])}
${scenarios.map((s) => row([s, ...SERVERS.map((k) => Math.round(cell(s, k).requestsPerSecond)), SERVERS.reduce((n, k) => n + cell(s, k).errors, 0)])).join('\n')}

### Fetch API in process (\`app.fetch(new Request(…))\`, the body read; CPU µs per request)

${row(['scenario', 'Course', 'Hono', 'Hono / Course'])}
${row(['---', '---:', '---:', '---:'])}
${[...new Set(fetch.map((f) => f.scenario))]
  .map((s) => {
    const of = (h: string) => fetch.find((f) => f.scenario === s && f.handler === h)!.micros;
    return row([s, of('course').toFixed(1), of('hono').toFixed(1), x(of('hono') / of('course'))]);
  })
  .join('\n')}
${HTTP_END}`;
}
