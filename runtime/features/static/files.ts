import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * What `ServeStatic` reads from the disk: the node: modules and the mime table are loaded the
 * first time a file is served, so an app without static files (or a runtime without a file
 * system) never loads them.
 */
export interface OpenFile {
  handle: FileHandle;
  stats: Stats;
  /** The served file's path (a `.br`/`.gz` sibling's, when one is sent). */
  path: string;
}

/**
 * Opens `relative` (safe segments, see `safeSegments`) inside `root`, only when the file, once
 * every symlink is resolved, is still inside the real `root`; `undefined` when there is no such
 * regular file.
 */
export async function openInside(
  root: string | URL,
  relative: readonly string[],
): Promise<OpenFile | undefined> {
  const { fs, path } = await nodeModules();
  const realRoot = await realRootOf(root);
  if (realRoot === undefined) return undefined;
  const wanted = path.join(realRoot, ...relative);
  let real: string;
  try {
    real = await fs.realpath(wanted);
  } catch {
    return undefined;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return undefined;
  // Only a regular file or a folder is opened: opening a named pipe or a device waits for a
  // writer, holding one of the few threads every file and zlib call shares, for ever.
  try {
    const kind = await fs.stat(real);
    if (!kind.isFile() && !kind.isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  let handle: FileHandle;
  try {
    // Non-blocking as well: a file swapped for a pipe between the two calls does not wait either.
    handle = await fs.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const stats = await handle.stat();
  if (!stats.isFile() && !stats.isDirectory()) {
    await handle.close();
    return undefined;
  }
  return { handle, stats, path: real };
}

/** Reads `length` bytes from `start`, and closes the file. */
export async function readWhole(
  file: OpenFile,
  start: number,
  length: number,
): Promise<Uint8Array> {
  try {
    const buffer = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await file.handle.read(buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return read === length ? buffer : buffer.subarray(0, read);
  } finally {
    await file.handle.close();
  }
}

/**
 * The bytes `start`–`end` (inclusive) as a web stream, read as the client takes them; the file
 * is closed when the stream ends, fails or is cancelled (the client left).
 */
export async function streamOf(
  file: OpenFile,
  start: number,
  end: number,
): Promise<ReadableStream<Uint8Array>> {
  const { Readable } = await import('node:stream');
  const stream = file.handle.createReadStream({ start, end, autoClose: true });
  return Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
}

/** The content type of a file name, from the `mime` package's table; `undefined` when unknown. */
export async function typeOf(name: string): Promise<string | undefined> {
  const mime = (await (mimeTable ??= import('mime'))).default;
  return mime.getType(name) ?? undefined;
}

// --- internal ---

let modules:
  Promise<{ fs: typeof import('node:fs/promises'); path: typeof import('node:path') }> | undefined;
let mimeTable: Promise<typeof import('mime')> | undefined;
// Real paths of served folders; a folder that does not exist is looked for again.
const realRoots = new Map<string, string>();
let toPath: Promise<typeof import('node:url').fileURLToPath> | undefined;

function nodeModules() {
  return (modules ??= Promise.all([import('node:fs/promises'), import('node:path')]).then(
    ([fs, path]) => ({ fs, path }),
  ));
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
      real = await fs.realpath(folder);
    } catch {
      warnMissing(folder);
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

/** Says once that a served folder is not there: otherwise every file is a silent 404. */
function warnMissing(folder: string): void {
  if (warned.has(folder)) return;
  warned.add(folder);
  console.warn(
    `course: ServeStatic's root ${folder} does not exist (a relative root is resolved from the working directory): every file under it is a 404`,
  );
}
