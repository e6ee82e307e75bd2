// `npm run bench:runtimes`: the realistic request — a JSON POST through a group's middleware —
// served by Course and by Hono on Bun and on Deno (each runtime's own server, `Bun.serve` and
// `Deno.serve`), loaded by autocannon in alternating rounds. Per router: requests per second and
// the server's CPU time per request (from /proc), medians of the rounds. Writes its section of
// bench/RESULTS.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from './checkout.js';
import { readyPort } from './http.js';
import { BODY, RUNTIMES, SERVER, writeApp } from './runtimes-app.js';
import { sched, shares } from './sched.js';
import { benchDir } from './temp.js';

const KINDS = ['course', 'hono', 'hono-context', 'bare'] as const;
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const SECONDS = Number(process.env['SECONDS'] ?? 3);

// The machine's load when the run starts, beside its figures (they are noisy on a shared machine).
const load = os.loadavg()[0]!.toFixed(1);
const dir = benchDir('runtimes');
await writeApp(dir, SERVER);
const rows: string[] = [];
for (const [runtime, { binary, args }] of Object.entries(RUNTIMES)) {
  const bin = path.join(ROOT, binary);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm install\` (linux-x64)`);
  const version = await output(bin, ['--version']);
  const figures: Record<string, { rps: number[]; cpu: number[]; idle: number[] }> = {};
  for (const kind of KINDS) figures[kind] = { rps: [], cpu: [], idle: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another, so none always meets a warmer machine.
    for (let i = 0; i < KINDS.length; i++) {
      const kind = KINDS[(i + round) % KINDS.length]!;
      const { rps, cpu, idle } = await measure(bin, [...args, kind]);
      figures[kind]!.rps.push(rps);
      figures[kind]!.cpu.push(cpu);
      figures[kind]!.idle.push(idle);
    }
  }
  const summary = (f: { rps: number[]; cpu: number[]; idle: number[] }) => ({
    rps: median(f.rps),
    cpu: median(f.cpu),
    idle: `${Math.round(median(f.idle) * 100)}%`,
  });
  const [course, hono, context, bare] = KINDS.map((kind) => summary(figures[kind]!));
  // What each router adds to the runtime's own cost of the same answers.
  const own = (router: { cpu: number }) => `${(router.cpu - bare!.cpu).toFixed(1)} µs`;
  const run = await output(bin, [...args.slice(0, -1), 'context.ts']);
  rows.push(
    `| ${runtime} ${/\d+\.\d+\.\d+/.exec(version)?.[0] ?? version} | ${Math.round(course!.rps)} | ${Math.round(hono!.rps)} | ${(course!.rps / hono!.rps).toFixed(2)}× | ${course!.cpu.toFixed(1)} µs | ${hono!.cpu.toFixed(1)} µs | ${(hono!.cpu / course!.cpu).toFixed(2)}× | ${context!.cpu.toFixed(1)} µs | ${(context!.cpu / course!.cpu).toFixed(2)}× | ${bare!.cpu.toFixed(1)} µs | ${own(course!)} | ${own(hono!)} | ${run.trim()} ns | ${course!.idle} | ${hono!.idle} |`,
  );
  console.log(rows.at(-1));
}

const section = `<!-- runtimes -->
## Bun and Deno: a JSON POST through a group's middleware

\`npm run bench:runtimes\`: \`POST /api/users\` with a 60-byte JSON body and a bearer token that
a group middleware checks; the route reads the body and answers JSON. Course (\`app.fetch\`), Hono,
and Hono under its \`contextStorage()\` middleware (\`getContext()\` in any async code a route
starts, which Course's helpers always have: both keep it in \`AsyncLocalStorage\`) on the same
runtime's own server, 10 connections, ${ROUNDS} alternating rounds of ${SECONDS} s,
medians (load average ${load} at the start). Server CPU per request from /proc; "Course / Hono" above 1 is Course ahead. "Idle": the share of the run the server's JavaScript thread neither ran nor waited in the run
queue for a core (\`bench/sched.ts\`); the rest of a core its process did not use was spent queued. A body with
a declared length is read by the runtime (\`bytes()\`) and one timer watches every read, kept in
the slots of an array (before: a stream reader, a timer and an abort listener per request, a fifth
of Bun's time).
What stays. "No router" answers the same request with a handler of its own on the same server (it
checks the token and the path, and parses the body with \`request.json()\`): "own" is what each
router adds to it. On Deno, one \`AsyncLocalStorage.run()\` costs what its column says (Deno's
\`AsyncVariable\` copies the context into a new object and adds a \`WeakMap\` entry each time,
which lives until a full collection), against a few tens of nanoseconds on Bun; Course's helpers find
the request through it in any async code a route starts, as the contract wants; Hono under
\`contextStorage()\` pays it too, and more, as its store holds the whole context. Measured by
\`npx tsx bench/runtimes-ab.ts <rev> <runtime>\` (the server of a build, of the build with one
step changed and of Hono loaded in turn, nine rounds of 2 s, the median of each round's ratio;
two servers of one build differ by up to 3%), a build changed by hand on Deno: a plain variable in
place of \`AsyncLocalStorage\` 0.92–0.975× (two days); no prototype removal of the JSON body
0.94–0.97× (the threat model wants it; a copy into \`Object.create(null)\` instead costs the
same); the body read by \`text()\` rather than \`bytes()\` and a \`TextDecoder\` 0.96×; the
body parsed by the runtime's \`request.json()\` 0.885×, but then \`body()\` could not give the
bytes as sent (a webhook's signature needs them); the first three with no watchdog 0.88–0.89× when
Hono was 0.75–0.80×. On Bun the same changes are within the noise (no body watchdog and no
promise around the read, 0.96× against 0.97× for a second server of the same build), and a bare
\`Bun.serve\` reading \`bytes()\` and a \`TextDecoder\` costs what one reading \`json()\`
does. What is left is spread over the router's own checks (the Host, the content type, the
limits, the depth walk), its request and response records, the middleware's instance and the
promises between the steps, none over a twentieth; a \`bun --cpu-prof\` of the server puts most
of Bun's difference in the runtime's native frames, which a \`perf\` of the stripped binary does
not name.

| runtime | Course req/s | Hono req/s | Course / Hono (req/s) | Course CPU/req | Hono CPU/req | Course / Hono (CPU) | Hono with \`contextStorage()\` CPU/req | Course / Hono with it (CPU) | no router CPU/req | Course's own | Hono's own | one \`AsyncLocalStorage.run()\` | Course idle | Hono idle |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
<!-- /runtimes -->
`;
const results = path.join(ROOT, 'bench/RESULTS.md');
const text = readFileSync(results, 'utf8');
const at = text.indexOf('<!-- runtimes -->');
const end = text.indexOf('<!-- /runtimes -->');
writeFileSync(
  results,
  at === -1
    ? `${text.trimEnd()}\n\n${section}`
    : text.slice(0, at) + section + text.slice(end + '<!-- /runtimes -->\n'.length),
);
rmSync(dir, { recursive: true, force: true });

// --- internal ---

async function measure(
  bin: string,
  args: string[],
): Promise<{ rps: number; cpu: number; idle: number }> {
  const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    readyPort(child).then(resolve, reject);
    child.once('exit', (code) => reject(new Error(`${bin} ${args.join(' ')} exited ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/api/users`;
  const load = (duration: number) =>
    autocannon({
      url,
      method: 'POST',
      connections: 10,
      duration,
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
      body: BODY,
    });
  await load(1); // warm-up
  const [before, clocks] = [cpuTime(child), sched(child.pid!)];
  const result = await load(SECONDS);
  const cpu = cpuTime(child) - before;
  const { idle } = shares(clocks, sched(child.pid!));
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${args.join(' ')}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  child.kill();
  await new Promise((resolve) => child.once('exit', resolve));
  return { rps: result.requests.average, cpu: cpu / result.requests.total, idle };
}

/** The process's user and system CPU time, in µs (clock ticks of 10 ms). */
function cpuTime(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function output(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', () => resolve(text.trim()));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
