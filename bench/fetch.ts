import { pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { courseApp } from './http.js';
import { median, type RunOptions } from './lookup.js';

/** Microseconds per request of one Fetch-API handler, median of the rounds. */
export interface FetchResult {
  handler: string;
  micros: number;
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * `GET /user/42` handed as a `Request` to each Fetch-API handler in this process, as Bun, Deno
 * or `@hono/node-server` hand one, and the `Response`'s text read: Course's Fetch adapter, Hono's
 * `app.fetch`, and a bare handler that answers the one route by hand. Requests are made before
 * each timed batch; rounds alternate the handlers, and the median round counts.
 */
export async function runFetch(options: RunOptions): Promise<FetchResult[]> {
  const { Course } = await import('course-router');
  const table = (await import(
    pathToFileURL(await courseApp('fetch', '(id) => `hello ${id}`')).href
  )) as { default: Parameters<typeof Course.start>[0] };
  const hono = new Hono();
  hono.get('/user/:id', (c) => c.text(`hello ${c.req.param('id')}`));
  const handlers: [string, Handler][] = [
    ['bare Fetch handler', bare],
    ['course (Fetch adapter)', Course.start(table.default).fetch],
    ['hono', hono.fetch],
  ];
  for (const [name, handler] of handlers) {
    const response = await handler(new Request('http://127.0.0.1/user/42'));
    if (response.status !== 200 || (await response.text()) !== 'hello 42')
      throw new Error(`bench: ${name} did not answer GET /user/42`);
  }
  const batch = options.smoke ? 256 : 2048;
  const rounds = options.smoke ? 2 : 15;
  const samples = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, handler] of handlers) {
      const requests = Array.from(
        { length: batch },
        (_, i) => new Request(`http://127.0.0.1/user/${i}`),
      );
      const started = process.hrtime.bigint();
      for (const request of requests) await (await handler(request)).text();
      const micros = Number(process.hrtime.bigint() - started) / batch / 1000;
      samples.set(name, [...(samples.get(name) ?? []), micros]);
    }
  }
  // The first rounds run code not yet optimised.
  const kept = (list: number[]) => (options.smoke ? list : list.slice(3));
  return handlers.map(([name]) => ({ handler: name, micros: median(kept(samples.get(name)!)) }));
}

// --- internal ---

/** The one route by hand, with the headers Course sends: the floor of the Fetch API itself. */
function bare(request: Request): Response {
  const url = request.url;
  const body = `hello ${url.slice(url.indexOf('/user/') + 6)}`;
  return new Response(body, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
}
