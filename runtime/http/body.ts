import type { IncomingMessage } from 'node:http';
import { HttpException } from './errors.js';
import { sendContinue } from './continue.js';
import { unwatch, watch } from './watchdog.js';

/** Default limit of a request body read by the router (forms, JSON): 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Default `requestTimeout`: the longest a request may take to arrive, in ms. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;

/** Default `bodyMemoryLimit`: the most bytes of bodies the process receives at once, 256 MiB. */
export const DEFAULT_BODY_MEMORY = 256 * 1024 * 1024;

// Bytes of the bodies being received now, by every request of the process: each body is
// bounded by its limit, and this bounds them all together (many stalled uploads).
let receiving = 0;

/**
 * Holds `bytes` more of the bodies being received, within `budget`; `false` (nothing held) when
 * they would go past it. Give them back with `release` once the body is read or has failed.
 */
function hold(bytes: number, budget: number): boolean {
  if (receiving + bytes > budget) return false;
  receiving += bytes;
  return true;
}

function release(bytes: number): void {
  receiving -= bytes;
}

// How much of a refused upload is read and dropped after its 413, before the connection closes.
const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 2000;
const DRAINING = new WeakSet<object>();

/**
 * Reads a `node:http` body up to `limit` bytes (writing the `100 Continue` a client awaits as
 * it starts, `sendContinue`); one that breaks off (the client went, the chunked framing broke, a
 * timeout) is a 400. Over the limit, a 413 at once that closes the connection:
 * the body is left paused, unread, and the adapter drops its rest (`dropRest`).
 */
export function readNodeBody(
  req: IncomingMessage,
  limit: number,
  budget = DEFAULT_BODY_MEMORY,
): Promise<Uint8Array> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  if (req.destroyed) return Promise.reject(incomplete());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // The bytes that came of it, and what it holds of the budget. Not its declared length: a few
    // connections declaring large bodies and sending nothing would hold all of it.
    let size = 0;
    let settled = false;
    const settle = (error?: HttpException) => {
      if (settled) return;
      settled = true;
      release(size);
      req.off('data', onData);
      // Left paused, the body tells the adapter its rest is unread: the connection closes.
      if (!req.complete) req.pause();
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // As the Fetch adapter reads it: node:http's parser refuses a malformed one, but node:http2's
    // compatibility layer passes the header on as sent, and NaN would pass the limit below.
    const declared = declaredLength(req.headers['content-length'] ?? null) ?? 0;
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > limit) return settle(payloadTooLarge());
      if (!hold(chunk.length, budget)) return settle(busy());
      size += chunk.length;
      chunks.push(chunk);
    };
    // Once settled (the common case: `close` follows `end`), nothing is made.
    const broken = () => settled || settle(incomplete());
    if (Number.isNaN(declared)) return settle(malformedLength());
    if (declared > limit) return settle(payloadTooLarge());
    // A client waiting for `100 Continue` is told to send the body now, and only now.
    sendContinue(req);
    req.on('data', onData);
    req.once('end', () => settle());
    // The listener stays: an error after the body was settled has nowhere else to go.
    req.on('error', broken);
    req.once('close', broken);
  });
}

/**
 * Closes the connection of a request whose body was left unread (refused) once its answer is
 * written and the rest of the body is read and dropped, up to `DRAIN_BYTES` more and
 * `DRAIN_MS`; past either, the connection closes with the rest unread. A client still writing
 * when the connection closes gets a reset, which can wipe out the answer it has not read yet.
 */
export function dropRest(req: IncomingMessage): void {
  const socket = req.socket;
  DRAINING.add(socket);
  let left = DRAIN_BYTES;
  let answered = false;
  let drained = false;
  const done = () => {
    if (drained) return;
    drained = true;
    clearTimeout(timer);
    req.off('data', drop);
    req.pause();
    // Back to node's own, which ends the connection once the answer is out.
    delete (socket as { destroySoon?: unknown }).destroySoon;
    if (answered) socket.destroySoon();
  };
  const drop = (chunk: Buffer) => {
    if ((left -= chunk.length) < 0) done();
  };
  const timer = setTimeout(done, DRAIN_MS);
  // node:http ends a `Connection: close` answer's connection once it is written: here once the
  // rest is dropped too.
  socket.destroySoon = () => void (answered = true);
  req.on('data', drop);
  req.once('end', done);
  socket.once('close', done);
  req.resume();
}

/**
 * Whether `req` came on a connection that is dropping a refused body's rest: a request sent
 * after that body is neither served nor answered, as the connection closes.
 */
export function afterRefused(req: IncomingMessage): boolean {
  return DRAINING.has(req.socket);
}

/**
 * Reads a Fetch `Request` body up to `limit` bytes, or as its `utf8` text (`text`); a stream that
 * errors or ends early, or a request whose `signal` aborts (the client went): 400. A body still
 * arriving after `timeout` ms is a 408 that closes the connection, as node:http answers a request
 * past its time: a stream that stalls would otherwise hold the request, and its memory, for
 * ever. The stream is then cancelled. A small body of declared length (16 KiB at most) is read
 * by the runtime; as text, by its `text()`, which decodes it as `utf8` does (about 1 µs less than
 * its bytes decoded here, for a small JSON body on Bun's and Deno's servers).
 */
export function readFetchBody(
  request: Request,
  limit: number,
  timeout?: number,
  budget?: number,
): Promise<Uint8Array>;
export function readFetchBody(
  request: Request,
  limit: number,
  timeout: number | undefined,
  budget: number | undefined,
  text: true,
): Promise<string>;
export function readFetchBody(
  request: Request,
  limit: number,
  timeout = DEFAULT_REQUEST_TIMEOUT,
  budget = DEFAULT_BODY_MEMORY,
  text = false,
): Promise<Uint8Array | string> {
  return text
    ? readFetch(request, limit, timeout, budget, TEXT)
    : readFetch(request, limit, timeout, budget, BYTES);
}

const UTF8 = new TextDecoder();

/**
 * A body's text: UTF-8, a leading byte order mark dropped, each malformed sequence a U+FFFD, as
 * the Fetch API's `text()` reads a body on every runtime.
 */
export function utf8(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

// --- internal ---

/** How a body is given: as the runtime reads one of declared length, and as its bytes read here. */
interface Reading<T> {
  read: (request: Request) => Promise<T>;
  /** What `read` gave, as the body of `length` bytes; `undefined` when it cannot be that. */
  take: (body: T, length: number) => T | undefined;
  /** The body read from its stream; as its bytes when there is none. */
  streamed?: (bytes: Uint8Array) => T;
}

const BYTES: Reading<Uint8Array> = {
  read: bytesOf,
  take: (bytes, length) => (bytes.byteLength === length ? bytes : undefined),
};

const TEXT: Reading<string> = {
  read: (request) => request.text(),
  // workerd's `text()` keeps a byte order mark: dropped here, as `utf8` drops it.
  take: (text, length) => {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    return textFits(body, length) ? body : undefined;
  },
  streamed: utf8,
};

// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Whether `text` (`utf8`'s) can be a body of `length` bytes. A runtime's own server frames the
 * body by its length; a `Request` an app makes may say anything. Its text does not show a byte
 * order mark `utf8` dropped (3 bytes), nor how many bytes each U+FFFD replaced (1 to 3).
 */
function textFits(text: string, length: number): boolean {
  // ASCII alone, as nearly every JSON body is: a byte a character (a regex, twice the loop's speed).
  if (text.length === length && !NOT_ASCII.test(text)) return true;
  let bytes = 0;
  let replaced = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A pair of surrogates (`utf8` makes no lone one): 4 bytes.
      bytes += 4;
      i++;
    } else if (code === 0xfffd) {
      bytes += 1;
      replaced++;
    } else bytes += 3;
  }
  return replaced === 0
    ? length === bytes || length === bytes + 3
    : length >= bytes && length <= bytes + 2 * replaced + 3;
}

function readFetch<T>(
  request: Request,
  limit: number,
  timeout: number,
  budget: number,
  reading: Reading<T>,
): Promise<T> {
  const declared = declaredLength(request.headers.get('content-length'));
  if (Number.isNaN(declared)) {
    request.body?.cancel().catch(() => {});
    return Promise.reject(malformedLength());
  }
  if (declared !== undefined && declared > limit) {
    request.body?.cancel().catch(() => {});
    return Promise.reject(payloadTooLarge());
  }
  // A small body of declared length: the runtime reads it, and its framing holds the body to
  // it. `request.body` is not asked for: Bun makes a stream for it.
  if (declared !== undefined && declared <= SMALL_BODY) {
    if (hold(declared, budget)) return readDeclared(request, declared, timeout, reading);
    request.body?.cancel().catch(() => {});
    return Promise.reject(busy());
  }
  // A larger one, or one of no declared length, holds what has come of it: connections that
  // declare large bodies and send nothing hold nothing (and Deno's `text()` would set aside the
  // whole declared length at once).
  const streamed = readStream(request, limit, timeout, budget).then((bytes) => {
    if (declared !== undefined && bytes.byteLength !== declared) throw incomplete();
    return bytes;
  });
  return reading.streamed === undefined
    ? (streamed as Promise<T>)
    : streamed.then(reading.streamed);
}

// Up to this declared length, a body is read by the runtime at once, holding that much of the
// budget while it arrives: it takes 16,384 connections that send nothing to hold 256 MiB.
const SMALL_BODY = 16 * 1024;

/** A body of no or a large declared length, read from its stream up to `limit` bytes. */
async function readStream(
  request: Request,
  limit: number,
  timeout: number,
  budget: number,
): Promise<Uint8Array> {
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
  const timer = watch(timeout, () => stop(closing(408)));
  const aborted = () => stop(incomplete());
  signal.addEventListener('abort', aborted);
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // A stream a runtime made from the network gives bytes; anything else is not a body.
      if (!(next.value instanceof Uint8Array)) throw incomplete();
      if (size + next.value.byteLength > limit) throw payloadTooLarge();
      if (!hold(next.value.byteLength, budget)) throw busy();
      size += next.value.byteLength;
      chunks.push(next.value);
    }
  } catch (error) {
    // The upload is not wanted any more: the runtime may stop receiving it.
    reader.cancel().catch(() => {});
    // A stream that errors is a body that broke off.
    throw stopped ?? (error instanceof HttpException ? error : incomplete());
  } finally {
    release(size);
    unwatch(timer);
    signal.removeEventListener('abort', aborted);
  }
  if (stopped) throw stopped;
  return Buffer.concat(chunks);
}

/**
 * A body of `length` bytes (at most `SMALL_BODY`), read by the runtime (`reading`): its own
 * reader, no stream reader and abort listener of ours. A client that goes breaks the stream: 400.
 * Past `timeout`, a 408 that closes the connection, which ends the runtime's read on Node and Bun
 * (the stream, locked by it, cannot be cancelled from here).
 */
function readDeclared<T>(
  request: Request,
  length: number,
  timeout: number,
  reading: Reading<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    // Past its 408, its share is given back: Deno's server may keep the connection, and the
    // runtime's read pending, as long as the client does.
    let held = true;
    const timer = watch(timeout, () => {
      held = false;
      release(length);
      reject(closing(408));
    });
    reading.read(request).then(
      (body) => {
        if (held) release(length);
        unwatch(timer);
        const taken = reading.take(body, length);
        if (taken !== undefined) resolve(taken);
        else reject(incomplete());
      },
      () => {
        if (held) release(length);
        unwatch(timer);
        reject(incomplete());
      },
    );
  });
}

/**
 * The body's bytes: by `bytes()`, which costs a fraction of `arrayBuffer()` on Bun and Deno
 * (1.3 and 1.4 µs less for a small JSON body), when the request is the runtime's own; an object
 * made to stand for one (@hono/node-server's, on Node) may answer only `arrayBuffer()`.
 */
function bytesOf(request: Request): Promise<Uint8Array> {
  const native = request as { bytes?: () => Promise<Uint8Array> };
  return Object.getPrototypeOf(request) === Request.prototype && native.bytes !== undefined
    ? native.bytes()
    : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
}

// A length, or the same length repeated (`7, 7`: two identical `Content-Length` lines, which a
// Fetch runtime's server frames by and joins), as RFC 9110 §8.6 lets a recipient read it.
const LENGTH = /^(\d+)(?:[\t ]*,[\t ]*\1)*$/;

/** The declared `Content-Length`: `undefined` when there is none, `NaN` when it is malformed. */
function declaredLength(value: string | null): number | undefined {
  if (value === null) return undefined;
  // Digits alone, as nearly every client sends it: no regex (its backreference costs Bun 0.2 µs),
  // and no `Number()` of the text, which reads it again.
  let number = value.length > 0 && value.length < 16 ? 0 : NaN;
  for (let i = 0; i < value.length && number === number; i++) {
    const digit = value.charCodeAt(i) - 48;
    number = digit >= 0 && digit <= 9 ? number * 10 + digit : NaN;
  }
  if (number === number) return number;
  const length = LENGTH.exec(value);
  return length === null ? NaN : Number(length[1]);
}

function payloadTooLarge(): HttpException {
  return closing(413);
}

function malformedLength(): HttpException {
  return new HttpException(400, 'Malformed Content-Length');
}

// More bodies are arriving than `bodyMemoryLimit` holds: this one is not read.
function busy(): HttpException {
  const error = closing(503);
  (error.headers as Record<string, string>)['retry-after'] = '5';
  return error;
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
