import type { Readable as NodeReadable } from 'node:stream';
import type { StartOptions } from '../http/context.js';
import type { CourseRequest } from '../http/request.js';
import { CourseResponse } from '../http/response.js';
import { acceptedEncodings } from './encodings.js';

/** `Course.start(routes, { compress })`: `true`, or these settings. */
export interface CompressOptions {
  /** Smallest body compressed, in bytes [1024]; a stream of unknown length always is. */
  threshold?: number;
  /** Encodings offered, in order of preference [`['br', 'gzip']`]. */
  encodings?: readonly ('br' | 'gzip')[];
}

/** What the adapters call on each outcome when `compress` is on. */
export type Compressor = (
  request: CourseRequest,
  outcome: CourseResponse | Response | Promise<CourseResponse | Response>,
) => CourseResponse | Response | Promise<CourseResponse | Response>;

/**
 * The compressor `options` ask for, or `undefined` when compression is off (the adapters then do
 * nothing). `node:zlib` is loaded now, not with the package.
 */
export function compressor(options: StartOptions): Compressor | undefined {
  const setting = options.compress;
  if (setting === undefined || setting === false) return undefined;
  const { threshold = 1024, encodings = ['br', 'gzip'] } = setting === true ? {} : setting;
  const modules = Promise.all([import('node:zlib'), import('node:stream')]);
  // An unhandled rejection on a runtime without them: the first response tells it instead.
  modules.catch(() => {});
  const compress = async (
    outcome: CourseResponse | Response,
    plan: Plan,
  ): Promise<CourseResponse | Response> => {
    const [zlib, { Readable, pipeline }] = await modules;
    const encoder =
      plan.encoding === 'br'
        ? zlib.createBrotliCompress({
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plan.size ?? 0,
            },
          })
        : zlib.createGzip();
    if (outcome instanceof Response) {
      const source = Readable.fromWeb(outcome.body! as never) as NodeReadable;
      pipeline(source, encoder, () => {});
    } else {
      encoder.end(outcome.body);
    }
    return new Response(webStreamOf(encoder), { status: plan.status, headers: plan.headers });
  };
  const settle = (request: CourseRequest, outcome: CourseResponse | Response) => {
    const plan = planOf(request, outcome, threshold, encodings);
    if (plan === undefined) return outcome;
    return request.method === 'HEAD' ? headOf(outcome, plan) : compress(outcome, plan);
  };
  // An answer that is not compressed is not made to wait for a promise.
  return (request, pending) =>
    pending instanceof Promise
      ? pending.then((outcome) => settle(request, outcome))
      : settle(request, pending);
}

// --- internal ---

/**
 * The encoder's output as a web stream that stops it when the client leaves. Not
 * `Readable.toWeb`: Deno's enqueues the encoder's next chunk into the cancelled stream, and the
 * `TypeError` it throws there ends the process.
 */
function webStreamOf(encoder: NodeJS.ReadableStream & { destroy(): void }): ReadableStream {
  let done = false;
  const stop = () => {
    done = true;
    encoder.destroy();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      encoder.on('data', (chunk: Buffer) => {
        if (done) return;
        try {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        } catch {
          return stop();
        }
        if ((controller.desiredSize ?? 1) <= 0) encoder.pause();
      });
      encoder.once('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      encoder.once('error', (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
    },
    pull() {
      encoder.resume();
    },
    cancel: stop,
  });
}

// Types whose bodies compress: text, JSON, JavaScript, XML, SVG, and their `+json`/`+xml` kin.
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|x-javascript|ecmascript|xml|xhtml\+xml|wasm|manifest\+json|ld\+json|graphql-response\+json)\b|image\/svg\+xml\b|[a-z]+\/[\w.-]+\+(?:json|xml)\b)/i;
const EVENT_STREAM = /^text\/event-stream\b/i;
// Statuses whose bodies are never compressed: none at all, or a part of a file.
const SKIPPED = new Set([204, 206, 304]);

interface Plan {
  encoding: 'br' | 'gzip';
  status: number;
  headers: Headers;
  size: number | undefined;
}

/** How to compress `outcome`, or `undefined` when it is sent as it is. */
function planOf(
  request: CourseRequest,
  outcome: CourseResponse | Response,
  threshold: number,
  offered: readonly ('br' | 'gzip')[],
): Plan | undefined {
  const own = outcome instanceof CourseResponse;
  const get = (name: string): string | undefined =>
    own ? outcome.headers[name] : (outcome.headers.get(name) ?? undefined);
  if (SKIPPED.has(outcome.status) || outcome.status < 200) return undefined;
  if (get('content-encoding') !== undefined) return undefined;
  if (/\bno-transform\b/i.test(get('cache-control') ?? '')) return undefined;
  const type = get('content-type') ?? '';
  // Events are read as they come: a compressor holds them back until its block fills.
  if (!COMPRESSIBLE.test(type) || EVENT_STREAM.test(type)) return undefined;
  let size: number | undefined;
  if (own) {
    const body = outcome.body;
    if (body === null) return undefined;
    size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  } else {
    if (outcome.body === null) return undefined;
    const length = outcome.headers.get('content-length');
    size = length === null ? undefined : Number(length);
  }
  const headers = own ? headersOf(outcome) : new Headers(outcome.headers);
  const vary = headers.get('vary');
  if (vary === null) headers.set('vary', 'Accept-Encoding');
  else if (!/\baccept-encoding\b|^\s*\*\s*$/i.test(vary))
    headers.set('vary', `${vary}, Accept-Encoding`);
  if (size !== undefined && size < threshold) return sendVary(outcome, headers);
  const encoding = acceptedEncodings(request.getHeader('accept-encoding'), offered)[0];
  if (encoding === undefined) return sendVary(outcome, headers);
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  // A strong validator names these exact bytes; the compressed ones are another representation.
  const etag = headers.get('etag');
  if (etag !== null && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
  return { encoding, status: outcome.status, headers, size };
}

/** The answer as it is, but saying that it depends on `Accept-Encoding`. */
function sendVary(outcome: CourseResponse | Response, headers: Headers): undefined {
  const vary = headers.get('vary')!;
  if (outcome instanceof CourseResponse) outcome.headers['vary'] = vary;
  else if (outcome.headers.get('vary') !== vary) {
    try {
      outcome.headers.set('vary', vary);
    } catch {
      // A `Response` whose headers are immutable (from `fetch()`) is sent as it is.
    }
  }
  return undefined;
}

/**
 * A HEAD's answer: the headers the GET's compressed answer has (RFC 9110 §9.3.2: its encoding,
 * no length, a weak ETag), with no body to compress.
 */
function headOf(outcome: CourseResponse | Response, plan: Plan): Response {
  // The body is not sent: its source is told to stop.
  if (outcome instanceof Response) outcome.body?.cancel().catch(() => {});
  return new Response(null, { status: plan.status, headers: plan.headers });
}

function headersOf(response: CourseResponse): Headers {
  const headers = new Headers();
  for (const name in response.headers) headers.set(name, response.headers[name]!);
  for (const cookie of response.cookies) headers.append('set-cookie', cookie);
  return headers;
}
