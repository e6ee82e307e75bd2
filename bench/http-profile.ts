// `npx tsx bench/http-profile.ts <node|fastify|hono|course> [scenario text] [seconds]`: one server
// of the whole-request benchmark under `node --cpu-prof`, loaded with each scenario (or those
// whose names hold the text) in turn; prints, by scenario, the CPU of a request by part (`PARTS`:
// the socket's writes, node:http, the async context's hooks, the router, the app...) and the
// functions with the most self time. `BY_FILE=1` groups the functions by file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildCourseApp } from './http-apps.js';
import { readyPort, stoppedWithUs } from './http.js';
import { SCENARIOS } from './http-scenarios.js';
import { benchDir } from './temp.js';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The parts a request's CPU goes to, each the self time of its functions: a function is put in
 * the first part whose test its name and file pass.
 */
const PARTS: [string, (name: string, url: string) => boolean][] = [
  [
    'socket writes (the kernel sends to the client)',
    (name) => /^(writev|writevGeneric|createWriteWrap|writeUtf8String|writeBuffer)$/.test(name),
  ],
  [
    'async context (AsyncLocalStorage hooks)',
    (name, url) =>
      url.includes('async_hooks') ||
      /^(promiseInitHook|promiseBeforeHook|promiseAfterHook|executionAsyncResource)$/.test(name),
  ],
  ['garbage collection', (name) => name === '(garbage collector)'],
  ['router (course-router)', (_, url) => /course-router\/|\/runtime\/dist\//.test(url)],
  [
    'server framework (fastify, hono)',
    (_, url) =>
      /node_modules\/(fastify|@fastify|hono|@hono|find-my-way|avvio|light-my-request|fast-json|secure-json|pino)/.test(
        url,
      ),
  ],
  [
    'the app (routes, middleware, handlers)',
    (_, url) => url.startsWith('file:') || url.startsWith('/'),
  ],
  ['node:http, streams, events', (_, url) => url.startsWith('node:')],
  ['V8 and native (program, microtasks, natives)', () => true],
];

function byPart(profile: Profile, hits: Map<number, number>): [string, number][] {
  const parts = new Map<string, number>(PARTS.map(([part]) => [part, 0]));
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    const count = hits.get(node.id) ?? 0;
    if (count === 0 || functionName === '(idle)') continue;
    const [part] = PARTS.find(([, test]) => test(functionName, url))!;
    parts.set(part, parts.get(part)! + count);
  }
  return [...parts].filter(([, samples]) => samples > 0);
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [kind = 'course', only = '', secondsText = '5'] = process.argv.slice(2);
// Every server serves the static files written beside the Course app.
const table = await buildCourseApp(benchDir('profile-app'));

for (const scenario of SCENARIOS.filter((s) => s.name.includes(only))) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-prof-'));
  const child = stoppedWithUs(
    spawn(
      process.execPath,
      [
        '--cpu-prof',
        '--cpu-prof-dir',
        dir,
        '--import',
        'tsx',
        path.join(HERE, 'http-server.ts'),
        kind,
        '0',
        table,
      ],
      {
        cwd: path.join(HERE, '..'),
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  const port = await readyPort(child);
  const request = {
    url: `http://127.0.0.1:${port}${scenario.path}`,
    method: scenario.method as autocannon.Request['method'],
    headers: scenario.headers,
    body: scenario.body,
    connections: 10,
  };
  await autocannon({ ...request, duration: 1 });
  const result = await autocannon({ ...request, duration: Number(secondsText) });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  // Only the samples of the measured load (its last seconds): not the start-up, not the warm-up.
  const from = profile.endTime - Number(secondsText) * 1e6;
  const hits = new Map<number, number>();
  for (let i = 0, t = profile.startTime; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t >= from) hits.set(profile.samples[i]!, (hits.get(profile.samples[i]!) ?? 0) + 1);
  }
  let total = 0;
  let idle = 0;
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const count = hits.get(node.id) ?? 0;
    total += count;
    if (functionName === '(idle)') idle += count;
    if (functionName === '(idle)' || count === 0) continue;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = process.env.BY_FILE
      ? path.basename(url) || functionName
      : `${functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + count);
  }
  const busy = total - idle;
  // Each sample stands for the interval between samples: the profile's time over its samples.
  const perSample = (profile.endTime - profile.startTime) / profile.samples.length;
  const perRequest = (samples: number) => (samples * perSample) / result.requests.total;
  console.log(
    `\n## ${kind}: ${scenario.name} — ${Math.round(result.requests.average)} req/s; ${busy} busy samples, ${perRequest(busy).toFixed(1)} µs a request (profiled); by part:`,
  );
  for (const [part, samples] of byPart(profile, hits))
    console.log(`${perRequest(samples).toFixed(1).padStart(6)} µs  ${part}`);
  console.log('top self time:');
  for (const [name, hits] of [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.TOP ?? 25)))
    console.log(`${((100 * hits) / busy).toFixed(1).padStart(5)}%  ${name}`);
}
