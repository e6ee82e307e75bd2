/** Entries of `Accept-Encoding` read; a list of ten thousand costs no more than a short one. */
const MAX_ENTRIES = 32;

/**
 * The encodings among `br` and `gzip` that `Accept-Encoding` accepts (with a weight above 0,
 * by name or by `*`), `br` first.
 */
export function acceptedEncodings(header: string | undefined): ('br' | 'gzip')[] {
  if (header === undefined || header === '') return [];
  const weights = new Map<string, number>();
  for (const entry of header.split(',', MAX_ENTRIES)) {
    const [name = '', ...params] = entry.split(';');
    const coding = name.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!weights.has(coding)) weights.set(coding, Number.isNaN(weight) ? 0 : weight);
  }
  const star = weights.get('*');
  return (['br', 'gzip'] as const).filter((coding) => (weights.get(coding) ?? star ?? 0) > 0);
}
