import { requireContext } from '../../http/context.js';
import { NotFoundHttpException } from '../../http/errors.js';
import type { CourseRequest } from '../../http/request.js';
import { sizedResponse, type CourseResponse } from '../../http/response.js';
import { closeFile, openInside, readWhole, streamOf, typeOf, type OpenFile } from './files.js';
import { rangeOf } from './range.js';
import { cleanTarget, normalizePath } from '../../http/path.js';
import { acceptedEncodings } from '../encodings.js';

/**
 * Serves the files of a folder. Extend it in the app, set `root`, and put the class on a `GET`
 * route whose URL ends in a parameter that takes the rest of the path
 * (`Course.get('/assets/{path?}', …).where('path', '.*')`): the part of the request's path after
 * the route's static prefix names the file. A file is streamed with `ETag`, `Last-Modified`,
 * `Cache-Control` and `Accept-Ranges`; `If-None-Match`/`If-Modified-Since` give a 304, one
 * `Range` a 206 (416 past the end). Dotfiles, encoded slashes and backslashes, NUL and anything
 * a symlink leads out of `root` are never served: a 404, as a missing file (or, with
 * `fallthrough`, the route's callback answers).
 */
export class ServeStatic {
  /**
   * The folder: a path (absolute, or relative to the working directory: `'public'` is the same
   * folder under tsx and from `dist/`), or a `file:` URL (relative to `import.meta.url`, it
   * follows the module into `dist/` once compiled). A folder that is not there is one warning.
   */
  protected root: string | URL = 'public';
  /** `Cache-Control: public, max-age=…` in seconds. */
  protected maxAge = 0;
  /** Adds `immutable` to `Cache-Control` (for file names holding a hash). */
  protected immutable = false;
  /** Serves a folder's `index.html` at the folder's path with a `/` (a 301 adds a missing one). */
  protected index = true;
  /** Sends a file's `.br` or `.gz` sibling, made at build time, to a client that accepts it. */
  protected precompressed = false;
  /** A file that is not there lets the route's callback answer, instead of a 404. */
  protected fallthrough = false;

  async handle(request: CourseRequest): Promise<unknown> {
    const { response } = requireContext('ServeStatic');
    const segments = fileSegments(request);
    const served = segments && (await this.serve(request, response, segments));
    if (served !== undefined) return served;
    if (this.fallthrough) return undefined;
    throw new NotFoundHttpException();
  }

  // --- internal ---

  private async serve(
    request: CourseRequest,
    response: CourseResponse,
    segments: string[],
  ): Promise<CourseResponse | Response | undefined> {
    let relative = segments;
    let file = await openInside(this.root, relative);
    // The client's own path, when the route's is it (no rewrite led here from another).
    const asked = browserPath(request);
    const trailing = asked !== undefined && asked.path.endsWith('/');
    if (file?.stats.isDirectory()) {
      closeFile(file);
      relative = [...segments, 'index.html'];
      file = this.index ? await openInside(this.root, relative) : undefined;
      // A folder's page is served at its path with a `/`, where its relative links resolve
      // inside it: a path without one is sent there (as `serve-static` and nginx do).
      if (file?.stats.isFile() && asked !== undefined && !trailing) {
        closeFile(file);
        return response.redirect(folderLocation(asked), 301);
      }
    } else if (file !== undefined && trailing) {
      // A file is not a folder: `/hello.txt/` is a 404, as on a file system.
      return closeFile(file);
    }
    if (file === undefined || !file.stats.isFile()) return closeFile(file);
    // The type of the name asked for, whatever a symlink or a sibling is called.
    const type = (await typeOf(relative[relative.length - 1] ?? '')) ?? 'application/octet-stream';
    if (this.precompressed) {
      response.headers['vary'] = 'Accept-Encoding';
      file = await this.sibling(request, response, file, relative);
    }
    return send(request, response, file, withCharset(type), this.cacheControl());
  }

  /**
   * The `.br` or `.gz` sibling of `file` the client weighs most (`br` among equals) that is
   * there, else `file`.
   */
  private async sibling(
    request: CourseRequest,
    response: CourseResponse,
    file: OpenFile,
    relative: readonly string[],
  ): Promise<OpenFile> {
    const dir = relative.slice(0, -1);
    const base = relative[relative.length - 1]!;
    for (const encoding of acceptedEncodings(request.getHeader('accept-encoding'))) {
      const other = await openInside(this.root, [...dir, base + SIBLINGS[encoding]]);
      if (other?.stats.isFile()) {
        closeFile(file);
        response.headers['content-encoding'] = encoding;
        return other;
      }
      closeFile(other);
    }
    return file;
  }

  private cacheControl(): string {
    return `public, max-age=${Math.max(0, Math.floor(this.maxAge))}${this.immutable ? ', immutable' : ''}`;
  }
}

// --- internal ---

/** Files up to this size are read whole; larger ones stream. Both are sent with a `Content-Length`. */
const READ_WHOLE = 256 * 1024;
const SIBLINGS = { br: '.br', gzip: '.gz' } as const;
// What a served path's segment may not hold, once decoded: a separator, NUL or another control.
// eslint-disable-next-line no-control-regex
const REFUSED = /[\\/\u0000-\u001f\u007f]/;

/**
 * The decoded segments of the request's path after its route's static prefix; `undefined` when
 * one is empty, a dot segment, a dotfile, or holds a (back)slash, NUL or another control. The
 * router's path is cleaned and decoded once already, but for `%2F` and `%25`.
 */
function fileSegments(request: CourseRequest): string[] | undefined {
  const url = request.loaded?.route.url ?? '';
  const brace = url.indexOf('{');
  const prefix = (brace === -1 ? url : url.slice(0, brace)).replace(/\/+$/, '');
  const path = request.path;
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
  const rest = path.slice(prefix.length + 1);
  if (rest === '') return [];
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    if (/%2f/i.test(raw)) return undefined;
    const segment = raw.replace(/%25/g, '%');
    if (segment === '' || segment.startsWith('.') || REFUSED.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

/**
 * The path and query the client asked for, as a browser's URL parser reads them (`cleanTarget`),
 * the URL its page's relative links resolve against; `undefined` when a rewrite served another.
 */
function browserPath(request: CourseRequest): { path: string; query: string } | undefined {
  if (normalizePath(request.target) !== request.path) return undefined;
  const target = cleanTarget(request.target);
  const q = target.indexOf('?');
  return q === -1
    ? { path: target, query: '' }
    : { path: target.slice(0, q), query: target.slice(q) };
}

/**
 * Where a folder asked for without its `/` is: relative to the URL asked for (`./sub/`), so no
 * host or scheme of a request can lead the browser elsewhere, and a rewritten path stays as the
 * browser knows it. The query is kept.
 */
function folderLocation({ path, query }: { path: string; query: string }): string {
  return `./${path.slice(path.lastIndexOf('/') + 1)}/${query}`;
}

function withCharset(type: string): string {
  return type.startsWith('text/') ||
    type === 'application/javascript' ||
    type === 'application/json'
    ? `${type}; charset=utf-8`
    : type;
}

async function send(
  request: CourseRequest,
  response: CourseResponse,
  file: OpenFile,
  type: string,
  cacheControl: string,
): Promise<CourseResponse | Response> {
  const { size, mtime, mtimeMs } = file.stats;
  // The millisecond the file changed, cut as every runtime cuts it: Node's `mtime` rounds it,
  // Bun's and Deno's cut it, so one file would have two ETags behind one load balancer.
  const etag = `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  const modified = mtime.toUTCString();
  const headers = response.headers;
  headers['etag'] = etag;
  headers['last-modified'] = modified;
  headers['cache-control'] = cacheControl;
  if (notModified(request, etag, mtime)) {
    closeFile(file);
    response.status = 304;
    response.body = null;
    return response;
  }
  headers['content-type'] = type;
  headers['accept-ranges'] = 'bytes';
  const ifRange = request.getHeader('if-range');
  const range =
    ifRange === undefined || ifRange === modified
      ? rangeOf(request.getHeader('range'), size)
      : undefined;
  if (range === 'unsatisfiable') {
    closeFile(file);
    response.status = 416;
    headers['content-range'] = `bytes */${size}`;
    delete headers['content-type'];
    response.body = null;
    return response;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range !== undefined) {
    response.status = 206;
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
  }
  const length = Math.max(0, end - start + 1);
  if (length <= READ_WHOLE) {
    response.body = await readWhole(file, start, length);
    return response;
  }
  const init = { status: response.status, headers };
  if (request.method !== 'HEAD') return sizedResponse(streamOf(file, start, end), init, length);
  closeFile(file);
  // A stand-in for the file's body, never read: the compressor plans the GET's headers from it
  // (Content-Encoding, Vary), and the adapters cancel it unsent.
  return sizedResponse(new ReadableStream<Uint8Array>(), init, length);
}

/** `If-None-Match` (weakly) names the ETag, or, without it, `If-Modified-Since` is not older. */
function notModified(request: CourseRequest, etag: string, mtime: Date): boolean {
  const match = request.getHeader('if-none-match');
  if (match !== undefined) {
    if (match.length > 4096) return false;
    const tag = etag.slice(2);
    return match.split(',').some((t) => t.trim() === '*' || t.trim() === etag || t.trim() === tag);
  }
  const since = request.getHeader('if-modified-since');
  if (since === undefined) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Math.floor(mtime.getTime() / 1000) * 1000 <= time;
}
