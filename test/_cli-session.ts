import { connect, type Socket } from 'node:net';
import { inject } from 'vitest';
import { ROOT, type CliResult } from './_utils.js';

/**
 * `course build` and `course routes` run by the CLI's own commands in the run's CLI servers
 * (test/_cli-server.mjs, started by the global setup): for the builds of apps a test serves and
 * the compiler's messages, where the process is not what is tested. Tests of what the process
 * itself owns (its exit code, `process.exit()` in a route file, colour, the argument parser) use
 * `runCli`.
 */
export function cli(args: string[], cwd = ROOT): Promise<CliResult> {
  const servers = inject('cliServers');
  const server = (connections ??= servers.map(open))[turn++ % servers.length]!;
  return new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    server.write(`${JSON.stringify({ id, args, cwd })}\n`);
  });
}

// --- internal ---

let connections: Socket[] | undefined;
let turn = process.pid;
let next = 0;
const waiting = new Map<number, { resolve: (r: CliResult) => void; reject: (e: Error) => void }>();

function open(socketPath: string): Socket {
  const socket = connect(socketPath);
  let pending = '';
  socket.setEncoding('utf8');
  // A worker that is done with its files must not be held open by an idle connection.
  socket.unref();
  socket.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const { id, ...result } = JSON.parse(pending.slice(0, end)) as CliResult & { id: number };
      pending = pending.slice(end + 1);
      waiting.get(id)?.resolve(result);
      waiting.delete(id);
    }
  });
  socket.on('close', () => {
    for (const { reject } of waiting.values()) reject(new Error('the CLI server went away'));
    waiting.clear();
    connections = undefined;
  });
  return socket;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The sockets of the run's CLI servers (`test/_global-setup.ts`). */
    cliServers: string[];
  }
}
