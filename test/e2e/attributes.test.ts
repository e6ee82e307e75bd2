import { describe, expect, it } from 'vitest';
import { send, servedApp } from '../_utils.js';

// A middleware hands the route what it found with `request.setAttribute`; the route and any
// async code it starts read it with `request().getAttribute`.
const app = servedApp({
  'routes.ts': `import { Course, request } from 'course-router';
Course.group({ middleware: 'Middleware\\\\SignIn' }, () => {
  Course.get('/me', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { user: request().getAttribute('user') ?? null, trace: request().getAttribute('trace') ?? null };
  });
});
Course.get('/open', () => ({ user: request().getAttribute('user') ?? null }));
`,
  'app/Middleware/SignIn.ts': `import type { CourseRequest } from 'course-router';
declare module 'course-router' {
  interface RequestAttributes { user: { name: string }; trace: number }
}
export class SignIn {
  async handle(request: CourseRequest) {
    const name = request.getHeader('x-user');
    if (name === undefined) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 1));
    request.setAttribute('user', { name });
    request.setAttribute('trace', name.length);
    return undefined;
  }
}
`,
});

describe('request attributes', () => {
  it('a middleware hands the route a value, after awaits on both sides, over both adapters', async () => {
    const me = await send(app.served, 'GET', '/me', { headers: { 'x-user': 'ada' } });
    expect([me.status, JSON.parse(me.body)]).toEqual([200, { user: { name: 'ada' }, trace: 3 }]);
  });

  it('stay with their request: concurrent requests each read their own, a later one none', async () => {
    const names = ['ann', 'bob', 'cy', 'dee', 'eve', 'flo'];
    const answers = await Promise.all(
      names.map((name) => send(app.served, 'GET', '/me', { headers: { 'x-user': name } })),
    );
    expect(answers.map((answer) => JSON.parse(answer.body).user.name)).toEqual(names);
    const none = await send(app.served, 'GET', '/me');
    expect(JSON.parse(none.body)).toEqual({ user: null, trace: null });
    expect(JSON.parse((await send(app.served, 'GET', '/open')).body)).toEqual({ user: null });
  });
});
