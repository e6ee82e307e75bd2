import { pathToFileURL } from 'node:url';
import { buildCourseApp, honoApp } from './http-apps.js';
import { expectAnswer, SCENARIOS, type Scenario } from './http-scenarios.js';
import { staticDir } from './http-static.js';
import { median, type RunOptions } from './lookup.js';
import { benchDir } from './temp.js';

/** CPU µs per request of one Fetch-API handler on one scenario, median of the rounds. */
export interface FetchResult {
  scenario: string;
  handler: 'course' | 'hono';
  micros: number;
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Every scenario handed as a `Request` to each Fetch-API handler in this process, as Bun, Deno
 * or `@hono/node-server` hand one, and the `Response`'s body read: Course's Fetch adapter and
 * Hono's `app.fetch`, on the same app. Each is first checked for the scenario's answer;
 * requests are made before each timed batch; rounds alternate the handlers; the first rounds
 * (code not yet optimised) are dropped and the median of the others counts.
 */
export async function runFetch(options: RunOptions & { only?: string }): Promise<FetchResult[]> {
  const scenarios = SCENARIOS.filter((s) => !options.only || s.name.includes(options.only));
  const { Course } = await import('course-router');
  const module = await buildCourseApp(benchDir('fetch-app'));
  const table = (await import(pathToFileURL(module).href)) as {
    default: Parameters<typeof Course.start>[0];
  };
  const handlers: [FetchResult['handler'], Handler][] = [
    ['course', Course.start(table.default).fetch],
    ['hono', honoApp(staticDir(module)).fetch],
  ];
  const batch = options.smoke ? 64 : 1024;
  const rounds = options.smoke ? 1 : 9;
  const results: FetchResult[] = [];
  for (const scenario of scenarios) {
    for (const [name, handler] of handlers) await check(name, handler, scenario);
    const samples = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < handlers.length; i++) {
        const [name, handler] = handlers[(i + round) % handlers.length]!;
        const requests = Array.from({ length: batch }, () => request(scenario));
        const before = process.cpuUsage();
        for (const r of requests) await (await handler(r)).arrayBuffer();
        const used = process.cpuUsage(before);
        samples.set(name, [...(samples.get(name) ?? []), (used.user + used.system) / batch]);
      }
    }
    const kept = (list: number[]) => (options.smoke ? list : list.slice(3));
    for (const [name] of handlers)
      results.push({
        scenario: scenario.name,
        handler: name,
        micros: median(kept(samples.get(name)!)),
      });
  }
  return results;
}

// --- internal ---

function request(scenario: Scenario): Request {
  return new Request(`http://127.0.0.1${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
}

async function check(name: string, handler: Handler, scenario: Scenario): Promise<void> {
  await expectAnswer(`${name}.fetch`, scenario, await handler(request(scenario)), false);
}
