import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { send, servedApp } from '../_utils.js';

// A ServeStatic root that is not there (a URL relative to `import.meta.url`, once compiled into
// dist/, for one) answers 404 for every file: the first request says so, once, naming the folder.
const base = mkdtempSync(path.join(os.tmpdir(), 'course-static-missing-'));
const root = path.join(base, 'public');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const state = servedApp({
  'routes.ts': `
import { Course } from 'course-router';
Course.get('/assets/{path?}', () => null).where('path', '.*').addMiddleware('Middleware\\\\Assets');
`,
  'app/Middleware/Assets.ts': `
import { ServeStatic } from 'course-router';
export class Assets extends ServeStatic {
  protected override root = ${JSON.stringify(root)};
}`,
});

describe('ServeStatic with a root that does not exist', () => {
  it('answers 404, warns once naming the folder, and serves it once it is there', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const file of ['hello.txt', 'other.txt', 'hello.txt'])
        expect((await send(state.served, 'GET', `/assets/${file}`)).status).toBe(404);
      expect(warn.mock.calls).toEqual([
        [
          `course: ServeStatic's root ${root} does not exist (a relative root is resolved from the working directory): every file under it is a 404`,
        ],
      ]);
      mkdirSync(root);
      writeFileSync(path.join(root, 'hello.txt'), 'hello');
      expect(await send(state.served, 'GET', '/assets/hello.txt')).toMatchObject({
        status: 200,
        body: 'hello',
      });
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});
