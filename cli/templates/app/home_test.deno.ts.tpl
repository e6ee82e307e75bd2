import assert from 'node:assert/strict';
import { Course } from 'course-router';
import routes from '../generated/routes.gen.ts';

// `app.request()` serves a request as the server does, with no server or port.
const app = Course.start(routes);

Deno.test('GET /hello/{name} greets by name', async () => {
  const response = await app.request('/hello/ada');
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { greeting: 'Hello, ada!', self: '/hello/ada' });
});

Deno.test('a name the route does not take is a 404', async () => {
  const response = await app.request('/hello/Ada');
  await response.body?.cancel();
  assert.equal(response.status, 404);
});
