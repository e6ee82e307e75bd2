import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, type CliResult } from './_utils.js';

/**
 * `course build` and `course routes` for the tests of a file, run by the CLI's own commands in
 * one process (test/_cli-server.mjs) started before them: for tests of the compiler's messages,
 * where the process is not what is tested. Tests of what the process itself owns (its exit
 * code, `process.exit()` in a route file, colour, the argument parser) use `runCli`.
 */
export function cliSession(): (args: string[], cwd?: string) => Promise<CliResult> {
  let server: ChildProcess | undefined;
  let next = 0;
  const waiting = new Map<
    number,
    { resolve: (r: CliResult) => void; reject: (e: Error) => void }
  >();
  beforeAll(() => {
    server = fork(path.join(ROOT, 'test/_cli-server.mjs'), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    server.on('message', ({ id, ...result }: CliResult & { id: number }) => {
      waiting.get(id)?.resolve(result);
      waiting.delete(id);
    });
    server.on('exit', (code, signal) => {
      for (const { reject } of waiting.values())
        reject(new Error(`the CLI server exited (${signal ?? code})`));
      waiting.clear();
    });
  });
  afterAll(() => {
    server?.disconnect();
  });
  return (args, cwd = ROOT) =>
    new Promise((resolve, reject) => {
      if (!server?.connected) return reject(new Error('the CLI server is not running'));
      const id = next++;
      waiting.set(id, { resolve, reject });
      server.send({ id, args, cwd });
    });
}
