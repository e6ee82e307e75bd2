// `npx tsx bench/runtimes-ab.ts <rev> <bun|deno> [rounds]`: the `bench:runtimes` POST on the
// runtime's own server for Course at a git revision (A), Course of the working tree (B) and Hono,
// three servers started together and loaded in turn (autocannon, 10 connections, rounds of 2 s,
// the order reversed each round). Per server: its CPU per request (from /proc), the median of
// the rounds; and B's and Hono's CPU against A's, the median of each round's ratio. How a change
// of the Fetch path is measured where users meet it: the machine's load moves between rounds, and
// each round's ratio is taken from servers loaded one after the other.
import path from 'node:path';
import { revisionCheckout, ROOT } from './checkout.js';
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
import { benchDir } from './temp.js';

const [rev, runtime = 'bun', rounds = '9'] = process.argv.slice(2);
const command = RUNTIMES[runtime as keyof typeof RUNTIMES];
if (!rev || !command) throw new Error('usage: tsx bench/runtimes-ab.ts <rev> <bun|deno> [rounds]');

interface Side extends RuntimeServer {
  name: string;
  cpu: number[];
}

const old = revisionCheckout(rev, 'runtimes-ab');
const sides: Side[] = [];
try {
  const [a, b] = [benchDir('runtimes-ab-old'), benchDir('runtimes-ab-new')];
  await writeApp(a, SERVER, old.runtime);
  await writeApp(b, SERVER, path.join(ROOT, 'runtime'));
  for (const [name, dir, kind] of [
    ['A', a, 'course'],
    ['B', b, 'course'],
    ['hono', b, 'hono'],
  ] as const) {
    const server = await startServer(path.join(ROOT, command.binary), [...command.args, kind], dir);
    sides.push({ name, ...server, cpu: [] });
  }
  // A server's first seconds compile its code (counted in its CPU): each is warmed up for 10 s.
  for (const side of sides) await loadPost(side, 10);
  for (let round = 0; round < Number(rounds); round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const before = cpuTicks(side.child.pid!);
      const done = (await loadPost(side, 2)).requests.total;
      // A clock tick is 10 ms: 10,000 µs.
      side.cpu.push(((cpuTicks(side.child.pid!) - before) * 10_000) / done);
    }
  }
  const base = sides[0]!.cpu;
  for (const side of sides) {
    const ratio = median(side.cpu.map((cpu, i) => cpu / base[i]!));
    console.log(
      `${runtime} ${side.name.padEnd(4)} ${median(side.cpu).toFixed(1)} µs/request, ` +
        `${ratio.toFixed(3)}× A (rounds: ${side.cpu.map((cpu) => cpu.toFixed(1)).join(' ')})`,
    );
  }
} finally {
  for (const side of sides) side.child.kill();
  old.remove();
}
