/** One byte range of a file, inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a `Range` header asks of a file of `size` bytes: a `ByteRange`, `'unsatisfiable'`
 * (416) when it starts past the end, or `undefined` when the whole file is sent instead (no
 * header, another unit, a malformed one, or several ranges: only one range is served, as `send`
 * does, so `bytes=0-0,1-1,…` costs one scan of the header and gets the file once).
 */
export function rangeOf(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = SINGLE.exec(header);
  if (m === null) return undefined;
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last `last` bytes.
    const length = Number(last);
    // Nothing to take the last bytes of: an empty file has no satisfiable range (RFC 9110 §14.1.1).
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

// --- internal ---

// Positions of any length: one past the file's end is clamped (the last) or unsatisfiable (the
// first), however many digits it has (`Number` of 30 digits is about 1e30, never below a size).
// The unit is compared case-insensitively (RFC 9110 §14.1: `BYTES=0-4`).
const SINGLE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;
