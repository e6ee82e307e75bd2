import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, inject } from 'vitest';
import { ROOT } from './_utils.js';

// What the tests that install the packed packages into fresh apps share: the packing (once per
// run, whichever test file asks first), npm, and servers started in those apps.

export const run = promisify(execFile);

/**
 * npm's environment: no C or C++ compiler for install scripts, no funding lines, and packages
 * npm has in its cache taken from there without asking the registry whether they are current
 * (as `--prefer-offline`: a machine that installed them once installs them again in seconds).
 */
export const NO_COMPILER = {
  ...process.env,
  CC: 'false',
  CXX: 'false',
  npm_config_fund: 'false',
  npm_config_prefer_offline: 'true',
};

/** The repository's TypeScript compiler. */
export const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** Runs npm in `cwd`; rejects, with its output, when it fails. */
export function npm(cwd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('npm', [...args, '--no-audit'], { cwd, env: NO_COMPILER, maxBuffer: 1 << 24 });
}

/**
 * The folder of the tarballs `npm pack --workspaces` makes of this checkout. The packing runs
 * once per test run: the first file to ask packs, the others wait for it (the global setup gives
 * every worker the same folder).
 */
export async function packedTarballs(): Promise<string> {
  const base = inject('courseRun');
  const packs = path.join(base, 'packs');
  const done = path.join(base, 'packed');
  const failed = path.join(base, 'pack-failed');
  if (existsSync(done)) return packs;
  try {
    mkdirSync(packs);
  } catch {
    // Another file is packing.
    for (let waited = 0; waited < 300_000; waited += 200) {
      if (existsSync(done)) return packs;
      if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the packing of the workspaces did not finish in 5 minutes');
  }
  try {
    await run('npm', ['pack', '--workspaces', '--pack-destination', packs], { cwd: ROOT });
  } catch (error) {
    writeFileSync(failed, `npm pack failed: ${String(error)}`);
    throw error;
  }
  writeFileSync(done, '');
  return packs;
}

/** A server started by `startServer`. */
export interface Running {
  /** Everything it printed so far. */
  output(): string;
  /** Stops it and every process it started (its process group). */
  stop(): Promise<void>;
}

/**
 * Starts `command` in its own process group and waits until something accepts connections on
 * `port`; rejects with its output if it exits first or nothing listens within 60 s.
 */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number },
): Promise<Running> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: Running = {
    output: () => output,
    stop: () => stopGroup(child, exited, options.port),
  };
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${command} ${args.join(' ')} exited: ${output}`);
    if (await accepts(options.port)) return running;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await running.stop();
  throw new Error(`nothing listened on port ${options.port} within 60 s: ${output}`);
}

/** The body of a 200 answer to a GET of `url`. */
export async function text(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return response.text();
}

// --- internal ---

/** Ends the group `child` leads, and waits until its port is free for the next server. */
async function stopGroup(child: ChildProcess, exited: Promise<void>, port: number): Promise<void> {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    } catch {
      // Already gone.
    }
  }
  for (let waited = 0; waited < 10_000 && (await accepts(port)); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this test run, removed after it (`test/_global-setup.ts`). */
    courseRun: string;
  }
}
