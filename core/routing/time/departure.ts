import { DateTime } from 'luxon';
import { getTimes } from 'suncalc';
import { localMinutes } from '../../local-time.ts';

/**
 * The departure as the router uses it: an instant, and the same moment as local wall-clock
 * minutes in the route city's zone (what closures and time-limited restrictions are compiled to).
 */

export interface Departure {
  instant: DateTime;
  localMinute: number;
}

/** `YYYY-MM-DDTHH:mm` read in the city's zone (spec 4.1), or `now` (the caller's clock: the engine keeps none). */
export function departureIn(timeZone: string, departureTime: string | undefined, now: Date): Departure {
  const instant = departureTime
    ? DateTime.fromISO(departureTime, { zone: timeZone })
    : DateTime.fromJSDate(now, { zone: timeZone });
  if (!instant.isValid) throw new Error(`Unreadable departure time ${departureTime}`);
  return { instant, localMinute: localMinutes(instant.year, instant.month, instant.day, instant.hour, instant.minute) };
}

/** Night for routing: from 30 minutes after sunset to 30 minutes before sunrise (spec 1.2.2). */
export const NIGHT_MARGIN_MINUTES = 30;

export function isNight(instant: DateTime, longitude: number, latitude: number): boolean {
  const margin = NIGHT_MARGIN_MINUTES * 60_000;
  const at = instant.toMillis();
  // The sun times of the local calendar day; noon avoids suncalc's UTC-day edge effects.
  const noon = instant.set({ hour: 12, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const times = getTimes(noon, latitude, longitude);
  const sunrise = times.sunrise?.getTime() ?? Number.NaN;
  const sunset = times.sunset?.getTime() ?? Number.NaN;
  // Polar day or night: suncalc answers NaN; neither happens in the covered cities.
  if (Number.isNaN(sunrise) || Number.isNaN(sunset)) return false;
  return at < sunrise - margin || at > sunset + margin;
}
