import { describe, expect, it } from 'vitest';
import { rawExchange } from '../_child.js';
import { send, servedApp } from '../_utils.js';

// An exception handler that answers an error as JSON, as the README's `ApiHandler` does: the
// router's own headers of that error (a 405's `Allow`, a refused body's `Connection: close`) and
// the CORS headers of the request's route still reach the client, through both adapters.
const state = servedApp(
  {
    'routes.ts': `
import { Course } from 'course-router';
Course.group(
  { prefix: '/api', middleware: 'Middleware\\\\ApiCors', exceptionHandler: 'Handlers\\\\JsonErrors' },
  () => {
    Course.post('/notes', () => 'created');
  },
);
`,
    'app/Middleware/ApiCors.ts': `
import { Cors } from 'course-router';
export class ApiCors extends Cors {
  protected override origins = ['https://app.example'];
}`,
    'app/Handlers/JsonErrors.ts': `
import { response, type CourseRequest, type ExceptionHandler } from 'course-router';
export class JsonErrors implements ExceptionHandler {
  handleError(_request: CourseRequest, error: Error & { status?: number }) {
    const code = error.status ?? 500;
    return response().httpCode(code).json({ error: error.message, code });
  }
}`,
  },
  { bodyLimit: 1024 },
);

const ORIGIN = { origin: 'https://app.example' };

describe("a handler's answer to an error", () => {
  it("a 405 keeps Allow and the route's CORS headers", async () => {
    const answer = await send(state.served, 'GET', '/api/notes', { headers: ORIGIN });
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 405 });
    expect(answer.headers['allow']).toBe('POST');
    const fetched = await state.served.app.request('/api/notes', { headers: ORIGIN });
    expect(fetched.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('a malformed JSON body is answered with the CORS headers', async () => {
    const fetched = await state.served.app.request('/api/notes', {
      method: 'POST',
      headers: { ...ORIGIN, 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(fetched.status).toBe(400);
    expect(await fetched.json()).toEqual({ error: 'Malformed JSON body', code: 400 });
    expect(fetched.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('a 413 closes its connection, the handler sets no Connection header itself', async () => {
    const port = Number(new URL(state.served.base).port);
    const body = `{"a":"${'x'.repeat(4096)}"}`;
    const answer = await rawExchange(
      port,
      [
        `POST /api/notes HTTP/1.1\r\nHost: localhost\r\nOrigin: https://app.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        'GET /api/notes HTTP/1.1\r\nHost: localhost\r\n\r\n',
      ],
      { keepOpen: true },
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer.text).toMatch(/\r\naccess-control-allow-origin: https:\/\/app\.example\r\n/i);
    // The request sent after the refused body is not served.
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
  });
});
