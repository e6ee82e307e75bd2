// `npx tsx bench/fetch-ab.ts <rev|hono|hono-context> [bun|deno] [post|get] [batches]`: the Fetch
// adapter of the code at a git revision (A; or Hono's `app.fetch` on the same routes, for `hono`;
// with Hono's `contextStorage()`, which gives `getContext()` from anywhere as Course's helpers
// have `request()`, for `hono-context`) and of the
// working tree (B), each serving the `bench:runtimes` app, in one
// process of the runtime, batches of 2,000 `app.fetch(new Request(...))` alternating between
// them (the body of each response read): CPU per request of each, and B/A as the median of the
// batches' ratios. The process is then run again with the two sides swapped, and the ratio given
// is the geometric mean of both runs' (B/A and 1/(A/B)), which cancels what being loaded first or
// second costs a side. How a change of the Fetch path is measured on Bun and Deno: in one process,
// the machine's load moves both sides together.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { revisionCheckout, ROOT } from './checkout.js';
import { HONO, writeApp } from './runtimes-app.js';
import { benchDir } from './temp.js';

const [rev, runtime = 'bun', scenario = 'post', batches = '30'] = process.argv.slice(2);
if (!rev)
  throw new Error(
    'usage: tsx bench/fetch-ab.ts <rev|hono|hono-context> [bun|deno] [post|get] [batches]',
  );
const COMMANDS: Record<string, string[]> = {
  bun: [path.join(ROOT, 'node_modules/@oven/bun-linux-x64/bin/bun')],
  deno: [path.join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno'), 'run', '-A'],
};
const command = COMMANDS[runtime];
if (!command) throw new Error(`runtime: bun or deno, not ${runtime}`);

// Loads the app of each folder (`argv`: first, second), then times them batch by batch.
const LOOP = `import { Hono } from 'hono';
${HONO}
const [scenario, batches, first, second] = (globalThis as any).Deno
  ? (globalThis as any).Deno.args
  : process.argv.slice(2);
const load = async (dir: string) => {
  if (dir === 'hono') return (request: Request): Promise<Response> => Promise.resolve(hono.fetch(request));
  if (dir === 'hono-context')
    return (request: Request): Promise<Response> => Promise.resolve(honoContext.fetch(request));
  const { Course } = await import(dir + '/node_modules/course-router/dist/index.js');
  const app = Course.start((await import(dir + '/generated/routes.gen.ts')).default);
  return (request: Request): Promise<Response> => app.fetch(request);
};
const sides = [await load(first), await load(second)];
// Bytes, as a server's request body arrives: a \`Request\` made of a string gives Bun's
// \`text()\` that string back, undecoded.
const BODY = new TextEncoder().encode(JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', age: 36 }));
const make = scenario === 'get'
  ? () => new Request('http://127.0.0.1/user/42')
  : () => new Request('http://127.0.0.1/api/users', { method: 'POST', body: BODY, headers: {
      'content-type': 'application/json', authorization: 'Bearer secret',
      'content-length': String(BODY.byteLength) } });
const cpu = () => { const used = process.cpuUsage(); return used.user + used.system; };
const batch = async (handle: (request: Request) => Promise<Response>, n: number) => {
  const start = cpu();
  for (let i = 0; i < n; i++) await (await handle(make())).arrayBuffer();
  return (cpu() - start) / n;
};
for (const side of sides) {
  const answer = await side(make());
  if (answer.status !== 200) throw new Error('answered ' + answer.status + ' ' + (await answer.text()));
  await batch(side, 5000);
}
const times: number[][] = [[], []];
for (let i = 0; i < Number(batches); i++)
  for (const k of i % 2 ? [1, 0] : [0, 1]) times[k]!.push(await batch(sides[k]!, 2000));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(JSON.stringify({
  first: median(times[0]!),
  second: median(times[1]!),
  ratio: median(times[1]!.map((t, i) => t / times[0]![i]!)),
}));
`;

interface Run {
  first: number;
  second: number;
  ratio: number;
}

const hono = rev === 'hono' || rev === 'hono-context';
const old = hono ? undefined : revisionCheckout(rev, 'fetch-ab');
try {
  const [a, b] = [benchDir('fetch-ab-old'), benchDir('fetch-ab-new')];
  if (old) await writeApp(a, { 'loop.ts': LOOP }, old.runtime);
  await writeApp(b, old ? {} : { 'loop.ts': LOOP }, path.join(ROOT, 'runtime'));
  const sideA = hono ? rev : a;
  const run = (first: string, second: string): Run =>
    JSON.parse(
      execFileSync(
        command[0]!,
        [...command.slice(1), 'loop.ts', scenario, batches, first, second],
        {
          cwd: hono ? b : a,
        },
      ).toString(),
    ) as Run;
  const forward = run(sideA, b);
  const backward = run(b, sideA);
  const ratio = Math.sqrt(forward.ratio / backward.ratio);
  const us = (x: number) => `${x.toFixed(2)} µs`;
  console.log(
    `${runtime} ${scenario.toUpperCase()}: A ${us((forward.first + backward.second) / 2)}, ` +
      `B ${us((forward.second + backward.first) / 2)} per request; B/A ${ratio.toFixed(3)} ` +
      `(B second: ${forward.ratio.toFixed(3)}; A second: ${backward.ratio.toFixed(3)})`,
  );
} finally {
  old?.remove();
}
