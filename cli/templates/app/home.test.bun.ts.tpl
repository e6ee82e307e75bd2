import { expect, test } from 'bun:test';
import { Course } from 'course-router';
import routes from '../generated/routes.gen.ts';

// `app.request()` serves a request as the server does, with no server or port.
const app = Course.start(routes);

test('GET /hello/{name} greets by name', async () => {
  const response = await app.request('/hello/ada');
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ greeting: 'Hello, ada!', self: '/hello/ada' });
});

test('a name the route does not take is a 404', async () => {
  expect((await app.request('/hello/Ada')).status).toBe(404);
});
