import { DateTime } from 'luxon';
import { cities, isCityId } from '../../core/cities/index.ts';
import type { RideSummary } from './records.ts';

/**
 * Rider statistics (GET /user/stats/; spec 4.6 leaves them open, docs/riders.md defines them),
 * as pure arithmetic over a rider's ride summaries.
 *
 * - Every ride belongs to the calendar day on which it started where the rider was (its own
 *   `local_timezone`): a ride at 23:30 in Los Angeles is that day's ride, wherever the app is now.
 * - "Today" is the date now in the statistics' time zone: the `tz` query parameter, else the
 *   zone of the rider's most recent ride, else UTC. This week is Monday to Sunday around today,
 *   this month its calendar month.
 * - A streak is a run of consecutive days with at least one ride. The current streak ends today,
 *   or yesterday when there is no ride yet today (the day is not over); otherwise it is 0.
 * - Distances are metres, durations seconds, as in ride records; every ride counts, completed or
 *   not (`completed_rides` counts those finished).
 */

export interface Totals {
  rides: number;
  completed_rides: number;
  distance_traveled: number;
  duration_traveled: number;
}

export interface PeriodTotals extends Totals {
  /** First and last day of the period (ISO dates, inclusive). */
  from: string;
  to: string;
}

export interface CityTotals extends Totals {
  /** The covered city's id (`london`, `new-york`, `los-angeles`, `sf-bay`), or `other`. */
  city: string;
  name: string;
}

export interface RiderStats {
  time_zone: string;
  today: string;
  totals: Totals;
  this_week: PeriodTotals;
  this_month: PeriodTotals;
  longest_ride: { id: number; date_started: string; distance_traveled: number; duration_traveled: number; destination_name: string | null } | null;
  per_city: CityTotals[];
  streaks: {
    current_days: number;
    longest_days: number;
    /** The longest streak's first and last day; null without rides. The latest wins a tie. */
    longest_from: string | null;
    longest_to: string | null;
  };
}

const emptyTotals = (): Totals => ({ rides: 0, completed_rides: 0, distance_traveled: 0, duration_traveled: 0 });

function add(totals: Totals, ride: RideSummary): void {
  totals.rides++;
  if (ride.completed) totals.completed_rides++;
  totals.distance_traveled += ride.distance_traveled;
  totals.duration_traveled += ride.duration_traveled;
}

const rounded = <T extends Totals>(totals: T): T => ({
  ...totals,
  distance_traveled: Math.round(totals.distance_traveled * 10) / 10,
  duration_traveled: Math.round(totals.duration_traveled * 10) / 10,
});

/** The ISO date on which the ride started where the rider was. */
export function rideDay(ride: Pick<RideSummary, 'date_started' | 'local_timezone'>): string {
  const local = DateTime.fromISO(ride.date_started, { zone: ride.local_timezone });
  return (local.isValid ? local : DateTime.fromISO(ride.date_started, { zone: 'utc' })).toISODate()!;
}

const dayNumber = (isoDate: string): number => Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000;

export function riderStats(rides: readonly RideSummary[], atMs: number, requestedZone?: string): RiderStats {
  const latest = rides.reduce<RideSummary | null>((newest, ride) => (!newest || ride.date_started > newest.date_started ? ride : newest), null);
  const timeZone = requestedZone ?? latest?.local_timezone ?? 'UTC';
  const today = DateTime.fromMillis(atMs, { zone: timeZone });
  const todayIso = today.toISODate()!;
  const week = { from: today.startOf('week').toISODate()!, to: today.endOf('week').toISODate()! };
  const month = { from: today.startOf('month').toISODate()!, to: today.endOf('month').toISODate()! };

  const totals = emptyTotals();
  const thisWeek = emptyTotals();
  const thisMonth = emptyTotals();
  const perCity = new Map<string, Totals>();
  const days = new Set<string>();
  let longest: RideSummary | null = null;
  for (const ride of rides) {
    const day = rideDay(ride);
    days.add(day);
    add(totals, ride);
    if (day >= week.from && day <= week.to) add(thisWeek, ride);
    if (day >= month.from && day <= month.to) add(thisMonth, ride);
    const city = ride.city && isCityId(ride.city) ? ride.city : 'other';
    if (!perCity.has(city)) perCity.set(city, emptyTotals());
    add(perCity.get(city)!, ride);
    if (!longest || ride.distance_traveled > longest.distance_traveled) longest = ride;
  }

  const ordered = [...days].map(dayNumber).sort((a, b) => a - b);
  let longestRun = { length: 0, from: NaN, to: NaN };
  let runStart = NaN;
  for (let index = 0; index < ordered.length; index++) {
    if (index === 0 || ordered[index]! !== ordered[index - 1]! + 1) runStart = ordered[index]!;
    const length = ordered[index]! - runStart + 1;
    if (length >= longestRun.length) longestRun = { length, from: runStart, to: ordered[index]! };
  }
  const todayNumber = dayNumber(todayIso);
  let current = 0;
  const lastDay = ordered.at(-1);
  if (lastDay !== undefined && (lastDay === todayNumber || lastDay === todayNumber - 1)) {
    current = 1;
    for (let index = ordered.length - 1; index > 0 && ordered[index - 1] === ordered[index]! - 1; index--) current++;
  }
  const isoOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

  return {
    time_zone: timeZone,
    today: todayIso,
    totals: rounded(totals),
    this_week: rounded({ ...thisWeek, ...week }),
    this_month: rounded({ ...thisMonth, ...month }),
    longest_ride: longest
      ? {
          id: longest.ride_id,
          date_started: longest.date_started,
          distance_traveled: longest.distance_traveled,
          duration_traveled: longest.duration_traveled,
          destination_name: longest.destination_name,
        }
      : null,
    per_city: [...perCity.entries()]
      .map(([city, cityTotals]) => rounded({ city, name: isCityId(city) ? cities[city].name : 'Elsewhere', ...cityTotals }))
      .sort((a, b) => b.distance_traveled - a.distance_traveled || a.city.localeCompare(b.city)),
    streaks: {
      current_days: current,
      longest_days: longestRun.length,
      longest_from: longestRun.length ? isoOf(longestRun.from) : null,
      longest_to: longestRun.length ? isoOf(longestRun.to) : null,
    },
  };
}
