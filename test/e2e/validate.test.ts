import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApp,
  importTable,
  removeApp,
  ROOT,
  send,
  serve,
  tsc,
  tsconfig,
  writeApp,
  type Served,
} from '../_utils.js';

// `validInput` with zod's schemas (a Standard Schema library), through both adapters: the body or
// the query checked, the schema's output typed for tsc, a 422 naming what is wrong.
const FILES = {
  'routes.ts': `
import { Course, input, validInput, ValidationException } from 'course-router';
import { z } from 'zod';

const NewUser = z.object({ name: z.string().min(1), age: z.number().int(), tags: z.array(z.string()).optional() });
const Page = z.object({ page: z.coerce.number().int().positive().default(1) });

Course.post('/users', async () => {
  const user = await validInput(NewUser);
  const age: number = user.age;
  // @ts-expect-error the schema has no email
  void user.email;
  return { name: user.name, next: age + 1, tags: user.tags ?? [], proto: Object.getPrototypeOf(input().post) === null };
});
Course.post('/record', async () => {
  const all = await validInput(z.record(z.string(), z.unknown()));
  return { keys: Object.keys(all), inherited: (all as { polluted?: unknown }).polluted ?? null, global: ({} as { polluted?: unknown }).polluted ?? null };
});
Course.get('/list', async () => ({ page: (await validInput(Page, 'get')).page }));
Course.post('/issues', async () => {
  try {
    await validInput(NewUser);
    return 'valid';
  } catch (error) {
    return error instanceof ValidationException ? { status: error.status, issues: error.issues } : 'other';
  }
});
`,
  'tsconfig.json': tsconfig(['*.ts', 'generated']),
};

let dir: string;
let served: Served;

beforeAll(async () => {
  dir = writeApp(FILES);
  symlinkSync(path.join(ROOT, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
  await buildApp(dir);
  served = await serve(await importTable(dir));
}, 60_000);

afterAll(async () => {
  await served?.close();
  if (dir) removeApp(dir);
});

const json = { 'content-type': 'application/json' };

describe('validInput()', () => {
  it("gives the schema's output for a valid body, of null-prototype fields", async () => {
    const answer = await send(served, 'POST', '/users', {
      headers: json,
      body: JSON.stringify({ name: 'Ada', age: 36, tags: ['math'], extra: 'dropped' }),
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      200,
      { name: 'Ada', next: 37, tags: ['math'], proto: true },
    ]);
    // A form's fields are checked alike.
    const form = await send(served, 'POST', '/issues', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada&age=36',
    });
    expect(JSON.parse(form.body).issues).toEqual([
      { path: 'age', message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('answers an invalid body with a 422 naming each field wrong', async () => {
    const answer = await send(served, 'POST', '/users', {
      headers: json,
      body: JSON.stringify({ name: '', age: 'old', tags: ['a', 5] }),
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toBe(
      'Invalid input: name: Too small: expected string to have >=1 characters; ' +
        'age: Invalid input: expected number, received string; ' +
        'tags.1: Invalid input: expected string, received number',
    );
    const empty = await send(served, 'POST', '/users');
    expect(empty.status).toBe(422);
    const issues = await send(served, 'POST', '/issues', { headers: json, body: '[1]' });
    expect(JSON.parse(issues.body)).toEqual({
      status: 422,
      issues: [{ path: '', message: 'Invalid input: expected object, received array' }],
    });
  });

  it('a __proto__ key reaches no prototype through the schema library either', async () => {
    const answer = await send(served, 'POST', '/record', {
      headers: json,
      body: '{"__proto__":{"polluted":1},"a":"x","constructor":{"prototype":{"polluted":2}}}',
    });
    expect(JSON.parse(answer.body)).toEqual({
      keys: ['a', 'constructor'],
      inherited: null,
      global: null,
    });
  });

  it('checks the query with "get", coercions and defaults as the schema says', async () => {
    expect((await send(served, 'GET', '/list?page=3')).body).toBe('{"page":3}');
    expect((await send(served, 'GET', '/list')).body).toBe('{"page":1}');
    expect((await send(served, 'GET', '/list?page=-1')).status).toBe(422);
  });

  it("types the schema's output for tsc", async () => {
    const { code, output } = await tsc(dir);
    expect(output).toBe('');
    expect(code).toBe(0);
    // A use the schema does not allow is an error.
    writeFileSync(
      path.join(dir, 'wrong.ts'),
      `import { validInput } from 'course-router';
import { z } from 'zod';
export async function read(): Promise<void> {
  const n: number = (await validInput(z.object({ name: z.string() }))).name;
  void n;
  await validInput(z.string());
  await validInput(z.array(z.string()), 'get');
  // Schemas an object of fields may pass.
  await validInput(z.union([z.object({ a: z.string() }), z.string()]));
  await validInput(z.unknown());
  await validInput(z.object({ a: z.string() }).or(z.null()));
  const bare = { '~standard': { version: 1, vendor: 'x', validate: (value: unknown) => ({ value }) } } as const;
  await validInput(bare);
  // A query's values are text: a number field refuses every query, a coerced one takes it.
  await validInput(z.object({ page: z.number(), q: z.string() }), 'get');
  await validInput(z.object({ page: z.number(), flags: z.array(z.boolean()).optional() }), 'get');
  const query = z.object({
    page: z.coerce.number(),
    sort: z.enum(['asc', 'desc']),
    tags: z.array(z.string()).optional(),
    filter: z.object({ name: z.string() }).optional(),
  });
  await validInput(query, 'get');
  await validInput(z.object({ page: z.number() }));
}
`,
    );
    const wrong = await tsc(dir);
    expect(wrong.output).toMatch(/wrong\.ts\(4,.*Type 'string' is not assignable to type 'number'/);
    // A schema of no object refuses every body and query: tsc says so.
    for (const line of [6, 7])
      expect(wrong.output).toMatch(new RegExp(`wrong\\.ts\\(${line},.*FieldsSchemaNeeded`));
    expect(wrong.output).toMatch(
      /wrong\.ts\(15,.*query values are text: page cannot be one \(z\.coerce\)/,
    );
    expect(wrong.output).toMatch(/wrong\.ts\(16,.*query values are text: page cannot be one/);
    expect(wrong.output).toMatch(/wrong\.ts\(16,.*query values are text: flags cannot be one/);
    expect(wrong.output.match(/error TS/g)).toHaveLength(5);
  }, 60_000);
});
