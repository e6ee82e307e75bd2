import { fstatSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInside, streamOf, type OpenFile } from '../../runtime/features/static/files.js';

// The body of a streamed static file: a web byte stream reading the file's descriptor, which
// closes the file when the body ends, is cancelled (the client left), or fails (as when the file
// comes out shorter than when it was opened).
// Over node:http and through `app.fetch` alike: test/e2e/static.test.ts, pipelined.test.ts.
const root = mkdtempSync(path.join(os.tmpdir(), 'course-file-body-'));
const BYTES = new Uint8Array(300 * 1024).map((_, i) => (i * 7) % 251);
writeFileSync(path.join(root, 'big.bin'), BYTES);
mkdirSync(path.join(root, 'folder'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function open(name = 'big.bin'): Promise<OpenFile> {
  const file = await openInside(root, [name]);
  if (file === undefined) throw new Error(`${name} did not open`);
  return file;
}

/** Whether `file`'s descriptor is still the file (a closed number may be reused by another). */
function isOpen(file: OpenFile): boolean {
  try {
    return fstatSync(file.fd).ino === file.stats.ino;
  } catch {
    return false;
  }
}

/** A folder's descriptor, which fails to be read as a file (EISDIR). */
async function unreadable(): Promise<OpenFile> {
  return open('folder');
}

describe('the stream of a file', () => {
  it('gives the bytes of its range, and closes the file at the end', async () => {
    const file = await open();
    const body = new Uint8Array(await new Response(streamOf(file, 1000, 200_000)).arrayBuffer());
    expect(Buffer.compare(body, BYTES.subarray(1000, 200_001))).toBe(0);
    expect(isOpen(file)).toBe(false);
  });

  it('closes the file when cancelled after its first chunk (the client left)', async () => {
    const file = await open();
    const reader = streamOf(file, 0, BYTES.length - 1).getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    expect(isOpen(file)).toBe(true);
    await reader.cancel();
    expect(isOpen(file)).toBe(false);
  });

  it('fails when the file was cut shorter since it was opened: the answer must not look whole', async () => {
    writeFileSync(path.join(root, 'shrinks.bin'), BYTES);
    const file = await open('shrinks.bin');
    truncateSync(path.join(root, 'shrinks.bin'), 5000);
    const reader = streamOf(file, 0, BYTES.length - 1).getReader();
    let got = 0;
    const failed = await (async () => {
      for (;;) {
        const next = await reader.read();
        if (next.done) return undefined;
        got += next.value.length;
      }
    })().catch((error: unknown) => error);
    expect(String(failed)).toMatch(/shrinks\.bin was cut shorter while served/);
    expect(got).toBe(5000);
    expect(isOpen(file)).toBe(false);
  });

  it('fails when the file cannot be read, and closes it', async () => {
    const folder = await unreadable();
    await expect(new Response(streamOf(folder, 0, 99)).arrayBuffer()).rejects.toThrow(/EISDIR/);
    expect(isOpen(folder)).toBe(false);
  });
});
