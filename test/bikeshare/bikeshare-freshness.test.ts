import { describe, expect, it } from 'vitest';
import { FeedRefused } from '../../functions/bikeshare/feed-values.ts';
import { freshnessPolicyFromEnvironment, judgeStamp } from '../../functions/bikeshare/ingest.ts';
import type { FeedStamp } from '../../functions/bikeshare/model.ts';

/** When a feed document may replace the stored one, judged on its own timestamps and an explicit clock. */

const T = Date.UTC(2024, 9, 2, 19, 1, 26) / 1000;
const live = { maxStatusLagSeconds: 600 };
const replay = { maxStatusLagSeconds: null };
const stored = (lastUpdated: number): FeedStamp => ({ last_updated: lastUpdated, ttl: 60, version: '1.1', fetched_at: lastUpdated + 5, url: 'http://feeds/x' });

const refusal = (work: () => unknown): FeedRefused => {
  try {
    work();
  } catch (error) {
    if (error instanceof FeedRefused) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('judging a feed by its own timestamps', () => {
  it('accepts a newer document and reports an identical one as unchanged', () => {
    expect(judgeStamp('station_status', { last_updated: T + 60, ttl: 60 }, stored(T), T + 70, live)).toBe('accept');
    expect(judgeStamp('station_status', { last_updated: T, ttl: 60 }, stored(T), T + 70, live)).toBe('unchanged');
  });

  it('refuses a document older than the stored one, live or replayed', () => {
    for (const policy of [live, replay]) {
      const refused = refusal(() => judgeStamp('station_status', { last_updated: T - 1, ttl: 60 }, stored(T), T + 70, policy));
      expect(refused.kind).toBe('stale');
      expect(refused.message).toMatch(/older than the stored/);
    }
  });

  it('refuses an availability feed that overran last_updated + ttl by more than the allowed lag', () => {
    // last_updated + ttl + 600 s is the last acceptable moment.
    expect(judgeStamp('station_status', { last_updated: T, ttl: 60 }, undefined, T + 660, live)).toBe('accept');
    const refused = refusal(() => judgeStamp('station_status', { last_updated: T, ttl: 60 }, undefined, T + 661, live));
    expect(refused).toMatchObject({ kind: 'stale', feed: 'station_status' });
    expect(refused.message).toMatch(/601 s overdue/);
    expect(refusal(() => judgeStamp('vehicle_status', { last_updated: T, ttl: 300 }, undefined, T + 901, live)).kind).toBe('stale');
  });

  it('refuses an availability feed dated in the future beyond clock tolerance', () => {
    expect(judgeStamp('station_status', { last_updated: T + 300, ttl: 60 }, undefined, T, live)).toBe('accept');
    expect(refusal(() => judgeStamp('station_status', { last_updated: T + 301, ttl: 60 }, undefined, T, live)).message).toMatch(/in the future/);
  });

  it('never ages descriptive feeds: old station information is still the best information', () => {
    expect(judgeStamp('station_information', { last_updated: T, ttl: 60 }, undefined, T + 86_400 * 365, live)).toBe('accept');
    expect(judgeStamp('geofencing_zones', { last_updated: T, ttl: 3600 }, undefined, T + 86_400, live)).toBe('accept');
  });

  it('replays recordings as fresh relative to their own time', () => {
    expect(judgeStamp('station_status', { last_updated: T, ttl: 60 }, undefined, T + 86_400 * 365, replay)).toBe('accept');
  });

  it('reads the policy from the environment', () => {
    expect(freshnessPolicyFromEnvironment({})).toEqual({ maxStatusLagSeconds: 600 });
    expect(freshnessPolicyFromEnvironment({ BIKESHARE_MAX_STATUS_LAG_SECONDS: 'off' })).toEqual({ maxStatusLagSeconds: null });
    expect(freshnessPolicyFromEnvironment({ BIKESHARE_MAX_STATUS_LAG_SECONDS: '120' })).toEqual({ maxStatusLagSeconds: 120 });
    expect(() => freshnessPolicyFromEnvironment({ BIKESHARE_MAX_STATUS_LAG_SECONDS: 'soon' })).toThrow(/whole number/);
  });
});
