import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { cities } from '../../core/cities/index.ts';
import { eventFlags } from '../../functions/events/model.ts';
import { SEED_EVENTS, seedEventTimes } from '../../lib/local/event-seeds.ts';

/**
 * The demo's group rides, seeded at any hour of the year: each keeps its day and time in its
 * city's local time, and lands in the group it was written for (coming up, happening now, over).
 */

const HOUR_MS = 3_600_000;
/** Every 7 hours through a year from a Monday: every hour of the day and day of the week, both clock changes of every zone. */
const seedTimes = Array.from({ length: (366 * 24) / 7 }, (_, index) => Date.UTC(2026, 0, 5, 0, 17) + index * 7 * HOUR_MS);
const groupRides = SEED_EVENTS.filter((seed) => seed.schedule);

describe('the demo group rides', () => {
  it('include rides coming up in every city, and rides happening now and over in the demo', () => {
    for (const city of Object.keys(cities)) expect(groupRides.some((seed) => seed.city === city && seed.schedule!.group === 'coming up'), city).toBe(true);
    expect(new Set(groupRides.map((seed) => seed.schedule!.group))).toEqual(new Set(['coming up', 'ended', 'festival']));
  });

  it('start on their weekday at their local time, coming up or over as written, at any seed time', () => {
    for (const seed of groupRides) {
      const schedule = seed.schedule!;
      if (schedule.group === 'festival') continue;
      for (const nowMs of seedTimes) {
        const times = seedEventTimes(seed, nowMs);
        const start = DateTime.fromISO(times.start_time!, { zone: cities[seed.city].timeZone });
        expect({ weekday: start.weekday, hour: start.hour, minute: start.minute }, `${seed.key} at ${new Date(nowMs).toISOString()}`).toEqual({ weekday: schedule.weekday, ...schedule.at });
        expect(Date.parse(times.end_time!) - Date.parse(times.start_time!)).toBe(schedule.hours * HOUR_MS);
        const flags = eventFlags({ ...times, archived_at: null }, nowMs);
        expect(flags.is_future, `${seed.key} at ${new Date(nowMs).toISOString()}`).toBe(schedule.group === 'coming up');
        expect(flags.is_happening_now).toBe(false);
        const weeksFromNow = Math.abs(Date.parse(times.start_time!) - nowMs) / (7 * 24 * HOUR_MS);
        // Within its week (a day more across a change of the clocks).
        expect(weeksFromNow).toBeLessThan(1 + (schedule.weeksAway ?? 0) + 1 / 7);
      }
    }
  });

  it('run their festivals through the seed time, from 9am local time to 9pm on a later day', () => {
    for (const seed of groupRides.filter((candidate) => candidate.schedule!.group === 'festival')) {
      for (const nowMs of seedTimes) {
        const times = seedEventTimes(seed, nowMs);
        expect(eventFlags({ ...times, archived_at: null }, nowMs).is_happening_now, `${seed.key} at ${new Date(nowMs).toISOString()}`).toBe(true);
        const zone = cities[seed.city].timeZone;
        expect(DateTime.fromISO(times.start_time!, { zone }).toFormat('HH:mm')).toBe('09:00');
        expect(DateTime.fromISO(times.end_time!, { zone }).toFormat('HH:mm')).toBe('21:00');
      }
    }
  });

  it('leave leisure routes untimed', () => {
    for (const seed of SEED_EVENTS.filter((candidate) => !candidate.schedule)) expect(seedEventTimes(seed, seedTimes[0]!)).toEqual({ start_time: null, end_time: null });
  });
});
