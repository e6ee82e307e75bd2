// Deadlines of the body reads in progress, kept by one timer for all of them: a timer per
// request costs (10 µs to set and clear on Deno), where most reads end long before it fires.

/** A read being watched; `unwatch` it once it ends. */
export interface Watched {
  readonly until: number;
  readonly expire: () => void;
}

const watched = new Set<Watched>();
let timer: ReturnType<typeof setTimeout> | undefined;
let armedFor = Infinity;

/** Calls `expire` in `ms` unless `unwatch` comes first. */
export function watch(ms: number, expire: () => void): Watched {
  const entry = { until: Date.now() + ms, expire };
  watched.add(entry);
  if (entry.until < armedFor) arm(entry.until);
  return entry;
}

export function unwatch(entry: Watched): void {
  watched.delete(entry);
}

// --- internal ---

// The timer is left to fire even when every read ended: clearing it costs as much as setting
// it. When it fires, it expires what is due and waits for the earliest deadline left, if any.
function arm(until: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedFor = until;
  timer = setTimeout(sweep, Math.max(0, until - Date.now()));
  // A process with nothing else to do is not kept alive for it.
  if (typeof timer === 'object') (timer as { unref?: () => void }).unref?.();
  else (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno?.unrefTimer?.(timer);
}

function sweep(): void {
  timer = undefined;
  armedFor = Infinity;
  const now = Date.now();
  let next = Infinity;
  for (const entry of watched) {
    if (entry.until <= now) {
      watched.delete(entry);
      entry.expire();
    } else if (entry.until < next) next = entry.until;
  }
  if (next !== Infinity) arm(next);
}
