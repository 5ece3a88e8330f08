import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The one clock for everything that decides by time: consent requests, codes, tokens, sign-in
 * codes, rate windows. Code reads the time here instead of calling `Date.now()` itself, so tests
 * can move time for one request without sleeping.
 *
 * Moving time is per request, not global: the local platform's gateway runs a request inside
 * `withClockOffset` when it was started with `SPOKE_TEST_CLOCK=1` and the request carries
 * `X-Spoke-Test-Clock-Offset` (seconds), or `withClockAt` when it carries `X-Spoke-Test-Clock-At`
 * (an instant). A global offset would leak into every other test
 * running against the same platform at the same moment. Nothing in AWS ever sets an offset.
 */

/** How a test moved the clock for the work it runs: by an offset (the clock runs on), or stopped at one instant. */
export type MovedClock = { readonly offsetMs: number } | { readonly stoppedAtMs: number };

const moved = new AsyncLocalStorage<MovedClock>();

export function nowMs(): number {
  const clock = moved.getStore();
  if (!clock) return Date.now();
  return 'stoppedAtMs' in clock ? clock.stoppedAtMs : Date.now() + clock.offsetMs;
}

export function now(): Date {
  return new Date(nowMs());
}

/** Whole Unix seconds, as JWT claims and DynamoDB TTL attributes count them. */
export function nowSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

/** Runs `work` as if the clock read `offsetMs` later. Only the local platform's gateway and tests call this. */
export function withClockOffset<T>(offsetMs: number, work: () => T): T {
  return moved.run({ offsetMs }, work);
}

/**
 * Runs `work` as if the clock read `instantMs` as it starts (and ran on from there), so a caller
 * names the instant it means without reading the wall clock itself.
 */
export function withClockAt<T>(instantMs: number, work: () => T): T {
  return moved.run({ offsetMs: instantMs - Date.now() }, work);
}

/**
 * Runs `work` with the clock reading `instantMs` throughout. For a test that asserts what is
 * decided at one exact instant, such as the last millisecond a cache entry is fresh: with
 * `withClockAt` the clock runs on, so on a loaded machine the decision can fall a millisecond or
 * more after the instant the test names, past the boundary it checks.
 */
export function withClockStoppedAt<T>(instantMs: number, work: () => T): T {
  return moved.run({ stoppedAtMs: instantMs }, work);
}

/**
 * How the clock is moved for the work running now (undefined when it is not): the local platform
 * hands it to the thread that runs a city's routing function, which runs the invocation under it
 * with `withMovedClock`, so a test's clock reaches the router as it does in one process.
 */
export function movedClock(): MovedClock | undefined {
  return moved.getStore();
}

/** Runs `work` under a clock moved as another thread's `movedClock` reported. */
export function withMovedClock<T>(clock: MovedClock, work: () => T): T {
  return moved.run(clock, work);
}
