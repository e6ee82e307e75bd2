/** The JavaScript runtime running this code, as its users name it. */
export function runtimeName(): 'Cloudflare Workers' | 'Deno' | 'Bun' | 'Node' {
  const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (agent === 'Cloudflare-Workers') return 'Cloudflare Workers';
  if ('Deno' in globalThis) return 'Deno';
  if ('Bun' in globalThis) return 'Bun';
  return 'Node';
}

/**
 * Throws one line naming the runtime, what it lacks and what to use instead, when `feature`
 * is used on one of `runtimes`: never a failure deep inside a polyfill.
 */
export function unavailableOn(
  runtimes: readonly ReturnType<typeof runtimeName>[],
  feature: string,
  instead: string,
): void {
  const name = runtimeName();
  if (runtimes.includes(name))
    throw new Error(`course: ${feature} is not available on ${name}: ${instead}`);
}
