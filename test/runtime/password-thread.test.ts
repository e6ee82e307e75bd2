import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../runtime/features/password.js';
import { ROOT } from '../_utils.js';

describe('passwords hash in worker threads', () => {
  it('the event loop keeps ticking every 5 ms while a cost-12 hash runs', async () => {
    await hashPassword('warm', 4);
    const gaps: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 5);
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const hash = await hashPassword('secret', 12);
    const took = performance.now() - started;
    const busy = performance.eventLoopUtilization(before).utilization;
    clearInterval(timer);
    expect(hash).toMatch(/^\$2y\$12\$/);
    // bcryptjs on the main thread, even in its async mode, holds the loop ~100 ms at a time: the
    // loop is then busy nearly all the hash long. In a worker, the loop is idle but for the
    // ticks. A loaded machine delays ticks (a process waits for a core), not the loop's work:
    // the loop's busy share tells the two apart where gaps between ticks cannot.
    const figures = `${gaps.length} ticks in ${took.toFixed(0)} ms, worst ${Math.max(...gaps).toFixed(1)} ms, loop busy ${(busy * 100).toFixed(0)}%`;
    expect(busy, figures).toBeLessThan(0.5);
    expect(gaps.length, figures).toBeGreaterThan(0);
  });

  it('concurrent hashes each come back to their own caller', async () => {
    const passwords = Array.from({ length: 12 }, (_, i) => `password-${i}`);
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p, 4)));
    const checks = await Promise.all(
      passwords.flatMap((p, i) => [
        verifyPassword(p, hashes[i]!),
        verifyPassword(p, hashes[(i + 1) % hashes.length]!),
      ]),
    );
    expect(checks).toEqual(passwords.flatMap(() => [true, false]));
  });

  it('a script that hashes at its top level prints the hash and ends on its own', async () => {
    const password = pathToFileURL(path.join(ROOT, 'runtime/dist/index.js')).href;
    const script = `const { passHash, passVerify } = await import(${JSON.stringify(password)});
const hash = await passHash('secret', 10);
console.log(hash, await passVerify('secret', hash));`;
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ['--input-type=module', '-e', script],
          { timeout: 20_000 },
          (_error, stdout) => resolve({ code: child.exitCode, stdout }),
        );
      },
    );
    // Held open while hashing (an exit before would be code 13, an unsettled top-level await),
    // and not after: the timeout would kill it.
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\$2y\$10\$[./A-Za-z0-9]{53} true\n$/);
  });
});
