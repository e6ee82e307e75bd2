/** Entries of `Accept-Encoding` read; a list of ten thousand costs no more than a short one. */
const MAX_ENTRIES = 32;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The encodings of `preferred` that `Accept-Encoding` accepts (with a weight above 0, by name or
 * by `*`), the one it weighs most first (`gzip, br;q=0.5`: gzip), in `preferred`'s order among
 * equals.
 */
export function acceptedEncodings(
  header: string | undefined,
  preferred: readonly ('br' | 'gzip')[] = ['br', 'gzip'],
): ('br' | 'gzip')[] {
  if (header === undefined || header === '') return [];
  const weights = new Map<string, number>();
  for (const entry of header.split(',', MAX_ENTRIES)) {
    const [name = '', ...params] = entry.split(';');
    const coding = name.trim().toLowerCase();
    // `q=0`, or `q = 0` as some clients space it.
    const q = params.find((p) => /^\s*q\s*=/i.test(p));
    const value = q?.slice(q.indexOf('=') + 1).trim();
    // A weight that is no qvalue (RFC 9110 §12.4.2: `1e-10`, `0.0001`, `2`) accepts nothing.
    const weight = value === undefined ? 1 : QVALUE.test(value) ? Number(value) : 0;
    if (!weights.has(coding)) weights.set(coding, weight);
  }
  const star = weights.get('*');
  const weight = (coding: string) => weights.get(coding) ?? star ?? 0;
  return preferred.filter((coding) => weight(coding) > 0).sort((a, b) => weight(b) - weight(a));
}
