import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../_utils.js';

const PORT = 3000 + Math.floor(Math.random() * 2000) + 1000;
let server: ChildProcess;

beforeAll(async () => {
  server = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'fixtures/app/server.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(PORT) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Course demo on')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`demo server exited with ${String(code)}`)));
  });
});

afterAll(() => {
  server?.kill();
});

describe('the demo app (npm start)', () => {
  it('serves its pages on 127.0.0.1', async () => {
    const home = await fetch(`http://127.0.0.1:${PORT}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Course demo');
    const user = await fetch(`http://127.0.0.1:${PORT}/user/5`);
    expect(await user.json()).toEqual({ id: 5, profile: '/user/5' });
    expect((await fetch(`http://127.0.0.1:${PORT}/admin`)).status).toBe(403);
    const admin = await fetch(`http://127.0.0.1:${PORT}/admin`, { headers: { 'x-role': 'admin' } });
    expect(await admin.text()).toBe('Admin dashboard');
  });
});
