/**
 * The generated module is assembled from chunks: code that prettier formats, and data that
 * the emitters print already formatted (`_print.ts`).
 */
export type Chunk =
  | { kind: 'code'; text: string }
  /** Printed lines prettier would leave as they are. */
  | { kind: 'printed'; text: string }
  /**
   * A printed list: `open`, one entry per item (each followed by `terminator`), `close`; `empty`
   * when there are no entries. An entry marked `loose` (too wide, or a shape prettier
   * breaks) is formatted by prettier inside `open … close`.
   */
  | {
      kind: 'list';
      open: string;
      close: string;
      empty: string;
      terminator?: ';';
      entries: ListEntry[];
    };

export interface ListEntry {
  text: string;
  loose?: boolean;
}

export const code = (text: string): Chunk => ({ kind: 'code', text });
export const printed = (text: string): Chunk => ({ kind: 'printed', text });
