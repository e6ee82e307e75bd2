import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeApp, runCli, writeApp } from '../_utils.js';

const apps: string[] = [];
afterAll(() => apps.forEach(removeApp));

describe('course watch --serve --runtime with the runtime missing', () => {
  it('says so before building anything, and exits 1', async () => {
    const dir = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n",
      'server.ts': '',
    });
    apps.push(dir);
    const result = await runCli(['watch', '--serve', 'server.ts', '--runtime', 'deno'], dir, {
      PATH: path.dirname(process.execPath),
    });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'deno not found on PATH, needed by --runtime deno: npm install --save-dev deno, or see https://deno.com\n',
    });
    expect(existsSync(path.join(dir, 'generated'))).toBe(false);
  });
});
