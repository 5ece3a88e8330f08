/**
 * Wall-clock time arithmetic for time rules. A city's closures and time-limited restrictions are
 * compiled to, and evaluated at, local wall-clock minutes: the wall clock in the city's zone read
 * as if it were UTC, so a rule written "Mo-Fr 07:00-10:00" means the same minutes all year, across
 * daylight-saving changes.
 */

export const MINUTES_PER_DAY = 24 * 60;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** Local wall-clock minutes since 1970-01-01T00:00 for a wall-clock time in the city's zone. */
export function localMinutes(year: number, month: number, day: number, hour: number, minute: number): number {
  return Date.UTC(year, month - 1, day, hour, minute) / 60_000;
}

/** Minute of the local week (Monday 00:00 = 0) of a {@link localMinutes} value. */
export function minuteOfWeek(localMinuteValue: number): number {
  // 1970-01-01 was a Thursday: day 3 of a Monday-based week.
  const days = Math.floor(localMinuteValue / MINUTES_PER_DAY);
  return (((days + 3) % 7) + 7) % 7 * MINUTES_PER_DAY + (localMinuteValue - days * MINUTES_PER_DAY);
}
