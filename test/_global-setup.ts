import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/** The CLI servers of the run (test/_cli-server.mjs): one per core keeps both busy. */
const CLI_SERVERS = 2;

/**
 * A folder for the whole test run, given to every test file (`inject('courseRun')`): the
 * workspaces are packed into it once, by the first file that installs them (`test/_install.ts`).
 * And the sockets of the run's CLI servers (`inject('cliServers')`, test/_cli-session.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'course-run-'));
  project.provide('courseRun', dir);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const servers: ChildProcess[] = [];
  const sockets = await Promise.all(
    Array.from({ length: CLI_SERVERS }, (_, i) => {
      const socket = path.join(dir, `cli-${i}.sock`);
      const server = fork(path.join(root, 'test/_cli-server.mjs'), [socket], {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
        execArgv: [],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      servers.push(server);
      return new Promise<string>((resolve, reject) => {
        server.once('message', () => resolve(socket));
        server.once('exit', (code) => reject(new Error(`a CLI server exited (${code})`)));
      });
    }),
  );
  project.provide('cliServers', sockets);
  return () => {
    for (const server of servers) server.kill();
    rmSync(dir, { recursive: true, force: true });
  };
}
