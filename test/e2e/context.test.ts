import { describe, expect, it } from 'vitest';
import { HttpException, request } from 'course-router';
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

describe('an app whose modules import no request helper', () => {
  it('answers as usual, after awaits, from controllers, with errors, over both adapters', async () => {
    // `send` asks both adapters, and checks that they agree.
    const user = await send(plain.served, 'GET', '/user/ann');
    expect([user.status, user.body]).toEqual([200, 'ANN!']);
    expect((await send(plain.served, 'GET', '/home')).body).toBe('{"home":true}');
    expect((await send(plain.served, 'GET', '/teapot')).status).toBe(418);
  });

  it('regression: a helper reached where no import shows it still sees its request, after an await', async () => {
    (globalThis as unknown as { hidden: () => unknown }).hidden = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return request().path;
    };
    expect(await send(plain.served, 'GET', '/hidden')).toMatchObject({
      status: 200,
      body: '/hidden',
    });
    expect(errors).toEqual([]);
  });

  /**
   * Serves `/hidden` as `answer` (what the route returns or throws, after it scheduled a helper
   * call for 20 ms later), checks the answer's status and that the later call found no request; gives the answer's body.
   */
  async function helperCalledLater(answer: () => unknown, status: number): Promise<string> {
    const later: string[] = [];
    (globalThis as unknown as { hidden: () => unknown }).hidden = () => {
      setTimeout(() => {
        try {
          later.push(request().path);
        } catch (error) {
          later.push((error as Error).message);
        }
      }, 20);
      return answer();
    };
    const served = await send(plain.served, 'GET', '/hidden');
    expect(served.status).toBe(status);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(later.length).toBeGreaterThan(0);
    for (const message of later)
      expect(message).toBe('course: request() is only available while a request is served');
    return served.body;
  }

  it('lets the request go once it is answered: a helper called later finds none', async () => {
    expect(await helperCalledLater(() => request().path, 200)).toBe('/hidden');
  });

  it('lets it go too when the route throws and the error is answered', async () => {
    await helperCalledLater(() => {
      throw new HttpException(418);
    }, 418);
  });
});

const helped = servedApp({
  'routes.ts': `import { Course } from 'course-router';
import { where } from './lib/where.js';
Course.get('/where', async () => { await new Promise((r) => setTimeout(r, 1)); return where(); });
`,
  'lib/where.ts': `import { HttpException, request } from 'course-router';\nexport const where = () => request().path;`,
});

describe('an app with a module that calls a request helper', () => {
  it('keeps the request context through awaits', async () => {
    expect((await send(helped.served, 'GET', '/where')).body).toBe('/where');
  });
});
