import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefreshedValue } from '../../platform/refreshed-value.ts';

/**
 * A value a warm container keeps: refreshed in the background once its interval has passed, or,
 * where a bound on staleness is promised (the report overlay), waited for, so no caller gets a value
 * read longer than the interval before it asked. The clock is Vitest's, moved by hand.
 */

const describe_ = { message: 'refresh failed', fields: {} };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-06-15T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

/** Lets the promise callbacks queued so far run (a background refresh completes). */
const settle = async () => {
  for (let tick = 0; tick < 10; tick++) await Promise.resolve();
};

/** A source whose reads answer 1, 2, 3 …, or fail while `failing`. */
function source() {
  let reads = 0;
  const state = { failing: false };
  const load = async () => {
    if (state.failing) throw new Error('unreachable');
    return ++reads;
  };
  return { load, state };
}

describe('RefreshedValue', () => {
  it('in the background: the caller after the interval still gets the old value, the next the new one', async () => {
    const { load } = source();
    const value = new RefreshedValue(load, () => 20_000, describe_);
    expect(await value.get()).toBe(1);
    vi.setSystemTime(new Date('2026-06-15T12:00:21Z'));
    expect(await value.get()).toBe(1);
    await settle();
    expect(await value.get()).toBe(2);
  });

  it('waiting for the refresh: the caller after the interval gets the value read then, and callers meanwhile wait too', async () => {
    const { load } = source();
    const value = new RefreshedValue(load, () => 20_000, describe_, { waitForRefresh: true });
    expect(await value.get()).toBe(1);
    vi.setSystemTime(new Date('2026-06-15T12:00:10Z'));
    expect(await value.get()).toBe(1);
    vi.setSystemTime(new Date('2026-06-15T12:00:21Z'));
    const [first, second] = await Promise.all([value.get(), value.get()]);
    expect([first, second]).toEqual([2, 2]);
  });

  it('waiting for the refresh: a failed read keeps the value it had', async () => {
    const { load, state } = source();
    const value = new RefreshedValue(load, () => 20_000, describe_, { waitForRefresh: true });
    expect(await value.get()).toBe(1);
    state.failing = true;
    vi.setSystemTime(new Date('2026-06-15T12:00:21Z'));
    expect(await value.get()).toBe(1);
    state.failing = false;
    vi.setSystemTime(new Date('2026-06-15T12:00:42Z'));
    expect(await value.get()).toBe(2);
  });
});
