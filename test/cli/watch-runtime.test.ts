import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../_redis.js';
import { CLI, removeApp, runCli, writeApp } from '../_utils.js';

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

describe('course watch --serve on Node, stopped as a terminal stops it', () => {
  it('Ctrl-C (SIGINT to the whole group) lets the server finish its requests, and exits 0', async () => {
    const dir = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n",
      'server.ts': `import { createServer } from 'node:http';
const server = createServer((_, res) => setTimeout(() => res.end('slow'), 800));
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.log('closing on ' + signal);
    server.close(() => process.exit(0));
  });
`,
    });
    apps.push(dir);
    const port = await freePort();
    // Its own process group, as a terminal's foreground job is: the signal goes to all of it.
    const watcher = spawn(process.execPath, [CLI, 'watch', '--serve', 'server.ts'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    watcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    watcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => watcher.once('exit', resolve));
    await vi.waitFor(() => expect(output).toContain('listening'), { timeout: 30_000 });
    const slow = fetch(`http://127.0.0.1:${port}/`).then((answer) => answer.text());
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(-watcher.pid!, 'SIGINT');
    expect(await slow).toBe('slow');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/Force killing|Killing process/);
    expect(output.match(/closing on/g)).toHaveLength(1);
  }, 60_000);
});
