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
Course.get('/unreadable/proxy', () => { const revocable = Proxy.revocable({}, {}); revocable.revoke(); throw revocable.proxy; });
Course.get('/unreadable/message', () => {
  const error = new Error('x');
  Object.defineProperty(error, 'message', { get() { throw new Error('its getter'); } });
  throw error;
});
Course.group({ prefix: '/thrown', exceptionHandler: 'Handlers\\\\Inspect' }, () => {
  Course.get('/text', () => { throw 'a text'; });
  Course.get('/nothing', () => { throw undefined; });
  Course.get('/object', () => { throw { status: 402 }; });
});
`,
    'app/Handlers/Inspect.ts': `import type { CourseRequest, HandledError } from 'course-router';
export class Inspect {
  handleError(_request: CourseRequest, error: HandledError) {
    return { isError: error instanceof Error, message: error.message, status: error.status ?? null, cause: typeof error.cause };
  }
}
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

describe('a value thrown that is no Error', () => {
  it('reaches a handler as an Error of its text, the value its cause, as HandledError says', async () => {
    for (const [target, message, cause] of [
      ['/thrown/text', 'a text', 'string'],
      ['/thrown/nothing', 'undefined thrown', 'undefined'],
      ['/thrown/object', '[object Object] thrown', 'object'],
    ] as const) {
      const answer = await send(state.served, 'GET', target);
      expect(answer.status, target).toBe(200);
      expect(JSON.parse(answer.body), target).toEqual({
        isError: true,
        message,
        status: null,
        cause,
      });
    }
  });
});

describe('a value thrown that cannot even be read', () => {
  it('a revoked proxy, an Error whose message getter throws: a 500 from both adapters, no rejection', async () => {
    for (const target of ['/unreadable/proxy', '/unreadable/message']) {
      // `send` asks node:http and app.fetch; onError here reads `message`, which throws too.
      const answer = await send(state.served, 'GET', target);
      expect([answer.status, answer.body], target).toEqual([500, 'Internal Server Error']);
    }
  });
});
