// `npx tsx bench/http-profile.ts <node|fastify|hono|course> [scenario text] [seconds]`: one server
// of the whole-request benchmark under `node --cpu-prof`, loaded with each scenario (or those
// whose names hold the text) in turn; prints the functions with the most self time, by scenario.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildCourseApp } from './http-apps.js';
import { SCENARIOS } from './http-scenarios.js';
import { benchDir } from './temp.js';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [kind = 'course', only = '', secondsText = '5'] = process.argv.slice(2);
// Every server serves the static files written beside the Course app.
const table = await buildCourseApp(benchDir('profile-app'));

for (const scenario of SCENARIOS.filter((s) => s.name.includes(only))) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-prof-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--import',
      'tsx',
      path.join(HERE, 'http-server.ts'),
      kind,
      String(port),
      table,
    ],
    {
      cwd: path.join(HERE, '..'),
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()),
  );
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
  console.log(
    `\n## ${kind}: ${scenario.name} — ${Math.round(result.requests.average)} req/s; ${busy} busy samples; top self time:`,
  );
  for (const [name, hits] of [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.TOP ?? 25)))
    console.log(`${((100 * hits) / busy).toFixed(1).padStart(5)}%  ${name}`);
}
