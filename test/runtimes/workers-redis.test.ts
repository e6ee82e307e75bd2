import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deployFile } from '../_readme.js';
import { buildApp, removeApp, ROOT, writeApp } from '../_utils.js';
import { run } from '../_install.js';
import { bundleWorker, runtimeBinary } from './_runtimes.js';

// README's feature table: `RedisStore` on Workers is one error naming the runtime and the
// alternative. Here for real: README's Worker with the Redis store, bundled by wrangler, started
// by workerd, which stops at the error.

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
let dir: string | undefined;
afterAll(() => dir && removeApp(dir));

describe('Cloudflare Workers and course-router/redis', () => {
  it('the Worker stops at start with one error naming the alternative', async () => {
    const worker = deployFile(README, 'worker.ts')
      .replace(
        "import routes from './generated/routes.gen.ts';",
        "import { RedisStore } from 'course-router/redis';\nimport routes from './generated/routes.gen.js';",
      )
      .replace(
        'Course.start(routes)',
        "Course.start(routes, { store: new RedisStore({ url: 'redis://127.0.0.1:6379' }) })",
      );
    expect(worker).toContain('new RedisStore(');
    dir = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', () => 'home');\n",
      'worker.ts': worker,
      'wrangler.jsonc': deployFile(README, 'wrangler.jsonc'),
    });
    await buildApp(dir);
    await bundleWorker(dir);
    const failed = await run(runtimeBinary('workerd'), ['serve', 'workerd.capnp'], {
      cwd: dir,
      timeout: 30_000,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      'Uncaught Error: course: course-router/redis (RedisStore needs TCP connections to Redis) is not available on Cloudflare Workers: use the MemoryStore (limits per isolate), or a Store of your own over Workers KV or Durable Objects',
    );
  }, 60_000);
});
