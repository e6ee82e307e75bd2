import type { IncomingMessage } from 'node:http';
import { HttpException } from './errors.js';

/** Default limit of a request body read by the router (forms, JSON): 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Reads a `node:http` body up to `limit` bytes; over it, a 413 and the stream destroyed. */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  tooLarge(req.headers['content-length'], limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.destroy();
      throw new HttpException(413);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads a Fetch `Request` body up to `limit` bytes. */
export async function readFetchBody(request: Request, limit: number): Promise<Uint8Array> {
  tooLarge(request.headers.get('content-length') ?? undefined, limit);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpException(413);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

// --- internal ---

function tooLarge(length: string | undefined, limit: number): void {
  if (length !== undefined && Number(length) > limit) throw new HttpException(413);
}
