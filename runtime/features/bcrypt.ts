import type { Worker } from 'node:worker_threads';
import { unavailableOn } from '../platform.js';

/**
 * bcrypt in worker threads. The algorithm is bcryptjs (pure JavaScript: installing needs no
 * C/C++ compiler); it runs off the main thread, so a hash never stalls the event loop (bcryptjs's
 * own async mode still holds it for about 100 ms at a time). Threads start on the first hash, up
 * to one per core and at most four (as many as libuv's pool gave the native binding), and hold
 * the process open only while they work. `node:os` and `node:worker_threads` are loaded then:
 * Cloudflare Workers, which have no threads, get one clear error on the first hash.
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

const threads: Thread[] = [];
let nextId = 0;
let system: Promise<{ Worker: typeof Worker; script: URL; maxThreads: number }> | undefined;

async function run<T>(job: Job): Promise<T> {
  const { Worker, script, maxThreads } = await (system ??= load());
  const thread = pick(maxThreads) ?? start(new Worker(script, { execArgv: [] }));
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    thread.pending.set(id, { resolve: resolve as (value: never) => void, reject });
    thread.worker.ref();
    thread.worker.postMessage({ id, ...job });
  });
}

async function load() {
  unavailableOn(
    ['Cloudflare Workers'],
    'passHash()/passVerify() (bcrypt on a worker thread)',
    'hash passwords in a service on Node, Bun or Deno, or with Web Crypto (PBKDF2) in the Worker',
  );
  const [{ Worker }, { availableParallelism }] = await Promise.all([
    import('node:worker_threads'),
    import('node:os'),
  ]);
  return {
    Worker,
    script: new URL('./bcrypt-worker.js', import.meta.url),
    maxThreads: Math.min(4, availableParallelism()),
  };
}

/** An idle thread, else the least busy once at the cap; `undefined`: start a new one. */
function pick(maxThreads: number): Thread | undefined {
  let best = threads[0];
  for (const thread of threads) if (thread.pending.size < best!.pending.size) best = thread;
  if (best && (best.pending.size === 0 || threads.length >= maxThreads)) return best;
  return undefined;
}

// No flags of the process for the worker: the thread needs no loader, and some flags
// (`--input-type`) would stop it from starting.
function start(worker: Worker): Thread {
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
