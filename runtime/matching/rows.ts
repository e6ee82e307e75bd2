/**
 * The generated module keeps its tables as JSON text: a JavaScript engine reads a string
 * literal and `JSON.parse` far faster than the same data written as object literals, and
 * per-route objects are built on first use. These functions turn that text into the shapes
 * the matcher and dispatch use.
 */

/**
 * Rows of a table stored as JSON text, one per line, each parsed (and made into a `T`) when
 * first asked for; the line offsets are taken on first use.
 */
export class Rows<T> {
  readonly length: number;
  readonly #text: string;
  readonly #make: (row: never) => T;
  readonly #items: (T | undefined)[];
  #starts: Uint32Array | undefined;

  constructor(text: string, count: number, make: (row: never) => T) {
    this.length = count;
    this.#text = text;
    this.#make = make;
    this.#items = new Array<T | undefined>(count);
  }

  /** The row at `index`. */
  at(index: number): T {
    let item = this.#items[index];
    if (item === undefined) item = this.#items[index] = this.#make(this.#parse(index) as never);
    return item;
  }

  #parse(index: number): unknown {
    if (this.#starts === undefined) {
      const starts = new Uint32Array(this.length + 1);
      let at = 0;
      for (let i = 1; i < this.length; i++) starts[i] = at = this.#text.indexOf('\n', at) + 1;
      starts[this.length] = this.#text.length + 1;
      this.#starts = starts;
    }
    return JSON.parse(this.#text.slice(this.#starts[index], this.#starts[index + 1]! - 1));
  }
}
