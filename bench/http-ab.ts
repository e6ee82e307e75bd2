// `npx tsx bench/http-ab.ts <rev> [scenario text] [rounds]`: the whole-request app built and
// served by the code at a git revision (A) and by the working tree (B), each in its own
// process, rounds alternating (5 by default, 3 s each, after a second of warm-up); server CPU
// per request of each, medians, and the ratio B/A: below 1, the working tree uses less. How an
// optimisation of the request path is measured (ARCHITECTURE.md's table).
import { revisionCheckout } from './checkout.js';
import { buildCourseApp } from './http-apps.js';
import { SCENARIOS } from './http-scenarios.js';
import { check, cpuTicks, load, start } from './http.js';
import { median } from './lookup.js';
import { benchDir } from './temp.js';

const [rev, only = '', roundsText = '5'] = process.argv.slice(2);
if (!rev) throw new Error('usage: tsx bench/http-ab.ts <rev> [scenario] [rounds]');
const old = revisionCheckout(rev, 'http-ab');
const servers: Awaited<ReturnType<typeof start>>[] = [];
try {
  servers.push(await start('course', await buildCourseApp(benchDir('ab-old'), old)));
  servers.push(await start('course', await buildCourseApp(benchDir('ab-new'))));
  for (const scenario of SCENARIOS.filter((s) => s.name.includes(only))) {
    for (const [i, { port }] of servers.entries()) await check(i ? 'B' : 'A', port, scenario);
    const cpu: number[][] = [[], []];
    for (const { port } of servers) await load(port, scenario, 1);
    for (let round = 0; round < Number(roundsText); round++) {
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const { child, port } = servers[i]!;
        const before = cpuTicks(child.pid!);
        const result = await load(port, scenario, 3);
        cpu[i]!.push(((cpuTicks(child.pid!) - before) * 1e4) / result.requests.total);
      }
    }
    const [a, b] = cpu.map(median) as [number, number];
    console.log(
      `${scenario.name}: A ${a.toFixed(1)} µs, B ${b.toFixed(1)} µs per request; B/A ${(b / a).toFixed(2)} ` +
        `(A ${cpu[0]!.map((x) => x.toFixed(0)).join(' ')}; B ${cpu[1]!.map((x) => x.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  for (const { child } of servers) child.kill();
  old.remove();
}
