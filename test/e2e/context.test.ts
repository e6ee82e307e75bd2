import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from 'course-router';
import { send, servedApp } from '../_utils.js';

const errors: unknown[] = [];
const plain = servedApp(
  {
    'routes.ts': `import { Course, HttpException } from 'course-router';
import { shout } from './lib/words.js';
Course.get('/user/{id}', async (id: string) => { await new Promise((r) => setTimeout(r, 1)); return shout(id); });
Course.get('/home', 'Home@index');
Course.get('/teapot', () => { throw new HttpException(418); });
// A helper the build cannot see: the server put it there.
Course.get('/hidden', () => (globalThis as unknown as { hidden: () => unknown }).hidden());
`,
    'lib/words.ts': `export const shout = (word: string) => word.toUpperCase() + '!';`,
    'app/Components/Controller/Home.ts': `export class Home { index() { return { home: true }; } }`,
  },
  { onError: (error) => errors.push(error) },
);

describe('an app whose modules call no request helper', () => {
  it('is built to be served without a request context', () => {
    const code = readFileSync(path.join(plain.dir, 'generated/routes.gen.ts'), 'utf8');
    expect(code).toContain('usesContext: false');
  });

  it('answers as usual, after awaits, from controllers, with errors, over both adapters', async () => {
    // `send` asks both adapters, and checks that they agree.
    const user = await send(plain.served, 'GET', '/user/ann');
    expect([user.status, user.body]).toEqual([200, 'ANN!']);
    expect((await send(plain.served, 'GET', '/home')).body).toBe('{"home":true}');
    expect((await send(plain.served, 'GET', '/teapot')).status).toBe(418);
  });

  it('answers a helper called where the build cannot see it with a 500 that says why', async () => {
    (globalThis as unknown as { hidden: () => unknown }).hidden = () => request().path;
    expect(plain.served.app.table.usesContext).toBe(false);
    expect((await send(plain.served, 'GET', '/hidden')).status).toBe(500);
    expect(String(errors[0])).toMatch(
      /request\(\) is only available while a request is served: the build found no module of this app calling a request helper/,
    );
  });
});

const helped = servedApp({
  'routes.ts': `import { Course } from 'course-router';
import { where } from './lib/where.js';
Course.get('/where', async () => { await new Promise((r) => setTimeout(r, 1)); return where(); });
`,
  'lib/where.ts': `import { request } from 'course-router';\nexport const where = () => request().path;`,
});

describe('an app with a module that calls a request helper', () => {
  it('keeps the request context through awaits', async () => {
    const code = readFileSync(path.join(helped.dir, 'generated/routes.gen.ts'), 'utf8');
    expect(code).toContain('usesContext: true');
    expect((await send(helped.served, 'GET', '/where')).body).toBe('/where');
  });
});
