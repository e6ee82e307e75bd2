import type { Readable } from 'node:stream';
import { closeFile, readAt, readStreamOf, type OpenFile } from './files.js';

/**
 * A `Response` whose body is the bytes `start`–`end` (inclusive) of `file`: a standard one, for
 * `app.fetch` and the compressor, whose body is a byte stream reading the file itself as it is
 * taken (no node: stream under it, no chunk copied). The node:http adapter takes the file
 * instead (`nodeBodyOf`) and pipes it to the socket, with no web stream on the way. Whichever
 * reads it, the file is closed once the body ends, fails or is cancelled (the client left).
 */
export function fileResponse(
  file: OpenFile,
  start: number,
  end: number,
  init: ResponseInit,
): Response {
  let position = start;
  // Set once the file is closed, or handed to the node:http adapter's stream.
  let done = false;
  const finish = () => {
    if (!done) closeFile(file);
    done = true;
  };
  const body = new ReadableStream({
    type: 'bytes',
    autoAllocateChunkSize: CHUNK,
    // A byte stream reads nothing before it is asked: the node:http adapter takes the file first.
    async pull(controller) {
      if (done) return controller.error(new Error('course: the file was taken by the adapter'));
      const request = controller.byobRequest!;
      const view = request.view!;
      const into = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      let read: number;
      try {
        read = await readAt(file.fd, into, 0, Math.min(into.length, end + 1 - position), position);
      } catch (error) {
        finish();
        return controller.error(error);
      }
      position += read;
      // A closed stream takes no more bytes: they are given first.
      if (read > 0) request.respond(read);
      if (read === 0 || position > end) {
        // The file ends here, or was cut shorter since it was opened.
        finish();
        controller.close();
        if (read === 0) request.respond(0);
      }
    },
    cancel: finish,
  });
  const response = new Response(body, init);
  claims.set(response, () => {
    // Once read from, or closed, the body is only the web stream's.
    if (done || position !== start) return undefined;
    done = true;
    return readStreamOf(file, start, end, CHUNK);
  });
  return response;
}

/**
 * The file body of `response` (a `fileResponse`) as a node: stream, taken from its web stream,
 * which is then never read; `undefined` for any other response.
 */
export function nodeBodyOf(response: Response): Readable | undefined {
  const claim = claims.get(response);
  if (claim === undefined) return undefined;
  claims.delete(response);
  return claim();
}

// --- internal ---

/** The bytes read from the file at a time. */
const CHUNK = 64 * 1024;
const claims = new WeakMap<Response, () => Readable | undefined>();
