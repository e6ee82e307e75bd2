/**
 * The generated module keeps its tables as text, one JSON value per line: a JavaScript engine
 * reads a string literal far faster than the same data written as object literals, so loading
 * a module of 10,000 routes builds nothing per route; a row is parsed when first needed. These
 * readers turn that text into the shapes the matcher and dispatch use.
 */

/**
 * Rows of a table stored one JSON value per line (blank lines at the start and end left out),
 * each parsed (and made into a `T`) when first asked for; the line offsets are taken on first
 * use.
 */
export class Rows<T> {
  readonly #text: string;
  readonly #make: (row: never, index: number) => T;
  #items: (T | undefined)[] | undefined;
  #starts: Uint32Array | undefined;

  constructor(text: string, make: (row: never, index: number) => T) {
    this.#text = text.trim();
    this.#make = make;
  }

  /** How many rows there are. */
  get length(): number {
    return this.#lines().length - 1;
  }

  /** The row at `index`. */
  at(index: number): T {
    const items = (this.#items ??= new Array<T | undefined>(this.length));
    let item = items[index];
    if (item === undefined) item = items[index] = this.#make(this.#parse(index) as never, index);
    return item;
  }

  #parse(index: number): unknown {
    const starts = this.#lines();
    if (!(index >= 0 && index < starts.length - 1)) throw new RangeError(`no row ${index}`);
    return JSON.parse(this.#text.slice(starts[index], starts[index + 1]! - 1));
  }

  #lines(): Uint32Array {
    if (this.#starts !== undefined) return this.#starts;
    const offsets = [0];
    if (this.#text === '') offsets.length = 0;
    for (let at = this.#text.indexOf('\n'); at !== -1; at = this.#text.indexOf('\n', at + 1))
      offsets.push(at + 1);
    offsets.push(this.#text.length + 1);
    return (this.#starts = Uint32Array.from(offsets));
  }
}

/** Every row of such a table at once, in one `JSON.parse`. */
export function parseLines(text: string): unknown[] {
  const trimmed = text.trim();
  return trimmed === '' ? [] : (JSON.parse(`[${trimmed.replaceAll('\n', ',')}]`) as unknown[]);
}
