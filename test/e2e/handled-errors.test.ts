import { describe, expect, it } from 'vitest';
import { send, servedApp } from '../_utils.js';

// An exception handler that answers an error with a 5xx still leaves it to `onError` (the log):
// a server error never goes unreported because a handler dressed it as JSON.
const reported: string[] = [];
const state = servedApp(
  {
    'routes.ts': `import { Course, HttpException } from 'course-router';
Course.group({ prefix: '/api', exceptionHandler: 'Handlers\\\\ApiHandler' }, () => {
  Course.get('/broken', () => { throw new Error('the database password is wrong'); });
  Course.get('/teapot', () => { throw new HttpException(418, "I'm a teapot"); });
  Course.get('/busy', () => { throw new HttpException(503, 'busy'); });
});
`,
    'app/Handlers/ApiHandler.ts': `import { response, type CourseRequest } from 'course-router';
export class ApiHandler {
  handleError(request: CourseRequest, error: Error & { status?: number }) {
    const code = error.status ?? 500;
    return response().httpCode(code).json({ error: code >= 500 ? 'Server Error' : error.message });
  }
}
`,
  },
  { onError: (error) => reported.push((error as Error).message) },
);

describe('errors an exception handler answers', () => {
  it('a 5xx it gives reaches onError with the error; a 4xx does not', async () => {
    // `send` asks both adapters: each reports once.
    const broken = await send(state.served, 'GET', '/api/broken');
    expect([broken.status, broken.body]).toEqual([500, '{"error":"Server Error"}']);
    expect(reported).toEqual(['the database password is wrong', 'the database password is wrong']);
    reported.length = 0;
    expect((await send(state.served, 'GET', '/api/teapot')).status).toBe(418);
    expect(reported).toEqual([]);
    expect((await send(state.served, 'GET', '/api/busy')).status).toBe(503);
    expect(reported).toEqual(['busy', 'busy']);
  });
});
