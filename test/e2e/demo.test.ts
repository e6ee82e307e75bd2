import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../_redis.js';
import { ROOT } from '../_utils.js';

let PORT = 0;
let server: ChildProcess;

beforeAll(async () => {
  PORT = await freePort();
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

const at = (target: string, init?: RequestInit) =>
  fetch(`http://127.0.0.1:${PORT}${target}`, { redirect: 'manual', ...init });

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

  it('shows a resource, an implicit controller and a domain group', async () => {
    expect(await (await at('/photos/1')).json()).toEqual({ id: 1, title: 'harbour' });
    const unprotected = await at('/photos/1', { method: 'DELETE' });
    expect([unprotected.status, await unprotected.text()]).toEqual([
      403,
      '<h1>Form expired</h1><p>Reload the page and send it again.</p>',
    ]);
    expect(await (await at('/animals/view/dog')).text()).toBe('Looking at the dog');
    const account = await httpGet('/dashboard', 'acme.localhost');
    expect(account).toBe('Dashboard of acme');
  });

  it('answers a custom 404 page, and JSON errors under /api', async () => {
    const missing = await at('/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Not here');
    const api = await at('/api/photos/x');
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'Not Found', code: 404 });
  });

  it('protects its form with a CSRF token', async () => {
    const page = await at('/contact');
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const token = /name="csrf_token" value="([\w-]+)"/.exec(await page.text())![1]!;
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    const refused = await at('/contact', { method: 'POST', headers, body: 'message=hi' });
    expect(refused.status).toBe(403);
    const sent = await at('/contact', {
      method: 'POST',
      headers,
      body: `message=hi&csrf_token=${token}`,
    });
    expect(await sent.text()).toBe('Thanks for your message.');
  });
});

function httpGet(target: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: PORT, path: target, headers: { host } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
}
