import { describe, expect, it } from 'vitest';
import { currentUsage, decide, expiryOf } from '../../functions/ratelimit/windows.ts';

const limits = { perMinute: 10, perHour: 100, perDay: 1000 };
const noon = Date.UTC(2026, 10, 21, 12, 0, 0) / 1000;

describe('rate-limit windows', () => {
  it('opens fresh windows aligned to the minute, hour and day', () => {
    const usage = currentUsage(undefined, noon + 75.5);
    expect(usage.minute).toEqual({ start: noon + 60, used: 0 });
    expect(usage.hour).toEqual({ start: noon, used: 0 });
    expect(usage.day).toEqual({ start: noon - 12 * 3600, used: 0 });
  });

  it('takes the whole cost from every window or nothing', () => {
    const first = decide(undefined, limits, 8, noon);
    expect(first.allowed).toBe(true);
    expect(first.report).toEqual({ limit: 10, remaining: 2, reset: noon + 60 });
    const refused = decide(first.usage, limits, 3, noon + 10);
    expect(refused.allowed).toBe(false);
    expect(refused.usage.minute.used).toBe(8);
    expect(refused.usage.hour.used).toBe(8);
    expect(refused.retryAfterSeconds).toBe(50);
    expect(refused.report.remaining).toBe(2);
  });

  it('forgets a window once it has passed but keeps the longer ones', () => {
    const first = decide(undefined, limits, 10, noon);
    const nextMinute = decide(first.usage, limits, 1, noon + 60);
    expect(nextMinute.allowed).toBe(true);
    expect(nextMinute.usage.minute.used).toBe(1);
    expect(nextMinute.usage.hour.used).toBe(11);
  });

  it('reports the tightest window and flags a cost no window can ever hold', () => {
    const tight = { perMinute: 10, perHour: 12, perDay: 1000 };
    const first = decide(undefined, tight, 10, noon);
    const second = decide(first.usage, tight, 1, noon + 60);
    expect(second.report).toEqual({ limit: 12, remaining: 1, reset: noon + 3600 });
    const huge = decide(undefined, tight, 24, noon);
    expect(huge.allowed).toBe(false);
    expect(huge.exceedsWindow).toEqual({ kind: 'minute', limit: 10 });
  });

  it('lets a bucket expire only after its day window is over', () => {
    const usage = currentUsage(undefined, noon);
    expect(expiryOf(usage)).toBeGreaterThanOrEqual(usage.day.start + 86_400);
  });
});
