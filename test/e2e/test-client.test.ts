import { describe, expect, it } from 'vitest';
import { servedApp } from '../_utils.js';

const state = servedApp({
  'routes.ts': `
import { Course, request } from 'course-router';
Course.get('/user/{id}', (id: string) => ({ id, host: request().getHost() }));
Course.post('/echo', async () => new TextDecoder().decode(await request().body()));
`,
});

describe('app.request(): a test client with no server', () => {
  it('serves a relative path through the Fetch adapter', async () => {
    const answer = await state.served.app.request('/user/5?tab=1');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ id: '5', host: 'localhost' });
  });

  it('passes the init (method, headers, body) and a full URL’s host', async () => {
    const echo = await state.served.app.request('/echo', { method: 'POST', body: 'hi' });
    expect(await echo.text()).toBe('hi');
    const other = await state.served.app.request(new URL('https://api.example/user/1'));
    expect(await other.json()).toEqual({ id: '1', host: 'api.example' });
    expect((await state.served.app.request('/echo')).status).toBe(405);
  });
});
