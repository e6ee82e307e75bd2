/**
 * Where `requestLimit` and `requestRepeat` keep their state. Both operations are atomic: under
 * any concurrency, exactly `limit` calls in a window are allowed.
 */
export interface Store {
  /**
   * Counts a call for `key`: `true` (limited) when `limit` calls were already allowed in the
   * window, without touching it; otherwise counts it, moves the window's end to now +
   * `seconds`, and returns `false`.
   */
  limit(key: string, limit: number, seconds: number): Promise<boolean>;
  /**
   * `true` when `value` is what was stored for `key`; otherwise stores it and returns `false`.
   * A value is what a client sent, up to a body's size: the stores of Course keep its SHA-256.
   */
  repeat(key: string, value: string, seconds: number): Promise<boolean>;
  /** Releases connections. */
  close?(): Promise<void>;
}
