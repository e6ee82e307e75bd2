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
    // Within the limit but past the budget: a 503, which a NaN held before it would have let by.
    await expect(readNodeBody(request('500'), 1000, 100)).rejects.toMatchObject({ status: 503 });
  });
});
