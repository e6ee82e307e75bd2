// `npm run bench:runtimes`: the realistic request — a JSON POST through a group's middleware —
// served by Course and by Hono on Bun and on Deno (each runtime's own server, `Bun.serve` and
// `Deno.serve`), each server started once, warmed up, then loaded by autocannon in alternating
// rounds. Per router: requests per second and the server's CPU time per request (from /proc),
// medians of the rounds, and its CPU against Course's measured just before and after it. Writes
// its section of bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './checkout.js';
import { cpuTicks } from './http.js';
import { median } from './lookup.js';
import {
  loadPost,
  RUNTIMES,
  SERVER,
  startServer,
  writeApp,
  type RuntimeServer,
} from './runtimes-app.js';
import { sched, shares } from './sched.js';
import { benchDir } from './temp.js';

const KINDS = ['course', 'hono', 'hono-context', 'hono-guarded', 'bare'] as const;
// `--smoke`: a second or so a server, for CI (the figures mean nothing); `--out <file>`: where the
// section goes [bench/RESULTS.md].
const smoke = process.argv.includes('--smoke');
const outArg = process.argv.indexOf('--out');
const results =
  outArg === -1 ? path.join(ROOT, 'bench/RESULTS.md') : path.resolve(process.argv[outArg + 1]!);
const ROUNDS = smoke ? 1 : Number(process.env['ROUNDS'] ?? 9);
const SECONDS = smoke ? 0.5 : Number(process.env['SECONDS'] ?? 2);
// Seconds of load each server takes before it is measured.
const WARM_UP = smoke ? 0.5 : 10;

// The machine's load when the run starts, beside its figures (they are noisy on a shared machine).
const load = os.loadavg()[0]!.toFixed(1);
const dir = benchDir('runtimes');
await writeApp(dir, SERVER);
const rows: string[] = [];
// `ONLY=deno`: one runtime, its row printed and RESULTS.md left as it is.
const only = process.env['ONLY'];
for (const [runtime, { binary, args }] of Object.entries(RUNTIMES)) {
  if (only !== undefined && runtime !== only) continue;
  const bin = path.join(ROOT, binary);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm install\` (linux-x64)`);
  const version = await output(bin, ['--version']);
  // Every server runs through the whole run, each warmed up first: a server's first seconds
  // compile its code (on the runtime's background threads, counted in its CPU), Course's for
  // longer than Hono's, and a fresh process measured at once read 20% over its steady cost.
  const servers = new Map<string, RuntimeServer>();
  const figures: Record<string, Figures> = {};
  for (const kind of KINDS) figures[kind] = { rps: [], cpu: [], idle: [], ratio: [] };
  const sample = async (kind: string) => {
    const { rps, cpu, idle } = await measure(servers.get(kind)!, SECONDS);
    figures[kind]!.rps.push(rps);
    figures[kind]!.cpu.push(cpu);
    figures[kind]!.idle.push(idle);
    return cpu;
  };
  try {
    for (const kind of KINDS) servers.set(kind, await startServer(bin, [...args, kind], dir));
    for (const server of servers.values()) await measure(server, WARM_UP);
    const others = KINDS.filter((kind) => kind !== 'course');
    for (let round = 0; round < ROUNDS; round++) {
      // Course is measured before and after each other server, which is read against the mean of
      // the two: the machine's speed moves by a third within seconds here, and only figures taken
      // side by side compare. Each round starts with another, so none always meets a warmer machine.
      let before = await sample('course');
      for (let i = 0; i < others.length; i++) {
        const kind = others[(i + round) % others.length]!;
        const theirs = await sample(kind);
        const after = await sample('course');
        figures[kind]!.ratio.push(theirs / ((before + after) / 2));
        before = after;
      }
      const cpus = KINDS.map((kind) => `${kind} ${figures[kind]!.cpu.at(-1)!.toFixed(1)}`);
      process.stderr.write(
        `bench: ${runtime} round ${round + 1}/${ROUNDS}: ${cpus.join(', ')} µs\n`,
      );
    }
  } finally {
    for (const server of servers.values()) server.child.kill();
  }
  const summary = (f: Figures) => ({
    rps: median(f.rps),
    cpu: median(f.cpu),
    ratio: median(f.ratio),
    idle: `${Math.round(median(f.idle) * 100)}%`,
  });
  const [course, hono, context, guarded, bare] = KINDS.map((kind) => summary(figures[kind]!));
  // What each router adds to the runtime's own cost of the same answers.
  // `+ 0` makes a -0 of the rounding 0.
  const own = (router: { cpu: number }) =>
    `${(Number((router.cpu - bare!.cpu).toFixed(1)) + 0).toFixed(1)} µs`;
  const run = await output(bin, [...args.slice(0, -1), 'context.ts']);
  rows.push(
    `| ${runtime} ${/\d+\.\d+\.\d+/.exec(version)?.[0] ?? version} | ${Math.round(course!.rps)} | ${Math.round(hono!.rps)} | ${(course!.rps / hono!.rps).toFixed(2)}× | ${course!.cpu.toFixed(1)} µs | ${hono!.cpu.toFixed(1)} µs | ${hono!.ratio.toFixed(2)}× | ${context!.cpu.toFixed(1)} µs | ${context!.ratio.toFixed(2)}× | ${guarded!.cpu.toFixed(1)} µs | ${guarded!.ratio.toFixed(2)}× | ${bare!.cpu.toFixed(1)} µs | ${own(course!)} | ${own(hono!)} | ${run.trim()} ns | ${course!.idle} | ${hono!.idle} |`,
  );
  console.log(rows.at(-1));
}

const section = `<!-- runtimes -->
## Bun and Deno: a JSON POST through a group's middleware

\`npm run bench:runtimes\`: \`POST /api/users\` with a 60-byte JSON body and a bearer token that
a group middleware checks; the route reads the body and answers JSON. Course (\`app.fetch\`), Hono,
Hono under its \`contextStorage()\` middleware (\`getContext()\` in any async code a route
starts, which Course's helpers always have: both keep it in \`AsyncLocalStorage\`, which Course
enters only for a route that may await), and Hono under
\`contextStorage()\` and \`bodyLimit()\` of 1 MiB (the two of Course's guarantees on this request
that Hono offers as middleware), on the same runtime's own server, 10 connections. Every server
runs through the whole run and takes ${WARM_UP} s of load before it is measured (a server's first
seconds compile its code, Course's for longer: a fresh process read 20% over its steady cost); then
${ROUNDS} rounds in which Course's server is loaded for ${SECONDS} s before and after each other one
(load average ${load} at the start). Server CPU per request from /proc, the median of the measures;
"Course / …" (CPU) is the other's CPU over the mean of Course's just before and after it, the
median of the rounds: above 1, Course is ahead (the machine's speed moves by a third within
seconds, and only figures taken side by side compare; still, from one run to the next on this
shared machine, Course / Hono (CPU) read 0.89× to 1.01× on Deno and 0.95× to 1.01× on Bun in the
runs of 2026-11-30 before a short JSON body's walk became lazy (below), 0.97× to 1.00× on Deno
(0.99× the median of three) and 1.00× and 1.05× on Bun after it; three servers alternating in rounds of 2 s, \`bench/runtimes-ab.ts\`, read
Hono within 2% of Course on Deno in the rounds where the machine was quiet, and up to 8% cheaper in
those where all ran slower). "Idle": the share of the run the server's
JavaScript thread neither ran nor waited in the run queue for a core
(\`bench/sched.ts\`); the rest of a core its process did not use was spent queued. "No router"
answers the same request with a handler of its own on the same server (it checks the token and the
path, and parses the body with \`request.json()\`): "own" is what each router adds to it.

What Course does on this request that Hono alone does not, each a guarantee of the contract or the
threat model: the request's context for its helpers, a deadline on the body's arrival
(\`requestTimeout\`, one timer for every read) and its share of \`bodyMemoryLimit\`, the Host and
\`Content-Encoding\` checks, and the parsed JSON's objects made unable to reach a prototype. On Bun
they cost nothing measurable over HTTP. On Deno the context was the whole difference (0.96× Hono):
a server of a dozen lines answering this request (the "no router" handler) costs 0.9 µs more CPU
with one \`AsyncLocalStorage.run()\` around each request than without (19.1 against 18.2 µs, two
runs of 15 s each after a warm-up), what Course cost over Hono; Deno's \`AsyncVariable\` copies the
context and adds a \`WeakMap\` entry at each \`run()\`, which lives until a full collection. This
route's middleware and callback return no promise, which the build proves from their types, and
such a route is served without \`AsyncLocalStorage\` (its helpers find the request in a variable
set around its synchronous code; \`RouteEntry.sync\`): \`npx tsx bench/runtimes-ab.ts 438bc3a deno
9\` read Course's CPU per request 0.88× what it was before (Bun 0.98×). A route that may await
still enters the store, as Hono with \`contextStorage()\` does for every request. Measured with
builds changed by hand (\`bench/fetch-ab.ts\` in one Bun process): the deadline 1.5–4.5%, the
prototype walk 1–5%, the two header reads 1–2.4%. A JSON body of up to 512 characters now loses
its prototypes only when one of its objects is handed out, which this route, reading a string by
name, never does: in one Deno process that took 6% off the request's CPU
(\`npx tsx bench/fetch-ab.ts a8138e9 deno post 30\`: 0.94×); over HTTP, \`npx tsx bench/runtimes-ab.ts a8138e9 deno 13\`
read 0.995× the build before, within the noise.

| runtime | Course req/s | Hono req/s | Course / Hono (req/s) | Course CPU/req | Hono CPU/req | Course / Hono (CPU) | Hono with \`contextStorage()\` CPU/req | Course / Hono with it (CPU) | Hono with \`contextStorage()\` and \`bodyLimit()\` CPU/req | Course / Hono with both (CPU) | no router CPU/req | Course's own | Hono's own | one \`AsyncLocalStorage.run()\` | Course idle | Hono idle |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
<!-- /runtimes -->
`;
const text = existsSync(results) ? readFileSync(results, 'utf8') : '';
const at = text.indexOf('<!-- runtimes -->');
const end = text.indexOf('<!-- /runtimes -->');
if (only === undefined)
  writeFileSync(
    results,
    at === -1
      ? `${text.trimEnd()}\n\n${section}`
      : text.slice(0, at) + section + text.slice(end + '<!-- /runtimes -->\n'.length),
  );
rmSync(dir, { recursive: true, force: true });

// --- internal ---

/** A server's figures, one a measure; `ratio`: its CPU over Course's beside it, one a round. */
interface Figures {
  rps: number[];
  cpu: number[];
  idle: number[];
  ratio: number[];
}

/** Loads `server` for `seconds`: its requests per second, CPU per request (µs) and idle share. */
async function measure(
  server: RuntimeServer,
  seconds: number,
): Promise<{ rps: number; cpu: number; idle: number }> {
  const { child } = server;
  const [before, clocks] = [cpuTicks(child.pid!), sched(child.pid!)];
  const result = await loadPost(server, seconds);
  // A clock tick is 10 ms: 10,000 µs.
  const cpu = (cpuTicks(child.pid!) - before) * 10_000;
  const { idle } = shares(clocks, sched(child.pid!));
  return { rps: result.requests.average, cpu: cpu / result.requests.total, idle };
}

function output(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', () => resolve(text.trim()));
  });
}
