import type { Stats } from 'node:fs';
import { runtimeName } from '../../platform.js';

/**
 * What `ServeStatic` reads from the disk: the node: modules and the mime table are loaded the
 * first time a file is served, so an app without static files (or a runtime without a file
 * system) never loads them.
 */
export interface OpenFile {
  /** The open descriptor: closed by `closeFile`, `readWhole` or the stream that reads it. */
  fd: number;
  stats: Stats;
  /** The served file's path (a `.br`/`.gz` sibling's, when one is sent). */
  path: string;
}

/**
 * Opens `relative` (safe segments, see `safeSegments`) inside `root`, only when the file, once
 * every symlink is resolved, is still inside the real `root` and neither a dotfile nor in a dot
 * folder below it; `undefined` when there is no such regular file.
 *
 * The path is resolved, checked and opened by synchronous calls, as nginx opens a file and as
 * Hono's `serveStatic` stats one: each is a few microseconds on a file the kernel has cached,
 * while each call handed to libuv's thread pool costs some 50 µs of CPU in its hand-offs (a
 * 1 KiB file's six calls there were most of its request). The contents are read from the pool.
 */
export async function openInside(
  root: string | URL,
  relative: readonly string[],
): Promise<OpenFile | undefined> {
  if (ON_WORKERS) return noDisk();
  const { fs, path } = await nodeModules();
  const realRoot = await realRootOf(root);
  if (realRoot === undefined) return undefined;
  const wanted = path.join(realRoot, ...relative);
  let real: string;
  try {
    real = fs.realpathSync.native(wanted);
  } catch {
    return undefined;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return undefined;
  // A link inside the root to a dotfile or into a dot folder (`visible.txt -> .env`) is refused as
  // the dotfile is.
  if (
    real
      .slice(realRoot.length)
      .split(path.sep)
      .some((name) => name.startsWith('.'))
  )
    return undefined;
  // Only a regular file or a folder is opened: opening a named pipe or a device waits for a
  // writer, holding the event loop (or, opened from the pool, one of its few threads) for ever.
  const kind = fs.statSync(real, { throwIfNoEntry: false });
  if (kind === undefined || (!kind.isFile() && !kind.isDirectory())) return undefined;
  let fd: number;
  try {
    // Non-blocking as well: a file swapped for a pipe between the two calls does not wait either.
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  let stats: Stats;
  try {
    stats = fs.fstatSync(fd);
  } catch {
    fs.closeSync(fd);
    return undefined;
  }
  const file = { fd, stats, path: real };
  if (!stats.isFile() && !stats.isDirectory()) return closeFile(file);
  return file;
}

/** Closes `file` (at once: closing a file opened for reading does not wait for the disk). */
export function closeFile(file: OpenFile | undefined): undefined {
  if (file !== undefined) loaded!.fs.closeSync(file.fd);
  return undefined;
}

/** Reads `length` bytes from `start`, and closes the file. */
export async function readWhole(
  file: OpenFile,
  start: number,
  length: number,
): Promise<Uint8Array> {
  try {
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const bytesRead = await readAt(file.fd, buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return read === length ? buffer : buffer.subarray(0, read);
  } finally {
    closeFile(file);
  }
}

/**
 * The bytes `start`–`end` (inclusive) as a web byte stream that reads the file itself as the
 * client takes them, into the buffers the stream hands it: no node: stream under it, no chunk
 * copied. It reads nothing before it is asked, and closes the file once it ends, fails or is
 * cancelled (the client left).
 */
export function streamOf(file: OpenFile, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let closed = false;
  const finish = () => {
    if (!closed) closeFile(file);
    closed = true;
  };
  return new ReadableStream({
    type: 'bytes',
    autoAllocateChunkSize: CHUNK,
    async pull(controller) {
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
      if (read === 0) {
        // Cut shorter since it was opened: the body fails, so the client sees an incomplete
        // answer (a connection cut before the last chunk), never a whole-looking shorter file.
        finish();
        return controller.error(new Error(`course: ${file.path} was cut shorter while served`));
      }
      // A closed stream takes no more bytes: they are given first.
      request.respond(read);
      if (position > end) {
        finish();
        controller.close();
      }
    },
    cancel: finish,
  });
}

/** The content type of a file name, from the `mime` package's table; `undefined` when unknown. */
export async function typeOf(name: string): Promise<string | undefined> {
  const mime = (await (mimeTable ??= import('mime'))).default;
  return mime.getType(name) ?? undefined;
}

// --- internal ---

/** The bytes a stream reads from its file at a time. */
const CHUNK = 64 * 1024;

interface NodeModules {
  fs: typeof import('node:fs');
  path: typeof import('node:path');
}
let modules: Promise<NodeModules> | undefined;
// The modules once loaded: every file served was opened by `openInside`, which loads them.
let loaded: NodeModules | undefined;
let mimeTable: Promise<typeof import('mime')> | undefined;
// Real paths of served folders; a folder that does not exist is looked for again.
const realRoots = new Map<string, string>();
let toPath: Promise<typeof import('node:url').fileURLToPath> | undefined;

function nodeModules() {
  return (modules ??= loadNodeModules());
}

async function loadNodeModules(): Promise<NodeModules> {
  const [fs, path] = await Promise.all([import('node:fs'), import('node:path')]);
  return (loaded = { fs, path });
}

async function realRootOf(root: string | URL): Promise<string | undefined> {
  const key = String(root);
  const known = realRoots.get(key);
  if (known !== undefined) return known;
  const { fs, path } = await nodeModules();
  try {
    const folder =
      typeof root === 'string'
        ? path.resolve(root)
        : (await (toPath ??= import('node:url').then((url) => url.fileURLToPath)))(root);
    let real: string;
    try {
      real = await fs.promises.realpath(folder);
    } catch (error) {
      warnMissing(folder, error);
      return undefined;
    }
    realRoots.set(key, real);
    return real;
  } catch {
    return undefined;
  }
}

// Folders already said to be missing: one warning each, however many requests ask.
const warned = new Set<string>();
let warnedNoDisk = false;
const ON_WORKERS = runtimeName() === 'Cloudflare Workers';

/**
 * A Worker has no disk: its files are the platform's static assets, served before it runs, and a
 * request that reaches `ServeStatic` asks for none of them. A 404, as a missing file on Node, and
 * one warning for a Worker deployed without its assets.
 */
function noDisk(): undefined {
  if (!warnedNoDisk)
    console.warn(
      'course: ServeStatic reads no disk on Cloudflare Workers: every file it is asked for is a 404. Serve the folder as Workers static assets ("assets": { "directory": "./public" } in wrangler.jsonc), which answer before the Worker runs, at their path under that folder: files ServeStatic serves at /assets go in public/assets/',
    );
  warnedNoDisk = true;
  return undefined;
}

/**
 * Says once that a served folder is not there, or may not be read (Deno without `--allow-read`
 * throws `NotCapable`): otherwise every file is a silent 404.
 */
function warnMissing(folder: string, error: unknown): void {
  if (warned.has(folder)) return;
  warned.add(folder);
  const name = (error as { name?: unknown; code?: unknown } | undefined)?.name;
  const code = (error as { code?: unknown } | undefined)?.code;
  const refused = name === 'NotCapable' || name === 'PermissionDenied' || code === 'EACCES';
  console.warn(
    refused
      ? `course: ServeStatic may not read its root ${folder} (${String((error as Error).message)}): every file under it is a 404`
      : `course: ServeStatic's root ${folder} does not exist (a relative root is resolved from the working directory): every file under it is a 404`,
  );
}

/** `fs.read`'s byte count as a promise (the callback form: no `FileHandle` to make and track). */
function readAt(
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  return new Promise((resolve, reject) =>
    loaded!.fs.read(fd, buffer, offset, length, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    ),
  );
}
