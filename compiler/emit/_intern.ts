/**
 * A list of distinct values, each added once and then referred to by its position: how the
 * generated code shares one module constant per regex and per table of characters.
 */
export class Interned<T> {
  readonly values: T[] = [];
  readonly #positions = new Map<string, number>();

  /** The position of `value` (equal values by their JSON), added if new. */
  add(value: T): number {
    const key = JSON.stringify(value);
    let position = this.#positions.get(key);
    if (position === undefined) this.#positions.set(key, (position = this.values.push(value) - 1));
    return position;
  }
}
