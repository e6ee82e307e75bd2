import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployFile } from '../_readme.js';
import { buildApp, removeApp, ROOT, writeApp } from '../_utils.js';
import { serveOnWorkerd } from './_runtimes.js';

// README's Workers section: a route reaches the Worker's bindings through `cloudflare:workers`
// (`app.fetch` is given no `env`). README's Worker, bundled by wrangler, served by workerd with a
// `vars` binding.

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe("a Worker's bindings", () => {
  it('reach a controller through cloudflare:workers, as README says', async () => {
    const app = writeApp({
      'routes.ts': "import { Course } from 'course-router';\nCourse.get('/', 'Greeting@show');\n",
      'app/Components/Controller/Greeting.ts': `import { env, waitUntil } from 'cloudflare:workers';
export class Greeting {
  show() {
    waitUntil(Promise.resolve());
    return String(env.GREETING);
  }
}
`,
      'worker.ts': deployFile(README, 'worker.ts'),
      'wrangler.jsonc': deployFile(README, 'wrangler.jsonc').replace(
        '"compatibility_flags"',
        '"vars": { "GREETING": "hello from a binding" },\n  "compatibility_flags"',
      ),
    });
    try {
      await buildApp(app);
      const { port, stop } = await serveOnWorkerd(app);
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/`);
        expect([answer.status, await answer.text()]).toEqual([200, 'hello from a binding']);
      } finally {
        await stop();
      }
    } finally {
      removeApp(app);
    }
  }, 90_000);
});
