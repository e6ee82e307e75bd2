import { fstatSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { fileResponse, nodeBodyOf } from '../../runtime/features/static/file-response.js';
import { openInside, type OpenFile } from '../../runtime/features/static/files.js';

// The body of a streamed static file, read either way: as a web stream (`app.fetch`, the
// compressor) or taken by the node:http adapter as a node: stream. Whichever reads it, the file
// is closed when the body ends, is cancelled, comes out shorter, or fails.
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

/** Once `stream` has closed (its file closed with it). */
function closed(stream: Readable): Promise<unknown> {
  return stream.closed
    ? Promise.resolve()
    : new Promise((resolve) => stream.once('close', resolve));
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('a file response read as a web stream', () => {
  it('gives the bytes of its range, and closes the file at the end', async () => {
    const file = await open();
    const response = fileResponse(file, 1000, 200_000, { status: 206 });
    expect(response.status).toBe(206);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.compare(body, BYTES.subarray(1000, 200_001))).toBe(0);
    expect(isOpen(file)).toBe(false);
  });

  it('closes the file when cancelled after its first chunk (the client left)', async () => {
    const file = await open();
    const reader = fileResponse(file, 0, BYTES.length - 1, {}).body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    expect(isOpen(file)).toBe(true);
    await reader.cancel();
    expect(isOpen(file)).toBe(false);
  });

  it('ends with the bytes there are when the file was cut shorter since it was opened', async () => {
    writeFileSync(path.join(root, 'shrinks.bin'), BYTES);
    const file = await open('shrinks.bin');
    truncateSync(path.join(root, 'shrinks.bin'), 5000);
    const body = new Uint8Array(await fileResponse(file, 0, BYTES.length - 1, {}).arrayBuffer());
    expect(Buffer.compare(body, BYTES.subarray(0, 5000))).toBe(0);
    expect(isOpen(file)).toBe(false);
  });

  it('fails when the file cannot be read, and closes it', async () => {
    const folder = await unreadable();
    await expect(fileResponse(folder, 0, 99, {}).arrayBuffer()).rejects.toThrow(/EISDIR/);
    expect(isOpen(folder)).toBe(false);
  });
});

describe('a file response taken by the node:http adapter', () => {
  it('is a node: stream of the range, which closes the file; taken once, only from its own', async () => {
    const file = await open();
    const response = fileResponse(file, 10, BYTES.length - 1, {});
    const stream = nodeBodyOf(response)!;
    expect(nodeBodyOf(response)).toBeUndefined();
    expect(nodeBodyOf(new Response('x'))).toBeUndefined();
    expect(Buffer.compare(await drain(stream), BYTES.subarray(10))).toBe(0);
    await closed(stream);
    expect(isOpen(file)).toBe(false);
  });

  it('closes the file when destroyed unread (the connection went)', async () => {
    const file = await open();
    const stream = nodeBodyOf(fileResponse(file, 0, BYTES.length - 1, {}))!;
    stream.destroy();
    await closed(stream);
    expect(isOpen(file)).toBe(false);
  });

  it('is not taken once its web stream was read from or cancelled: that stream keeps it', async () => {
    const file = await open();
    const response = fileResponse(file, 0, BYTES.length - 1, {});
    const reader = response.body!.getReader();
    await reader.read();
    expect(nodeBodyOf(response)).toBeUndefined();
    await reader.cancel();
    const other = await open();
    const cancelled = fileResponse(other, 0, 99, {});
    await cancelled.body!.cancel();
    expect(nodeBodyOf(cancelled)).toBeUndefined();
    expect(isOpen(other)).toBe(false);
  });

  it('fails when the file cannot be read, and closes it', async () => {
    const folder = await unreadable();
    const stream = nodeBodyOf(fileResponse(folder, 0, 99, {}))!;
    await expect(drain(stream)).rejects.toThrow(/EISDIR/);
    await closed(stream);
    expect(isOpen(folder)).toBe(false);
  });
});
