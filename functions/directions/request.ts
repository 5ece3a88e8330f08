import { DateTime } from 'luxon';
import { z } from 'zod';
import { baseLanguage } from '../../core/language.ts';
import { PROFILES } from '../../core/graph/profiles.ts';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import type { RoutePreferences } from '../../core/routing/planning/planner.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';

/** Request body of POST /directions/v2/ (spec 4.1), one rule per field of the spec's table. */

export const MIN_COORDINATES = 2;
export const MAX_COORDINATES = 25;

export const longitude = z
  .number({ error: 'longitude must be a number' })
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180');
export const latitude = z
  .number({ error: 'latitude must be a number' })
  .min(-90, 'latitude must be between -90 and 90')
  .max(90, 'latitude must be between -90 and 90');

/** `[longitude, latitude]`, GeoJSON order. */
export const coordinate = z.tuple([longitude, latitude], { error: 'must be [longitude, latitude]' });
export type Coordinate = z.output<typeof coordinate>;

/** Departures the routing can mean: anything outside is a mistake (`0000-01-01T00:00`), not a plan. */
export const DEPARTURE_YEARS = { first: 1970, last: 2100 } as const;

/** `YYYY-MM-DDTHH:mm` without offset; read later in the route city's time zone. */
export const departureTime = z
  .string({ error: 'must be a string YYYY-MM-DDTHH:mm' })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be YYYY-MM-DDTHH:mm with no time zone offset')
  .refine((value) => DateTime.fromISO(value, { zone: 'UTC' }).isValid, 'is not a valid date and time')
  .refine(
    (value) => Number(value.slice(0, 4)) >= DEPARTURE_YEARS.first && Number(value.slice(0, 4)) <= DEPARTURE_YEARS.last,
    `must be in the years ${DEPARTURE_YEARS.first} to ${DEPARTURE_YEARS.last}`,
  );

/** `en` or `es`; a regional tag such as `es-MX` is read as its base language. */
export const language = z
  .string({ error: 'must be en or es' })
  .transform((value, context) => {
    const base = baseLanguage(value);
    if (!base) context.addIssue({ code: 'custom', message: 'must be en or es (a regional tag such as es-MX is read as es)' });
    return base ?? z.NEVER;
  });

/**
 * Beyond the spec: the hill preference, one optional switch shared by directions, multi-modal and
 * explain-supersafe (docs/routing.md, "Hills"). Off by default, so the spec's routes are unchanged.
 */
export const avoidHills = z
  .boolean({ error: 'must be true or false' })
  .default(false)
  .meta({
    description:
      'Beyond the spec. true: cycling routes avoid climbing, the steeper the more (every metre climbed costs about 20 s of riding on a gentle grade, ' +
      'five times that at 16%; descents earn nothing), in supersafe and direct alike, wherever an elevation model covers the city ' +
      '(not Los Angeles). Default false: routes as the spec describes them. Ignored for walking.',
    ...beyondTheSpec,
  });

/**
 * Beyond the spec: alternative routes (docs/routing.md, "Alternative routes"): true for as many
 * as the network offers up to ALTERNATIVES.maxCount, or a count up to it; false or absent for the
 * spec's one route. Between two coordinates and for cycling only (`directionsBody` checks both).
 */
export const alternatives = z
  .union([
    z.boolean({ error: `must be true, false or a count from 1 to ${ALTERNATIVES.maxCount}` }),
    z
      .int({ error: `must be true, false or a count from 1 to ${ALTERNATIVES.maxCount}` })
      .min(1, `must be true, false or a count from 1 to ${ALTERNATIVES.maxCount}`)
      .max(ALTERNATIVES.maxCount, `must be at most ${ALTERNATIVES.maxCount}`),
  ], { error: `must be true, false or a count from 1 to ${ALTERNATIVES.maxCount}` })
  .optional()
  .meta({
    description:
      `Beyond the spec. true, or a count up to ${ALTERNATIVES.maxCount}: besides \`route\`, up to that many alternative routes (all of them for true) in \`alternatives\`, ` +
      'each sharing at most 70% of its length with a route that costs less, costing at most 1.4 times the route and locally optimal. ' +
      'Cycling, between two coordinates only (400 otherwise). false or absent: the spec\'s answer, without `alternatives`.',
    ...beyondTheSpec,
  });

export const directionsRequest = z.object({
  coordinates: z
    .array(coordinate, { error: 'must be an array of [longitude, latitude] pairs' })
    .min(MIN_COORDINATES, `must contain at least ${MIN_COORDINATES} coordinates`)
    .max(MAX_COORDINATES, `must contain at most ${MAX_COORDINATES} coordinates`),
  profile: z.enum(PROFILES, { error: 'must be cycling or walking' }).default('cycling'),
  supersafe: z.boolean({ error: 'must be true or false' }).default(true),
  bearing: z
    .number({ error: 'must be a number of degrees' })
    .min(0, 'must be in [0, 360)')
    .lt(360, 'must be in [0, 360)')
    .optional(),
  departure_time: departureTime.optional(),
  language: language.default('en'),
  nighttime: z.boolean({ error: 'must be true or false' }).optional(),
  avoid_hills: avoidHills,
  alternatives,
});

export type DirectionsRequest = z.output<typeof directionsRequest>;

export const GPX_MEDIA_TYPE = 'application/gpx+xml';
export const ANSWER_FORMATS = ['json', 'gpx'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

/** Beyond the spec: the answer's format (gpx-answer.ts), a field of directions alone. */
export const answerFormat = z
  .enum(ANSWER_FORMATS, { error: 'must be json or gpx' })
  .optional()
  .meta({
    description:
      `Beyond the spec. \`gpx\`: the answer is a GPX 1.1 file (\`${GPX_MEDIA_TYPE}\`) of the route, as with \`Accept: ${GPX_MEDIA_TYPE}\`; ` +
      '`json`: the JSON answer whatever the Accept header says. Absent: the Accept header decides, JSON unless it ranks GPX at least as high.',
    ...beyondTheSpec,
  });

/** How many alternatives a request asks for: 0 for none (false or absent), all there may be for true. */
export function alternativeCount(request: Pick<DirectionsRequest, 'alternatives'>): number {
  const asked = request.alternatives;
  return asked === true ? ALTERNATIVES.maxCount : typeof asked === 'number' ? asked : 0;
}

/**
 * The body POST /directions/v2/ accepts: the request and the format of its answer, with
 * `alternatives` asked only where they are planned (between two coordinates, as OSRM plans them;
 * cycling, whose costing carries the penalties). Kept apart from `directionsRequest`, which
 * explain's request is derived from.
 */
export const directionsBody = directionsRequest.extend({ format: answerFormat }).superRefine((body, context) => {
  if (alternativeCount(body) === 0) return;
  if (body.coordinates.length !== 2) {
    context.addIssue({ code: 'custom', path: ['alternatives'], message: 'are planned between two coordinates only: ask each leg as a request of its own' });
  }
  if (body.profile !== 'cycling') context.addIssue({ code: 'custom', path: ['alternatives'], message: 'are planned for cycling only' });
});

/** The route preference fields of a validated request: directions' and explain's all of them, multi-modal's those it accepts. */
export type RoutePreferenceFields = Pick<DirectionsRequest, 'language' | 'avoid_hills'> & Partial<Pick<DirectionsRequest, 'nighttime' | 'bearing'>>;

/**
 * The rider's route preferences as the planner takes them (core/routing/planning/planner.ts), read
 * from a validated request of any endpoint that plans routes: the one place a request's
 * preference fields become the planner's.
 */
export function routePreferencesOf(request: RoutePreferenceFields): RoutePreferences {
  return { language: request.language, avoidHills: request.avoid_hills, nighttime: request.nighttime, bearing: request.bearing };
}

/** One rate-limit token per consecutive pair of coordinates (spec 8), for directions and explain-supersafe alike. */
export const directionsCost = (request: Pick<DirectionsRequest, 'coordinates'>): number => request.coordinates.length - 1;
