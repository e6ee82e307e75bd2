import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readNodeBody } from '../../runtime/http/body.js';

// A Content-Length node:http's own parser never lets through, as node:http2's compatibility
// layer can hand it over: refused, and the budget of bodies held (`bodyMemoryLimit`) unharmed.
describe('readNodeBody and a malformed Content-Length', () => {
  it('is a 400, and the bodies after it are still held to the budget', async () => {
    const request = (length: string) => {
      const req = new IncomingMessage(new Socket());
      req.headers = { 'content-length': length };
      return req;
    };
    for (const length of ['abc', '-1', '1e3', '0x10', ' '])
      await expect(readNodeBody(request(length), 1000, 100), length).rejects.toMatchObject({
        status: 400,
        message: 'Malformed Content-Length',
      });
    // Within the limit but past the budget as its bytes come: a 503, which a NaN held before it
    // would have let by.
    const over = request('500');
    const read = readNodeBody(over, 1000, 100);
    over.push(Buffer.alloc(500));
    await expect(read).rejects.toMatchObject({ status: 503 });
  });
});

describe('readNodeBody and the budget of bodies held', () => {
  it('holds the bytes that came, not the length declared: bodies that send nothing hold nothing', async () => {
    const request = (length: number) => {
      const req = new IncomingMessage(new Socket());
      req.headers = { 'content-length': String(length) };
      return req;
    };
    // Two bodies declaring 90 bytes each of a budget of 100, and sending 10 each.
    const idle = [request(90), request(90)];
    const waiting = idle.map((req) => readNodeBody(req, 1000, 100));
    for (const req of idle) req.push(Buffer.alloc(10));
    const third = request(50);
    const read = readNodeBody(third, 1000, 100);
    third.push(Buffer.alloc(50));
    third.push(null);
    expect((await read).byteLength).toBe(50);
    // The first two are held to the budget as the rest of theirs comes: the first fills it, the
    // second's 80 bytes more are past it.
    idle[0]!.push(Buffer.alloc(80));
    idle[1]!.push(Buffer.alloc(80));
    await expect(waiting[1]).rejects.toMatchObject({ status: 503 });
    idle[0]!.push(null);
    expect((await waiting[0]!).byteLength).toBe(90);
    // One past its limit as its bytes come: a 413. Every body settled gave back what it held:
    // one of the whole budget is read.
    const long = request(60);
    const refused = readNodeBody(long, 60, 100);
    long.push(Buffer.alloc(50));
    long.push(Buffer.alloc(20));
    await expect(refused).rejects.toMatchObject({ status: 413 });
    const whole = request(100);
    const all = readNodeBody(whole, 1000, 100);
    whole.push(Buffer.alloc(100));
    whole.push(null);
    expect((await all).byteLength).toBe(100);
  });
});
