import { IANAZone } from 'luxon';
import { z } from 'zod';
import { cityForCoordinate } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { decodeRoute, isEncodedPolyline } from '../events/geometry.ts';
import { nowMs } from '../../platform/clock.ts';

/**
 * The body of POST /user/routes/ (docs/riders.md): a finished (or abandoned) ride as the rider's
 * app recorded it. Times are ISO 8601 with an offset; the stored `date_started` is the same
 * instant in UTC, and `local_timezone` says where the rider was.
 */

export const MAX_POLYLINE_CHARACTERS = 100_000;
export const MAX_POLYLINE_POINTS = 20_000;
/** A day's ride at most: 1,000 km, 48 hours. */
export const MAX_RIDE_METRES = 1_000_000;
export const MAX_RIDE_SECONDS = 48 * 60 * 60;
/** Clocks differ: a start this far ahead of the server's clock is still accepted. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
const EARLIEST_START = Date.parse('2000-01-01T00:00:00Z');

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

/** `[longitude, latitude]` points of an encoded polyline (precision 5, as events' routes), or null when it is not one. */
export function decodePolyline(encoded: string): LonLat[] | null {
  if (!isEncodedPolyline(encoded)) return null;
  try {
    const points = decodeRoute(encoded);
    const valid = points.every(([longitude, latitude]) => Number.isFinite(longitude) && Number.isFinite(latitude) && Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90);
    return valid ? points : null;
  } catch {
    return null;
  }
}

export const newRideBody = z
  .object({
    polyline: z
      .string({ error: 'required: the route ridden, an encoded polyline (precision 5)' })
      .min(1, 'required: the route ridden, an encoded polyline (precision 5)')
      .max(MAX_POLYLINE_CHARACTERS, `must be at most ${MAX_POLYLINE_CHARACTERS} characters`),
    date_started: z.iso.datetime({ offset: true, error: 'required: ISO 8601 date and time with a time zone offset or Z, e.g. 2026-11-24T08:30:00Z' }),
    local_timezone: z
      .string()
      .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone, e.g. Europe/London')
      .optional(),
    distance_traveled: z.number({ error: 'required: metres ridden' }).min(0, 'must be at least 0').max(MAX_RIDE_METRES, `must be at most ${MAX_RIDE_METRES} metres`),
    duration_traveled: z.number({ error: 'required: seconds ridden' }).min(0, 'must be at least 0').max(MAX_RIDE_SECONDS, `must be at most ${MAX_RIDE_SECONDS} seconds`),
    completed: z.boolean().default(true),
    destination_name: optionalText(200),
    destination_address: optionalText(300),
    event_id: z.number().int('must be an integer').positive('must be a positive integer').nullish().transform((value) => value ?? null),
  })
  .strict()
  .transform((body, context) => {
    const points = decodePolyline(body.polyline);
    if (!points || points.length < 2 || points.length > MAX_POLYLINE_POINTS) {
      context.addIssue({ code: 'custom', path: ['polyline'], message: `must be an encoded polyline (precision 5) of 2 to ${MAX_POLYLINE_POINTS} points in range` });
      return z.NEVER;
    }
    const started = Date.parse(body.date_started);
    if (started > nowMs() + FUTURE_TOLERANCE_MS || started < EARLIEST_START) {
      context.addIssue({ code: 'custom', path: ['date_started'], message: 'must be between 2000 and now' });
      return z.NEVER;
    }
    const start = points[0]!;
    return {
      ...body,
      date_started: new Date(started).toISOString(),
      // The zone the rider was in: as sent, else the covered city's where the ride started, else UTC.
      local_timezone: body.local_timezone ?? cityForCoordinate(start)?.timeZone ?? 'UTC',
      start,
    };
  });

export type NewRide = z.output<typeof newRideBody>;

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 50;
const MAX_PAGE = 10_000;

const wholeNumber = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number`)
    .transform(Number)
    .refine((value) => value >= 1, `must be at least 1`)
    .refine((value) => value <= max, `must be at most ${max}${name === 'limit' ? ' (the largest page)' : ''}`);

/** The query of GET {app_base_url}/user/routes/?page=&limit=: a page of the rider's history, newest first. */
export const rideHistoryQuery = z.object({
  page: wholeNumber('page', MAX_PAGE).default(1),
  limit: wholeNumber('limit', MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

/** The query of GET {app_base_url}/user/stats/?tz=: the time zone "today" and "this week" are counted in (stats.ts). */
export const riderStatsQuery = z.object({
  tz: z
    .string()
    .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone, e.g. America/New_York')
    .optional(),
});
