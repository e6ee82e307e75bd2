import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * bcrypt in worker threads. The algorithm is bcryptjs (pure JavaScript: installing needs no
 * C/C++ compiler); it runs off the main thread, so a hash never stalls the event loop (bcryptjs's
 * own async mode still holds it for about 100 ms at a time). Threads start on the first hash, up
 * to one per core and at most four (as many as libuv's pool gave the native binding), and hold
 * the process open only while they work.
 */
export function bcryptHash(data: string, cost: number): Promise<string> {
  return run({ op: 'hash', data, cost });
}

/** Whether `data` matches a `$2a$`/`$2b$`/`$2y$` hash, compared in constant time. */
export function bcryptCompare(data: string, hash: string): Promise<boolean> {
  return run({ op: 'compare', data, hash });
}

// --- internal ---

type Job =
  { op: 'hash'; data: string; cost: number } | { op: 'compare'; data: string; hash: string };

interface Pending {
  resolve(value: never): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

const SCRIPT = new URL('./bcrypt-worker.js', import.meta.url);
const MAX_THREADS = Math.min(4, availableParallelism());
const threads: Thread[] = [];
let nextId = 0;

function run<T>(job: Job): Promise<T> {
  const thread = pick();
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    thread.pending.set(id, { resolve: resolve as (value: never) => void, reject });
    thread.worker.ref();
    thread.worker.postMessage({ id, ...job });
  });
}

/** An idle thread, a new one while under the cap, else the least busy. */
function pick(): Thread {
  let best = threads[0];
  for (const thread of threads) if (thread.pending.size < best!.pending.size) best = thread;
  if (best && (best.pending.size === 0 || threads.length >= MAX_THREADS)) return best;
  return start();
}

function start(): Thread {
  // No flags of the process: the thread needs no loader, and some flags (`--input-type`) would
  // stop it from starting.
  const worker = new Worker(SCRIPT, { execArgv: [] });
  const thread: Thread = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', ({ id, value, error }: { id: number; value?: never; error?: string }) => {
    const job = thread.pending.get(id);
    thread.pending.delete(id);
    if (thread.pending.size === 0) worker.unref();
    if (error === undefined) job?.resolve(value!);
    else job?.reject(new Error(`course: bcrypt: ${error}`));
  });
  // A thread that dies (out of memory, a missing bcryptjs) fails its jobs; the next hash
  // starts a new one.
  let failure: Error | undefined;
  worker.on('error', (error) => (failure = error));
  worker.on('exit', (code) => {
    threads.splice(threads.indexOf(thread), 1);
    const error = failure ?? new Error(`course: the bcrypt thread stopped (exit code ${code})`);
    for (const job of thread.pending.values()) job.reject(error);
    thread.pending.clear();
  });
  threads.push(thread);
  return thread;
}
