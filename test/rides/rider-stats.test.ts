import { describe, expect, it } from 'vitest';
import type { RideSummary } from '../../functions/rides/records.ts';
import { rideDay, riderStats } from '../../functions/rides/stats.ts';

/** Rider statistics (functions/rides/stats.ts) on hand-made histories, at fixed times. */

let nextId = 1;
const ride = (date_started: string, overrides: Partial<RideSummary> = {}): RideSummary => ({
  ride_id: nextId++,
  date_started,
  local_timezone: 'Europe/London',
  distance_traveled: 5_000,
  duration_traveled: 1_200,
  completed: true,
  city: 'london',
  destination_name: null,
  ...overrides,
});

// Wednesday 2026-03-11, 12:00 UTC.
const WEDNESDAY_NOON = Date.parse('2026-03-11T12:00:00Z');

describe('rider statistics', () => {
  it('are all zero without rides', () => {
    const stats = riderStats([], WEDNESDAY_NOON);
    expect(stats).toMatchObject({
      time_zone: 'UTC',
      today: '2026-03-11',
      totals: { rides: 0, completed_rides: 0, distance_traveled: 0, duration_traveled: 0 },
      this_week: { from: '2026-03-09', to: '2026-03-15', rides: 0 },
      this_month: { from: '2026-03-01', to: '2026-03-31', rides: 0 },
      longest_ride: null,
      per_city: [],
      streaks: { current_days: 0, longest_days: 0, longest_from: null, longest_to: null },
    });
  });

  it('add up totals, this week (Monday to Sunday) and this month, and find the longest ride', () => {
    const rides = [
      ride('2026-02-28T09:00:00Z'),
      ride('2026-03-02T09:00:00Z', { distance_traveled: 20_000, duration_traveled: 4_000, destination_name: 'Richmond Park' }),
      ride('2026-03-08T23:30:00Z'), // Sunday night in London: last week
      ride('2026-03-09T07:00:00Z', { completed: false }),
      ride('2026-03-11T08:00:00Z', { city: 'new-york', local_timezone: 'America/New_York', distance_traveled: 3_000.25 }),
    ];
    const stats = riderStats(rides, WEDNESDAY_NOON, 'Europe/London');
    expect(stats.totals).toEqual({ rides: 5, completed_rides: 4, distance_traveled: 38_000.3, duration_traveled: 8_800 });
    expect(stats.this_week).toEqual({ from: '2026-03-09', to: '2026-03-15', rides: 2, completed_rides: 1, distance_traveled: 8_000.3, duration_traveled: 2_400 });
    expect(stats.this_month).toMatchObject({ from: '2026-03-01', to: '2026-03-31', rides: 4 });
    expect(stats.longest_ride).toEqual({ id: rides[1]!.ride_id, date_started: '2026-03-02T09:00:00Z', distance_traveled: 20_000, duration_traveled: 4_000, destination_name: 'Richmond Park' });
    expect(stats.per_city).toEqual([
      { city: 'london', name: 'London', rides: 4, completed_rides: 3, distance_traveled: 35_000, duration_traveled: 7_600 },
      { city: 'new-york', name: 'New York City', rides: 1, completed_rides: 1, distance_traveled: 3_000.3, duration_traveled: 1_200 },
    ]);
  });

  it("count a ride on the day it started where the rider was, and 'today' in the zone asked for", () => {
    // 23:30 in Los Angeles on 10 March is 06:30 UTC on 11 March.
    const late = ride('2026-03-11T06:30:00Z', { local_timezone: 'America/Los_Angeles', city: 'los-angeles' });
    expect(rideDay(late)).toBe('2026-03-10');
    // At 01:00 UTC on Monday 16 March it is still Sunday 15 March in Los Angeles.
    const mondayOneAm = Date.parse('2026-03-16T01:00:00Z');
    expect(riderStats([late], mondayOneAm, 'America/Los_Angeles').this_week).toMatchObject({ from: '2026-03-09', rides: 1 });
    expect(riderStats([late], mondayOneAm, 'Europe/London').this_week).toMatchObject({ from: '2026-03-16', rides: 0 });
    // Without `tz`, the zone of the latest ride.
    expect(riderStats([ride('2026-03-01T10:00:00Z'), late], mondayOneAm).time_zone).toBe('America/Los_Angeles');
  });

  it('measure streaks of consecutive riding days; the current one survives until a whole day passes', () => {
    const days = ['2026-02-20', '2026-02-21', '2026-02-22', '2026-02-23', '2026-03-01', '2026-03-09', '2026-03-10', '2026-03-10'];
    const rides = days.map((day) => ride(`${day}T10:00:00Z`));
    const stats = riderStats(rides, WEDNESDAY_NOON, 'Europe/London');
    expect(stats.streaks).toEqual({ current_days: 2, longest_days: 4, longest_from: '2026-02-20', longest_to: '2026-02-23' });
    expect(riderStats([...rides, ride('2026-03-11T09:00:00Z')], WEDNESDAY_NOON, 'Europe/London').streaks.current_days).toBe(3);
    // Thursday: no ride since Tuesday, so the current streak is over.
    expect(riderStats(rides, Date.parse('2026-03-12T12:00:00Z'), 'Europe/London').streaks.current_days).toBe(0);
  });
});
