import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Course, type RouteTable } from 'course-router';
import { buildApp, importTable, removeApp, writeApp } from '../_utils.js';

// A production server signing with a key of its own (no `secret`, no COURSE_SECRET) is told so
// once, when it first signs: its CSRF tokens and signed cookies would not outlive it.
const FILES = {
  'routes.ts': `
import { Course, csrfToken } from 'course-router';
Course.get('/token', () => csrfToken());
Course.get('/plain', () => 'plain');
`,
};

let dir: string;
let table: RouteTable;
const env = { node: process.env['NODE_ENV'], secret: process.env['COURSE_SECRET'] };

beforeAll(async () => {
  dir = writeApp(FILES);
  await buildApp(dir);
  table = await importTable(dir);
  process.env['NODE_ENV'] = 'production';
  delete process.env['COURSE_SECRET'];
});

afterAll(() => {
  if (env.node === undefined) delete process.env['NODE_ENV'];
  else process.env['NODE_ENV'] = env.node;
  if (env.secret !== undefined) process.env['COURSE_SECRET'] = env.secret;
  removeApp(dir);
});

const get = async (app: ReturnType<typeof Course.start>, path: string) =>
  (await app.fetch(new Request(`http://localhost${path}`))).status;

describe('a production server with no secret', () => {
  it('is warned once, when it first signs; not with a secret, nor before it signs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const configured = Course.start(table, { secret: 'a key' });
      expect(await get(configured, '/token')).toBe(200);
      const app = Course.start(table);
      expect(await get(app, '/plain')).toBe(200);
      expect(warn).not.toHaveBeenCalled();
      expect([await get(app, '/token'), await get(app, '/token')]).toEqual([200, 200]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/no secret .*COURSE_SECRET.*restarts/);
    } finally {
      warn.mockRestore();
    }
  });
});
