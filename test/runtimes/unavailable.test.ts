import { afterEach, describe, expect, it, vi } from 'vitest';

// What Cloudflare Workers cannot offer is one line naming the runtime and what to use instead,
// when first used. The runtime is told by `navigator.userAgent`, as Workers set it; the
// bcrypt case runs for real on workerd in runtimes.test.ts.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('on Cloudflare Workers', () => {
  it('importing course-router/redis is one error: no TCP connections to Redis', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    await expect(import('course-router/redis')).rejects.toThrow(
      'course: course-router/redis (RedisStore needs TCP connections to Redis) is not available on Cloudflare Workers: use the MemoryStore (limits per isolate), or a Store of your own over Workers KV or Durable Objects',
    );
  });

  it('passHash() is one error naming the alternative', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    const { passHash } = await import('course-router');
    await expect(passHash('secret', 4)).rejects.toThrow(
      'course: passHash()/passVerify() (bcrypt on a worker thread) is not available on Cloudflare Workers',
    );
  });

  it('ServeStatic finds no file (a 404, as a missing one on Node), and says once to use static assets', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { openInside } = await import('../../runtime/features/static/files.js');
    expect(await openInside('fixtures', ['app', 'routes.ts'])).toBeUndefined();
    expect(await openInside('public', ['b.txt'])).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      [
        'course: ServeStatic reads no disk on Cloudflare Workers: every file it is asked for is a 404. Serve the folder as Workers static assets ("assets": { "directory": "./public" } in wrangler.jsonc), which answer before the Worker runs, at their path under that folder: files ServeStatic serves at /assets go in public/assets/',
      ],
    ]);
    warn.mockRestore();
  });

  it('elsewhere they work as usual', async () => {
    const { passHash, passVerify } = await import('course-router');
    expect(await passVerify('secret', await passHash('secret', 4))).toBe(true);
    const { RedisStore } = await import('course-router/redis');
    expect(typeof RedisStore).toBe('function');
    const { openInside } = await import('../../runtime/features/static/files.js');
    expect(await openInside('fixtures', ['no-such-file'])).toBeUndefined();
  });
});
