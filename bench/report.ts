import type { FetchResult } from './fetch.js';
import type { HttpResult } from './http.js';
import type { LookupResult } from './lookup.js';
import type { ScaleResult, StartupResult } from './scale.js';
import type { StandardResults } from './standard.js';

/** Everything one `npm run bench` measured. */
export interface BenchReport {
  smoke: boolean;
  machine: string;
  node: string;
  standard: StandardResults;
  /** The standard cases with a query string, Course and find-my-way. */
  queries: StandardResults;
  scale: ScaleResult[];
  startup: StartupResult[];
  http: HttpResult[];
  fetch: FetchResult[];
  builds: { routes: number; ms: number; peakMB: number }[];
  types: { typed: number; untyped: number };
}

/** `bench/RESULTS.md`: the tables, and each target with its measured ratio. */
export function renderReport(r: BenchReport): string {
  const course = (list: LookupResult[]) => list.find((x) => x.router === 'course')!;
  const others = (list: LookupResult[]) =>
    list.filter((x) => x.router !== 'course' && !x.router.startsWith('Map.get'));
  const fastest = (list: LookupResult[], key: 'fresh' | 'literal') =>
    Math.min(...others(list).map((x) => x[key]));
  const fmw = (list: LookupResult[]) => list.find((x) => x.router === 'find-my-way')!;
  const all = r.standard.at(-1)![1];
  const targets: [string, string, boolean][] = [];
  const ratio = (a: number, b: number) => b / a;
  const x = (v: number) => `${v.toFixed(2)}×`;
  targets.push([
    'standard set, all together, fresh: ≥ 2.0× find-my-way',
    x(ratio(course(all).fresh, fmw(all).fresh)),
    ratio(course(all).fresh, fmw(all).fresh) >= 2,
  ]);
  targets.push([
    'standard set, all together, literal: ≥ 3.0× find-my-way',
    x(ratio(course(all).literal, fmw(all).literal)),
    ratio(course(all).literal, fmw(all).literal) >= 3,
  ]);
  const behind = r.standard
    .filter(([, list]) => course(list).fresh > fastest(list, 'fresh'))
    .map(([name]) => name);
  targets.push([
    'ahead of the fastest other router on every case (fresh)',
    behind.length ? `behind on: ${behind.join(', ')}` : 'ahead on all',
    behind.length === 0,
  ]);
  for (const s of r.scale) {
    const c = course(s.lookups).fresh;
    targets.push([
      `${s.routes} routes: ≥ 1.5× the fastest other router (fresh)`,
      x(ratio(c, fastest(s.lookups, 'fresh'))),
      ratio(c, fastest(s.lookups, 'fresh')) >= 1.5,
    ]);
    if (s.routes > 5000)
      targets.push([
        `${s.routes} routes: ≤ 0.5 µs per lookup`,
        `${(c / 1000).toFixed(3)} µs`,
        c <= 500,
      ]);
  }
  if (r.scale.length > 1) {
    const growth = course(r.scale.at(-1)!.lookups).fresh / course(r.scale[0]!.lookups).fresh;
    targets.push([
      'largest app ≤ 1.5× slower per lookup than 1,000 routes',
      x(growth),
      growth <= 1.5,
    ]);
  }
  const start = r.startup.find((s) => s.router === 'course')!;
  const fmwStart = r.startup.find((s) => s.router === 'find-my-way')!;
  targets.push(['start-up ≤ 20 ms', `${start.ms.toFixed(1)} ms`, start.ms <= 20]);
  targets.push([
    'start-up ≥ 20× faster than find-my-way registering',
    x(fmwStart.ms / start.ms),
    fmwStart.ms / start.ms >= 20,
  ]);
  targets.push(['start-up heap ≤ 3 MB', `${start.heapMB.toFixed(1)} MB`, start.heapMB <= 3]);
  // The first `course` row is the app whose route calls no request helper.
  const server = (name: string) => r.http.find((h) => h.server.startsWith(name))!;
  const withContext = r.http.find((h) => h.server.includes('request()'));
  const rps = (name: string) => server(name).requestsPerSecond;
  const cpu = (name: string) => server(name).cpuMicros;
  // The Fetch table's handlers against the bare one, wherever it stands in the list.
  const bareFetch = r.fetch.find((f) => f.handler.startsWith('bare'))!.micros;
  // No router on node:http can pass bare node:http: its ratio is the ceiling of the others.
  // Server CPU per request says the same as requests/s with less of the machine's noise.
  const against = (name: string) =>
    `${x(rps('course') / rps(name))} (bare node:http: ${x(rps('bare') / rps(name))}; ` +
    `by server CPU per request: ${x(cpu(name) / cpu('course'))})`;
  targets.push(['HTTP ≥ 1.2× Fastify', against('fastify'), rps('course') / rps('fastify') >= 1.2]);
  targets.push([
    'HTTP ≥ 1.5× Hono on @hono/node-server',
    against('hono'),
    rps('course') / rps('hono') >= 1.5,
  ]);
  targets.push([
    'HTTP ≥ 90% of bare node:http',
    `${((100 * rps('course')) / rps('bare')).toFixed(0)}% (by server CPU per request: ${((100 * cpu('bare')) / cpu('course')).toFixed(0)}%; ` +
      `the route calling request(): ${((100 * (withContext?.requestsPerSecond ?? 0)) / rps('bare')).toFixed(0)}%)`,
    rps('course') / rps('bare') >= 0.9,
  ]);
  for (const b of r.builds) {
    const limit = b.routes >= 10_000 ? 10_000 : 2_000;
    targets.push([
      `cold build of ${b.routes} routes < ${limit / 1000} s`,
      `${(b.ms / 1000).toFixed(2)} s (peak ${b.peakMB.toFixed(0)} MB)`,
      b.ms < limit,
    ]);
  }
  targets.push([
    'tsc with typed url() ≤ 1.2× untyped',
    x(r.types.typed / r.types.untyped),
    r.types.typed / r.types.untyped <= 1.2,
  ]);

  const lookupTable = (list: LookupResult[]) =>
    ['| router | fresh ns | literal ns | fresh vs find-my-way |', '| --- | ---: | ---: | ---: |']
      .concat(
        list.map(
          (l) =>
            `| ${l.router} | ${l.fresh.toFixed(1)} | ${l.literal.toFixed(1)} | ${x(fmw(list) ? fmw(list).fresh / l.fresh : NaN)} |`,
        ),
      )
      .join('\n');
  return `# Benchmark results

Generated by \`npm run bench${r.smoke ? ' -- --smoke' : ''}\`; do not edit.${r.smoke ? ' **Smoke run: too short to be meaningful.**' : ''}

- Machine: ${r.machine}
- Node: ${r.node}
- Method: each router in its own timed loop (no harness keeping results alive), rounds alternating
  the routers, medians; an app at scale is measured in three processes, each starting with
  another router and collecting the heap before each router's turn. "Fresh" looks up a new
  string per lookup, made as node's HTTP parser makes \`req.url\` (a flat one-byte string, never
  hashed), in batches of 8,192 made before each timed batch; "literal" reuses one. Course's
  figure is the server's own resolution of the raw target (\`resolveTarget\`: normalising it —
  query, trailing slash, decoding — unless a route that only matches normal paths takes it as it
  is).

## Targets

| target | measured | met |
| --- | --- | :---: |
${targets.map(([name, value, met]) => `| ${name} | ${value} | ${met ? 'yes' : 'no'} |`).join('\n')}

## Standard 12-route set (ns per lookup)

${r.standard.map(([name, list]) => `### ${name}\n\n${lookupTable(list)}`).join('\n\n')}

## With a query string (ns per lookup, fresh)

The standard cases with \`?page=2&sort=name\`, for the routers that take a raw target and cut its
query themselves; the others are handed the path alone by their servers.

${queryTable(r.queries)}

## Apps at scale (every route looked up in turn; 60% static, 35% 1–2 params, 5% regex)

${r.scale
  .map(
    (s) =>
      `### ${s.routes} routes\n\n${lookupTable(s.lookups)}${s.refused.length ? `\n\nRefused or failed: ${s.refused.map(([n, why]) => `${n} (${why})`).join('; ')}` : ''}`,
  )
  .join('\n\n')}

## Start-up (load the table, fresh process)

Course: importing the generated module (as JavaScript, in plain Node as a server runs it) and
\`Course.start()\`; the others: registering the same routes, their library already loaded.

| router | ms | heap MB |
| --- | ---: | ---: |
${r.startup.map((s) => `| ${s.router} | ${s.ms.toFixed(1)} | ${s.heapMB.toFixed(2)} |`).join('\n')}

## End to end over HTTP (autocannon, 10 connections, GET /user/42, median of 5 rounds after warm-up)

Server CPU per request is the server process's user and system time over a round divided by the
requests it answered: on a busy machine it moves less than requests/s. Both Course apps keep the
request context (\`AsyncLocalStorage\`) through \`await\`s, as every Course app does; the first
route calls no request helper, the second reads a header through \`request()\`.

| server | requests/s | server CPU µs per request | errors |
| --- | ---: | ---: | ---: |
${r.http.map((h) => `| ${h.server} | ${Math.round(h.requestsPerSecond)} | ${h.cpuMicros.toFixed(1)} | ${h.errors} |`).join('\n')}

## Fetch API, in process (GET /user/42, µs per request, median of the rounds)

Each handler is handed a \`Request\` and its \`Response\`'s text is read, as Bun, Deno or
\`@hono/node-server\` would; most of the time is the Fetch API's own (\`Request\`, \`Response\`,
their streams). The bare handler answers the one route by hand with the headers Course sends.
No target: these figures show what the Fetch adapter adds.

| handler | µs per request | speed, bare = 100% |
| --- | ---: | ---: |
${r.fetch.map((f) => `| ${f.handler} | ${f.micros.toFixed(2)} | ${Math.round((100 * bareFetch) / f.micros)}% |`).join('\n')}

## Build and types

| measure | value |
| --- | ---: |
${r.builds.map((b) => `| cold \`course build\`, ${b.routes} routes | ${b.ms.toFixed(0)} ms, peak ${b.peakMB.toFixed(0)} MB |`).join('\n')}
| \`tsc --noEmit\`, typed \`url()\` | ${r.types.typed.toFixed(0)} ms |
| \`tsc --noEmit\`, untyped \`url()\` | ${r.types.untyped.toFixed(0)} ms |
`;
}

/** One row per case: each router's fresh figure, then Course's against the fastest other. */
function queryTable(results: StandardResults): string {
  const names = results[0]![1].map((x) => x.router);
  const rows = results.map(([name, list]) => {
    const course = list.find((x) => x.router === 'course')!.fresh;
    const fastest = Math.min(...list.filter((x) => x.router !== 'course').map((x) => x.fresh));
    return `| ${name} | ${list.map((x) => x.fresh.toFixed(1)).join(' | ')} | ${(fastest / course).toFixed(2)}× |`;
  });
  return [
    `| case | ${names.join(' | ')} | course vs fastest other |`,
    `| --- | ${names.map(() => '---:').join(' | ')} | ---: |`,
    ...rows,
  ].join('\n');
}
