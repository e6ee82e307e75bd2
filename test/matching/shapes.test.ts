import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTable, removeApp, send, serve, type Served } from '../_utils.js';
import { ANCHORS, appsOf, buildShape, expectShape, SHAPES, type Shape } from './_apps.js';
import type { Expected } from './_case.js';
import { CASES } from './cases.js';

// Every case against every shape of the generated matcher, through both adapters (`send`).
const APPS = appsOf(CASES);

/**
 * Cases some shapes answer wrongly (every shape when `shapes` is left out), with the bug: they
 * run as `it.fails`, so that the fix turns them red until it removes them from here.
 */
const KNOWN: Record<string, { shapes?: string[]; bug: string }> = {};

describe.each(SHAPES)('$name', (shape: Shape) => {
  const built = new Map<string, { dir: string; code: string; served: Served }>();

  beforeAll(async () => {
    for (const [app, cases] of APPS) {
      const { dir, code } = await buildShape(cases, shape);
      built.set(app, { dir, code, served: await serve(await importTable(dir)) });
    }
  });

  afterAll(async () => {
    for (const { dir, served } of built.values()) {
      await served.close();
      removeApp(dir);
    }
  });

  it('is the shape it claims, in every app', async () => {
    expect([...built.keys()]).toEqual([...APPS.keys()]);
    for (const { code, served } of built.values()) {
      expectShape(code, shape);
      for (const target of ANCHORS) expect((await send(served, 'GET', target)).status).toBe(200);
    }
  });

  for (const c of CASES) {
    const known = KNOWN[c.name];
    const fails = known !== undefined && (known.shapes?.includes(shape.name) ?? true);
    (fails ? it.fails : it)(c.name, async () => {
      const served = built.get(c.app)!.served;
      const wrong: { request: string; expected: Answer; got: Answer }[] = [];
      for (const request of c.requests) {
        const got = await answerOf(served, request);
        const expected = { status: request.status, body: request.body, allow: request.allow };
        if (!same(got, expected)) wrong.push({ request: label(request), expected, got });
      }
      expect(wrong).toEqual([]);
    });
  }
});

type Answer = Pick<Expected, 'status' | 'body' | 'allow'>;

async function answerOf(served: Served, request: Expected): Promise<Answer> {
  const headers = request.host === undefined ? undefined : { host: request.host };
  const got = await send(served, request.method, request.target, { headers });
  return { status: got.status, body: got.body, allow: got.headers.allow };
}

function same(a: Answer, b: Answer): boolean {
  return a.status === b.status && a.body === b.body && a.allow === b.allow;
}

function label({ method, target, host }: Expected): string {
  return `${method} ${target}${host === undefined ? '' : ` (Host: ${host})`}`;
}
