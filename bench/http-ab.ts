// `npx tsx bench/http-ab.ts <moduleA> <moduleB> [scenario text] [rounds]`: two builds of a Course
// app (generated modules, each beside its own `node_modules/course-router`) served side by side,
// each in its own process, rounds alternating; server CPU per request of each, medians, and the
// ratio B/A. How an optimisation of the runtime is measured (ARCHITECTURE.md's table).
import { SCENARIOS } from './http-scenarios.js';
import { check, cpuTicks, load, start } from './http.js';
import { median } from './lookup.js';

const [a, b, only = '', roundsText = '5'] = process.argv.slice(2);
if (!a || !b)
  throw new Error('usage: tsx bench/http-ab.ts <moduleA> <moduleB> [scenario] [rounds]');
const servers = [await start('course', a), await start('course', b)];
try {
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
    const [ma, mb] = cpu.map(median) as [number, number];
    console.log(
      `${scenario.name}: A ${ma.toFixed(1)} µs, B ${mb.toFixed(1)} µs per request; B/A ${(mb / ma).toFixed(3)} ` +
        `(A ${cpu[0]!.map((x) => x.toFixed(0)).join(' ')}; B ${cpu[1]!.map((x) => x.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  for (const { child } of servers) child.kill();
}
