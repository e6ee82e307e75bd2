// Where a server's JavaScript thread spent a run (Linux, /proc/<pid>/task/<pid>/schedstat):
// running, waiting in the run queue for a core (the machine busy), or idle (waiting for I/O or
// a timer). A server whose process CPU is below a core with little idle time is short of CPU,
// not delayed by its own code.
import { readFileSync } from 'node:fs';

/** A reading of a thread's clocks, in ns, to subtract from a later one. */
export interface Sched {
  run: number;
  wait: number;
  at: number;
}

/** The clocks of the main thread (the JavaScript thread) of the process `pid`, now. */
export function sched(pid: number): Sched {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')
    .split(' ')
    .map(Number);
  return { run: run!, wait: wait!, at: Number(process.hrtime.bigint()) };
}

/** The share (0–1) of the wall time between `a` and `b` the thread ran, queued and idled. */
export function shares(a: Sched, b: Sched): { run: number; queued: number; idle: number } {
  const wall = b.at - a.at;
  const run = (b.run - a.run) / wall;
  const queued = (b.wait - a.wait) / wall;
  return { run, queued, idle: Math.max(0, 1 - run - queued) };
}
