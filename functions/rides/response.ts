import { z } from 'zod';
import { eventView } from '../events/response.ts';

/**
 * Ride history and statistics as the API shows them (spec 2.2, 4.6; docs/riders.md), as zod
 * schemas for the OpenAPI documents (functions/openapi/), the handlers' result types and the
 * contract tests.
 */

const isoTime = z.string().meta({ description: 'ISO 8601.' });
const isoDate = z.string().meta({ description: 'A day, `YYYY-MM-DD`.' });

export const rideRecord = z
  .object({
    id: z.int(),
    date_started: isoTime,
    local_timezone: z.string().meta({ description: 'IANA time zone.' }),
    polyline: z.string().meta({ description: 'Encoded polyline, precision 5.' }),
    destination_name: z.string().nullable(),
    destination_address: z.string().nullable(),
    distance_traveled: z.number().meta({ description: 'Metres.' }),
    duration_traveled: z.number().meta({ description: 'Seconds.' }),
    completed: z.boolean(),
    event: eventView.nullable(),
    weather_conditions: z.array(z.string()),
    temperature: z.number().nullable().meta({ description: 'Degrees Fahrenheit; null when the weather could not be had.' }),
    wind_speed: z.number().nullable().meta({ description: 'mph.' }),
    weather_fetched_at: isoTime.nullable(),
    weather_display: z.string().nullable(),
    images: z.array(z.object({ image_url: z.string(), created_at: isoTime })).meta({ description: 'At most the 50 most recent.' }),
    welcome_message: z.string().nullable(),
  })
  .meta({ id: 'Ride' });

export const ridePage = z
  .object({
    routes: z.array(rideRecord).meta({ description: 'Newest `date_started` first.' }),
    page: z.int().min(1),
    limit: z.int().min(1),
    has_more: z.boolean(),
  })
  .meta({ id: 'RidePage' });

const totals = {
  rides: z.int().min(0),
  completed_rides: z.int().min(0),
  distance_traveled: z.number().meta({ description: 'Metres.' }),
  duration_traveled: z.number().meta({ description: 'Seconds.' }),
};
const period = z.object({ ...totals, from: isoDate, to: isoDate });

export const riderStatsResponse = z
  .object({
    time_zone: z.string(),
    today: isoDate,
    totals: z.object(totals),
    this_week: period,
    this_month: period,
    longest_ride: z
      .object({ id: z.int(), date_started: isoTime, distance_traveled: z.number(), duration_traveled: z.number(), destination_name: z.string().nullable() })
      .nullable(),
    per_city: z.array(z.object({ ...totals, city: z.string().meta({ description: 'A covered city id, or `other`.' }), name: z.string() })),
    streaks: z.object({ current_days: z.int().min(0), longest_days: z.int().min(0), longest_from: isoDate.nullable(), longest_to: isoDate.nullable() }),
  })
  .meta({ id: 'RiderStats', description: 'Spec 4.6 leaves the statistics open; docs/riders.md defines them.' });
