/* global console, process */
// `node bench/profile-callers.mjs <file.cpuprofile> <function>`: the callers (DEPTH deep, 4 by default) of
// the samples whose own function is <function>, in a profile of `bench/http-profile.ts` (kept under
// TMPDIR); `INCL=<n>` prints instead the <n> functions with the most inclusive time. Only the last
// 5 s of samples, as http-profile measures.
import fs from 'node:fs';
const [file, fn] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const from = p.endTime - 5e6;
const hits = new Map();
for (let i = 0, t = p.startTime; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  if (t >= from) hits.set(p.samples[i], (hits.get(p.samples[i]) ?? 0) + 1);
}
const name = (n) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
let busy = 0;
for (const [id, c] of hits) if (byId.get(id).callFrame.functionName !== '(idle)') busy += c;
if (process.env.INCL) {
  const incl = new Map();
  for (const [id, c] of hits) {
    const seen = new Set();
    for (let x = id; x !== undefined; x = parent.get(x)) {
      const k = name(byId.get(x));
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + c);
    }
  }
  for (const [k, c] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.INCL)))
    console.log(((100 * c) / busy).toFixed(1).padStart(5) + '% ' + k);
} else {
  const chains = new Map();
  for (const [id, c] of hits) {
    const n = byId.get(id);
    if (n.callFrame.functionName !== fn) continue;
    const ch = [];
    for (
      let x = parent.get(id), d = 0;
      x !== undefined && d < Number(process.env.DEPTH ?? 4);
      x = parent.get(x), d++
    )
      ch.push(name(byId.get(x)));
    const k = ch.join(' < ');
    chains.set(k, (chains.get(k) ?? 0) + c);
  }
  for (const [k, c] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(((100 * c) / busy).toFixed(2).padStart(6) + '% ' + k);
}
