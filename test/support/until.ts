import { setTimeout as sleep } from 'node:timers/promises';

/** What a truthy answer of `probe` can be. */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Polls `probe` every `intervalMs` until it answers something truthy, and answers that; throws
 * after `timeoutMs`. Elapsed time is read on the monotonic clock (`performance.now()`), which a
 * faked or moved wall clock never touches: the bound is how long the test waited, never the
 * hour. Bounds are generous, so a busy machine only makes a test slower.
 */
export async function until<T>(probe: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 10): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}
