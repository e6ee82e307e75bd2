import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeApp, tsc, tsconfig, writeApp } from '../_utils.js';

// tsc over route files as users write them, in one run: each line marked `@ts-expect-error` must
// be an error (an unused mark is one too, TS2578), and every other line must type-check.

const HEAD = "import { Course } from 'course-router';\n";
const FILES: Record<string, string> = {
  'verbs.ts':
    HEAD +
    `
Course.get('/posts/{id}', (id) => id.toUpperCase());
Course.post('/posts/{id}', (id) => id.trim());
Course.put('/posts/{id}', (id) => id.trim());
Course.patch('/posts/{id}', (id) => id.trim());
Course.delete('/posts/{id}', (id) => id.trim());
Course.options('/posts/{id}', (id) => id.trim());
Course.any('/posts/{id}', (id) => id.trim());
Course.all('/posts/{id}', (id) => id.trim());
Course.form('/posts/{id}', (id) => id.trim());
Course.match(['get', 'post'], '/posts/{id}', (id) => id.trim());
Course.match(['GET', 'PURGE'], '/posts/{id}', (id) => id.trim());
// @ts-expect-error a misspelt verb
Course.match(['gte', 'post'], '/posts/{id}', (id) => id.trim());
Course.get('/a/{a}/b/{b?}/{c}', (a, b, c) => {
  const x: string = a;
  const y: string | undefined = b;
  const z: string = c;
  // @ts-expect-error an optional parameter may be undefined
  const w: string = b;
  return [x, y, z, w];
});
// @ts-expect-error an optional parameter used as a string
Course.get('/archive/{year?}', (year) => year.trim());
Course.get('/archive/{year?}', (year = '2024') => year.trim());
`,
  'strings.ts':
    HEAD +
    `
// @ts-expect-error route parameters arrive as strings
Course.get('/n/{id}', (id: number) => id + 1);
// @ts-expect-error route parameters arrive as strings
Course.get('/n/{id}/{page?}', (id: string, page: number) => id + page);
// @ts-expect-error a Date is not a string either
Course.post('/n/{id}', (id: Date) => id);
Course.get('/n/{id}', () => 'no parameters');
Course.get('/n/{id}/{slug}', (id) => id);
Course.get('/n/{id}/{slug}', (...all) => all.join());
Course.get('/n/{id}/{slug}', (...all: string[]) => all.join());
Course.get('/n/{id}', (id: unknown) => String(id));
Course.get('/n/{id?}', (id?: string) => id ?? 'none');
`,
  'groups.ts':
    HEAD +
    `
Course.group({ prefix: '/g/{gid}' }, () => {
  // The closure receives gid, then id: the call sees only id.
  Course.get('/posts/{id}', (gid, id) => gid.trim() + id.trim());
  Course.get('/posts/{id?}', (gid: string, id?: string) => gid.trim() + (id ?? ''));
});
Course.group({ domain: '{account}.example.com', prefix: '/{team}' }, () => {
  Course.get('/p/{id}', (account, team, id) => account + team + id.trim());
});
`,
  'nonliteral.ts':
    HEAD +
    `
const url: string = '/x/{a}/{b?}';
Course.get(url, (a, b) => a.trim() + b.trim());
Course.get(\`/t/\${url}\`, (a: string) => a);
`,
  'tuples.ts':
    HEAD +
    `import { Users } from './app/Users.js';
Course.get('/u/{id}', [Users, 'show']);
Course.match(['get'], '/u/{id}', [Users, 'show'] as const);
// @ts-expect-error Users has no method nope
Course.get('/u/{id}', [Users, 'nope']);
// @ts-expect-error count is a property, not a method
Course.get('/u/{id}', [Users, 'count']);
Course.get('/u/{id}', 'Users@show');
`,
  'messages.ts':
    HEAD +
    `import { Users } from './app/Users.js';
Course.get('/n/{id}', (id: number) => id);
Course.get('/u/{id}', [Users, 'nope']);
`,
};

let dir: string;
let output: string;

beforeAll(async () => {
  dir = writeApp({
    'tsconfig.json': tsconfig(['*.ts', 'app']),
    'app/Users.ts': `export class Users {
  count = 3;
  show(id: string): string {
    return id;
  }
}
`,
    ...FILES,
  });
  output = (await tsc(dir)).output;
});

afterAll(() => removeApp(dir));

/** tsc's messages about one file. */
function errorsIn(file: string): string {
  return output
    .split(/\n(?=\S)/)
    .filter((m) => m.includes(`${file}(`))
    .join('\n');
}

describe("a closure's parameters are typed from its URL literal", () => {
  it('types {x} as string and {x?} as string | undefined, in order, for every verb', () => {
    const result = errorsIn('verbs.ts');
    expect(result).toBe('');
  });

  it('refuses a parameter that cannot take a string; accepts fewer, a rest and unknown', () => {
    const result = errorsIn('strings.ts');
    expect(result).toBe('');
  });

  it('leaves room for what a group adds before the route: its parameters are strings', () => {
    const result = errorsIn('groups.ts');
    expect(result).toBe('');
  });

  it('falls back to strings when the URL is not a literal', () => {
    const result = errorsIn('nonliteral.ts');
    expect(result).toBe('');
  });
});

describe("[Class, 'method'] names a method of the class", () => {
  it('accepts a method and refuses another name or a property', () => {
    const result = errorsIn('tuples.ts');
    expect(result).toBe('');
  });

  it("names the mismatch in tsc's message, and no other file has an error", () => {
    const result = errorsIn('messages.ts');
    expect(output.match(/error TS/g)).toHaveLength(2);
    expect(result).toMatch(
      /messages\.ts\(3,23\): error TS2345:[\s\S]*?Type 'string' is not assignable to type 'number'/,
    );
    expect(result).toMatch(
      /messages\.ts\(4,23\): error TS2345:[\s\S]*?Type '"nope"' is not assignable to type '"show"'/,
    );
  });
});
