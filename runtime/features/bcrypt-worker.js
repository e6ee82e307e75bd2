// @ts-check
// A bcrypt thread of `bcrypt.ts`. Plain JavaScript, so that the same file runs next to the
// sources and in dist. The calls are synchronous: this thread has nothing else to do, and
// bcryptjs's own async mode would only cut the same work into slices.
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';

/** @typedef {{ id: number, op: 'hash', data: string, cost: number } | { id: number, op: 'compare', data: string, hash: string }} Job */

const port = parentPort;
port?.on('message', (/** @type {Job} */ job) => {
  try {
    const value =
      job.op === 'hash'
        ? bcrypt.hashSync(job.data, job.cost)
        : bcrypt.compareSync(job.data, job.hash);
    port.postMessage({ id: job.id, value });
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
