/**
 * Where the code cache lives and how one entry is kept: a file per cached module, holding a
 * digest of what the code was compiled from (path, size, mtime, Node version, V8 flags), a
 * digest of its bytes, then V8's cached data. A file that does not check out is ignored and
 * rewritten; a file is written under a temporary name and renamed, so a process never reads
 * one half written by another.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MAGIC = Buffer.from('course-code-cache-1\n');
const DIGEST = 20; // sha1
const HEADER = MAGIC.length + 2 * DIGEST;

/** The folder the code cache goes to: the first of `candidates` this process may write, if any. */
export function cacheFolder(candidates: readonly string[]): string | undefined {
  for (const folder of candidates) if (usable(folder)) return folder;
  return undefined;
}

/**
 * The folders to try for a module resolved at `resolved`: `COURSE_CACHE_DIR`, else
 * `node_modules/.cache/course` beside the module's package; then the OS temporary folder.
 */
export function cacheCandidates(resolved: string): string[] {
  const named = process.env['COURSE_CACHE_DIR'];
  const at = resolved.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  const first = named
    ? path.resolve(named)
    : at === -1
      ? undefined
      : path.join(resolved.slice(0, at), 'node_modules', '.cache', 'course');
  const temp = path.join(os.tmpdir(), `course-cache-${process.getuid?.() ?? 'user'}`);
  return first ? [first, temp] : [temp];
}

/** One module's entry in `folder`: what it was compiled from names the entry's key. */
export class CacheEntry {
  readonly file: string;
  private readonly key: Buffer;

  constructor(folder: string, source: string) {
    const stat = fs.statSync(source);
    const name = `${path.basename(source)}-${digest(source).toString('hex').slice(0, 16)}.bin`;
    this.file = path.join(folder, name);
    const flags = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
    const from = [source, stat.size, stat.mtimeMs, process.version, process.arch, flags];
    this.key = digest(JSON.stringify(from));
  }

  /** V8's data for this module, or undefined when there is none or it does not check out. */
  read(): Buffer | undefined {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file);
    } catch {
      return undefined;
    }
    if (bytes.length <= HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const key = bytes.subarray(MAGIC.length, MAGIC.length + DIGEST);
    const sum = bytes.subarray(MAGIC.length + DIGEST, HEADER);
    const data = bytes.subarray(HEADER);
    return key.equals(this.key) && sum.equals(digest(data)) ? data : undefined;
  }

  /**
   * Writes V8's data; a failure only means no cache next time. A temporary file a process left,
   * killed as it wrote, is removed once it is older than any write takes (`STALE_MS`).
   */
  write(data: Buffer): void {
    const temporary = `${this.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      fs.writeFileSync(temporary, Buffer.concat([MAGIC, this.key, digest(data), data]));
      fs.renameSync(temporary, this.file);
    } catch {
      fs.rmSync(temporary, { force: true });
    }
    removeStale(this.file);
  }
}

// --- internal ---

const STALE_MS = 10 * 60_000;

/** Removes the temporary files of `file` older than `STALE_MS`. */
function removeStale(file: string): void {
  const folder = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  try {
    for (const name of fs.readdirSync(folder)) {
      if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
      const stale = path.join(folder, name);
      if (Date.now() - fs.statSync(stale).mtimeMs > STALE_MS) fs.rmSync(stale, { force: true });
    }
  } catch {
    // Another process removed it first, or the folder went: nothing is left to do.
  }
}

function digest(data: string | Buffer): Buffer {
  return createHash('sha1').update(data).digest();
}

/**
 * A folder this process can write and no other user can: code read from a cache runs as this
 * process, so a folder another user made in the shared temporary folder is never used.
 */
function usable(folder: string): boolean {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    fs.accessSync(folder, fs.constants.W_OK);
    const stat = fs.statSync(folder);
    const uid = process.getuid?.();
    return stat.isDirectory() && (uid === undefined || (stat.uid === uid && !(stat.mode & 0o022)));
  } catch {
    return false;
  }
}
