import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unwatch, watch } from '../../runtime/http/watchdog.js';

describe('watch and unwatch', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('expire each read past its time, and only those still watched', () => {
    const expired: string[] = [];
    const a = watch(1000, () => expired.push('a'));
    const b = watch(1000, () => expired.push('b'));
    watch(3000, () => expired.push('c'));
    unwatch(a);
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual(['b']);
    // A late `unwatch` of an expired read frees nothing a later read holds.
    const d = watch(500, () => expired.push('d'));
    unwatch(b);
    vi.advanceTimersByTime(500);
    expect(expired).toEqual(['b', 'd']);
    unwatch(d);
    vi.advanceTimersByTime(1500);
    expect(expired).toEqual(['b', 'd', 'c']);
  });

  it('reuse the places of reads that ended: as many as were ever watched at once', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const first = watch(60_000, () => {});
      const second = watch(60_000, () => {});
      seen.add(first.slot).add(second.slot);
      unwatch(second);
      unwatch(first);
    }
    expect(seen.size).toBeLessThanOrEqual(2);
  });

  it('wait for a read watched for less than the one the timer waits for', () => {
    const expired: string[] = [];
    const long = watch(10_000, () => expired.push('long'));
    watch(100, () => expired.push('short'));
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['short']);
    unwatch(long);
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual(['short']);
  });
});
