import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildCourseApp } from './http-apps.js';
import { expectAnswer, SCENARIOS, type Scenario } from './http-scenarios.js';
import { median, type RunOptions } from './lookup.js';
import { benchDir } from './temp.js';

/** One server on one scenario: requests/s and server CPU per request, medians of the rounds. */
export interface HttpResult {
  scenario: string;
  server: Server;
  requestsPerSecond: number;
  /** The server process's CPU time per request, µs: steadier than requests/s on a busy machine. */
  cpuMicros: number;
  errors: number;
}

export const SERVERS = ['node', 'fastify', 'hono', 'course'] as const;
export type Server = (typeof SERVERS)[number];

const HERE = path.dirname(fileURLToPath(import.meta.url));
// Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux).
const TICKS = 100;

/**
 * Every scenario (`http-scenarios.ts`) against each server, each in its own process with
 * NODE_ENV=production, loaded by autocannon on 127.0.0.1 (10 connections). Each server is
 * first checked to answer every scenario with the expected status, type and body. Rounds
 * alternate the servers (each round starts with another); the first has a warm-up before each
 * measure. `only`: the scenarios whose names hold it.
 */
export async function runHttp(options: RunOptions & { only?: string }): Promise<HttpResult[]> {
  const scenarios = SCENARIOS.filter((s) => !options.only || s.name.includes(options.only));
  const table = await buildCourseApp(benchDir('http-app'));
  const servers = new Map<Server, { child: ChildProcess; port: number }>();
  try {
    for (const kind of SERVERS) servers.set(kind, await start(kind, table));
    for (const [kind, { port }] of servers)
      for (const scenario of scenarios) await check(kind, port, scenario);
    const rounds = options.smoke ? 1 : 3;
    const seconds = options.smoke ? 0.5 : 3;
    const samples = new Map<string, { rps: number[]; cpu: number[]; errors: number }>();
    for (let round = 0; round < rounds; round++) {
      for (const scenario of scenarios) {
        for (let i = 0; i < SERVERS.length; i++) {
          const kind = SERVERS[(i + round) % SERVERS.length]!;
          const { child, port } = servers.get(kind)!;
          if (round === 0 && !options.smoke) await load(port, scenario, 1);
          const before = cpuTicks(child.pid!);
          const result = await load(port, scenario, seconds);
          const cpu = ((cpuTicks(child.pid!) - before) / TICKS) * 1e6;
          const key = `${scenario.name}\0${kind}`;
          const entry = samples.get(key) ?? { rps: [], cpu: [], errors: 0 };
          entry.rps.push(result.requests.average);
          entry.cpu.push(cpu / Math.max(1, result.requests.total));
          entry.errors += result.errors + result.timeouts + unexpected(scenario, result);
          samples.set(key, entry);
        }
      }
      process.stderr.write(`bench: http round ${round + 1}/${rounds}\n`);
    }
    return scenarios.flatMap((scenario) =>
      SERVERS.map((server) => {
        const entry = samples.get(`${scenario.name}\0${server}`)!;
        return {
          scenario: scenario.name,
          server,
          requestsPerSecond: median(entry.rps),
          cpuMicros: median(entry.cpu),
          errors: entry.errors,
        };
      }),
    );
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
}

// --- internal ---

/** Starts one server in its own process, with NODE_ENV=production. */
export async function start(
  kind: Server,
  table: string,
): Promise<{ child: ChildProcess; port: number }> {
  const child = stoppedWithUs(
    spawn(
      process.execPath,
      ['--import', 'tsx', path.join(HERE, 'http-server.ts'), kind, '0', table],
      {
        cwd: path.join(HERE, '..'),
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${String(code)}`)));
    readyPort(child).then(resolve, reject);
  });
  return { child, port };
}

// The servers running, stopped with the benchmark when a signal ends it (a `finally` does not run
// then, and they would outlive it, loading the machine the next run measures).
const servers = new Set<ChildProcess>();

/** `child`, a server, stopped if a signal ends the benchmark first. */
export function stoppedWithUs(child: ChildProcess): ChildProcess {
  if (servers.size === 0)
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        for (const server of servers) server.kill();
        process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      });
  servers.add(child);
  child.once('exit', () => servers.delete(child));
  return child;
}

/** The port a `http-server.ts` child prints once it listens (`ready <port>`). */
export function readyPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const ready = /ready (\d+)/.exec(text);
      if (ready) resolve(Number(ready[1]));
    });
  });
}

/** Throws unless the server answers `scenario` with its status, type, header and body. */
export async function check(kind: string, port: number, scenario: Scenario): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
  await expectAnswer(kind, scenario, response, true);
}

/** Loads a server with `scenario` for `seconds` (autocannon, 10 connections). */
export function load(
  port: number,
  scenario: Scenario,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    method: scenario.method as autocannon.Request['method'],
    headers: scenario.headers,
    body: scenario.body,
    connections: 10,
    duration: seconds,
  });
}

/** The answers of another status than the scenario's. */
function unexpected(scenario: Scenario, result: autocannon.Result): number {
  if (scenario.status < 300) return result.non2xx;
  const stats = result.statusCodeStats as Record<string, { count: number } | undefined>;
  return result.non2xx - (stats[scenario.status]?.count ?? 0);
}

/** The user and system time a process has used so far, in clock ticks (/proc/<pid>/stat). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start at the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
