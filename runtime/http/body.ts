import type { IncomingMessage } from 'node:http';
import { HttpException } from './errors.js';

/** Default limit of a request body read by the router (forms, JSON): 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Default `requestTimeout`: the longest a request may take to arrive, in ms. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;

// How much of a refused upload is read and dropped before the 413 is sent.
const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 2000;

/**
 * Reads a `node:http` body up to `limit` bytes; one that breaks off (the client went, the chunked
 * framing broke, a timeout) is a 400. Over the limit, a 413 that closes the connection, given
 * once the client has sent the rest: a client still writing when the connection closes gets a
 * reset, which can wipe out the answer it has not read yet. The rest is read and dropped, up to
 * `DRAIN_BYTES` more and `DRAIN_MS`; past either, the answer goes at once, the rest unread.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  if (req.destroyed) return Promise.reject(incomplete());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (error?: HttpException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      // Left paused, the body tells the adapter its rest is unread: the connection closes.
      if (!req.complete) req.pause();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const refuse = () => {
      refused = true;
      chunks.length = 0;
      timer = setTimeout(() => settle(payloadTooLarge()), DRAIN_MS);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (!refused && size <= limit) return void chunks.push(chunk);
      if (!refused) refuse();
      if (size > limit + DRAIN_BYTES) settle(payloadTooLarge());
    };
    const end = () => settle(refused ? payloadTooLarge() : undefined);
    const broken = () => settle(refused ? payloadTooLarge() : incomplete());
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit + DRAIN_BYTES) return settle(payloadTooLarge());
    if (declared > limit) refuse();
    req.on('data', onData);
    req.once('end', end);
    // The listener stays: an error after the body was settled has nowhere else to go.
    req.on('error', broken);
    req.once('close', broken);
  });
}

/**
 * Reads a Fetch `Request` body up to `limit` bytes; a stream that errors or ends early, or a
 * request whose `signal` aborts (the client went): 400. A body still arriving after `timeout` ms
 * is a 408 that closes the connection, as node:http answers a request past its time: a stream
 * that stalls would otherwise hold the request, and its memory, for ever. The stream is then
 * cancelled.
 */
export async function readFetchBody(
  request: Request,
  limit: number,
  timeout = DEFAULT_REQUEST_TIMEOUT,
): Promise<Uint8Array> {
  const declared = request.headers.get('content-length') ?? undefined;
  if (tooLarge(declared, limit)) {
    request.body?.cancel().catch(() => {});
    throw payloadTooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const { signal } = request;
  if (signal.aborted) {
    request.body.cancel().catch(() => {});
    throw incomplete();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  // Cancelling the stream settles a pending `read()` as the end: `stopped` says why it ended.
  let stopped: HttpException | undefined;
  const stop = (error: HttpException) => {
    stopped ??= error;
    reader.cancel().catch(() => {});
  };
  const timer = setTimeout(() => stop(closing(408)), timeout);
  const aborted = () => stop(incomplete());
  signal.addEventListener('abort', aborted);
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // A stream a runtime made from the network gives bytes; anything else is not a body.
      if (!(next.value instanceof Uint8Array)) throw incomplete();
      size += next.value.byteLength;
      if (size > limit) throw payloadTooLarge();
      chunks.push(next.value);
    }
  } catch (error) {
    // The upload is not wanted any more: the runtime may stop receiving it.
    reader.cancel().catch(() => {});
    // A stream that errors is a body that broke off.
    throw stopped ?? (error instanceof HttpException ? error : incomplete());
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', aborted);
  }
  if (stopped) throw stopped;
  if (declared !== undefined && size !== Number(declared)) throw incomplete();
  return Buffer.concat(chunks);
}

// --- internal ---

function tooLarge(length: string | undefined, limit: number): boolean {
  return length !== undefined && Number(length) > limit;
}

function payloadTooLarge(): HttpException {
  return closing(413);
}

// The rest of a refused upload is not read: the connection closes after the answer. The
// router's own `Connection` header, which an app's headers may not hold (`checkHeader`).
function closing(status: number): HttpException {
  const error = new HttpException(status);
  (error.headers as Record<string, string>)['connection'] = 'close';
  return error;
}

function incomplete(): HttpException {
  return new HttpException(400, 'Incomplete request body');
}
