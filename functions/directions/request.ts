import { DateTime } from 'luxon';
import { z } from 'zod';
import { baseLanguage } from '../../core/language.ts';
import { PROFILES } from '../../core/graph/profiles.ts';
import { BICYCLE_TYPES, DEFAULT_BICYCLE_TYPE } from '../../core/routing/costing/bicycle-types.ts';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import { DIRECT_SAFETY, SAFETY_GRADE_NAMES, SAFETY_GRADES, safetyValueOf, SUPERSAFE_SAFETY } from '../../core/routing/costing/safety.ts';
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


/** The 400's `code` when a directions request gives `safety` and a `supersafe` that means another grade. */
export const SAFETY_CONFLICT = 'SAFETY_CONFLICTS_WITH_SUPERSAFE';

/**
 * Beyond the spec: the graded safety preference (docs/routing.md, "Graded safety"), shared by
 * directions, multi-modal and explain-supersafe: a number from 0 (direct) to 1 (supersafe) or a
 * grade's name, read as its number. Absent: the routes as the spec describes them.
 */
const SAFETY_RULE = `must be a number from 0 (direct) to 1 (supersafe), or one of ${SAFETY_GRADE_NAMES.join(', ')}`;
export const safety = z
  .union([z.number().min(0, SAFETY_RULE).max(1, SAFETY_RULE), z.enum(SAFETY_GRADE_NAMES, { error: SAFETY_RULE })], { error: SAFETY_RULE })
  .transform(safetyValueOf)
  .optional()
  .meta({
    description:
      'Beyond the spec. How much cycling routes weigh safety against directness: a number from 0 (the direct route) to 1 (the supersafe route), ' +
      `or ${SAFETY_GRADE_NAMES.map((name) => `\`${name}\` (${SAFETY_GRADES[name]})`).join(', ')}. Between the two every way and turn costs ` +
      '(1 - safety) x its direct cost + safety x its supersafe cost; routes are planned at the quarter at or below the number (0.3 as 0.25), ' +
      'and as safety rises a route\'s busy and shared metres never rise and its length never falls. ' +
      'With `supersafe` (true is 1, false 0) the two must agree, else 400 with code `' + SAFETY_CONFLICT + '`. Absent: routes as the spec describes them.',
    ...beyondTheSpec,
  });

/**
 * Beyond the spec: the bicycle type (docs/routing.md, "Bicycle types"), shared by directions and
 * explain-supersafe: its speeds by surface and grade, the surfaces it avoids and what it never
 * passes (core/routing/costing/bicycle-types.ts). Absent: `hybrid`, the spec's rider.
 */
export const bicycleType = z
  .enum(BICYCLE_TYPES, { error: `must be one of ${BICYCLE_TYPES.join(', ')}` })
  .optional()
  .meta({
    default: DEFAULT_BICYCLE_TYPE,
    description:
      'Beyond the spec. The bicycle the cycling routes are planned for, and their durations timed at: `hybrid` (the default: the spec\'s rider, 15 km/h, routes and durations exactly as without the field), ' +
      '`road` (18 km/h on asphalt; avoids unpaved, cobbled and rough ways, taking a paved way round whenever one is not much longer), ' +
      '`mountain` (14 km/h, minds rough surfaces little), `cargo` (12 km/h, slower uphill; never steps, kissing gates, cycle barriers, stiles ' +
      'or other barriers or ways under 1 m wide), `ebike` (22 km/h, hills barely slow it; with `avoid_hills` climbing weighs a third). ' +
      'Speeds fall uphill and rise downhill by type. Ignored for walking.',
    ...beyondTheSpec,
  });

/** The directions request's fields (spec 4.1), without the rule between two of them: what explain-supersafe takes most of. */
export const directionsFields = z.object({
  coordinates: z
    .array(coordinate, { error: 'must be an array of [longitude, latitude] pairs' })
    .min(MIN_COORDINATES, `must contain at least ${MIN_COORDINATES} coordinates`)
    .max(MAX_COORDINATES, `must contain at most ${MAX_COORDINATES} coordinates`),
  profile: z.enum(PROFILES, { error: 'must be cycling or walking' }).default('cycling'),
  /** Absent is true (spec 4.1), unless `safety` says otherwise (`requestedSafety`). */
  supersafe: z.boolean({ error: 'must be true or false' }).optional().meta({ default: true }),
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
  safety,
  bicycle_type: bicycleType,
});

/** `supersafe` true means safety 1 and false 0: given both, they must agree. */
function checkSafetyAgreesWithSupersafe(body: Pick<z.output<typeof directionsFields>, 'safety' | 'supersafe'>, context: z.RefinementCtx): void {
  if (body.safety === undefined || body.supersafe === undefined) return;
  if (body.safety !== (body.supersafe ? SUPERSAFE_SAFETY : DIRECT_SAFETY)) {
    context.addIssue({
      code: 'custom',
      path: ['safety'],
      message: `${body.safety} disagrees with supersafe ${body.supersafe}, which means safety ${body.supersafe ? SUPERSAFE_SAFETY : DIRECT_SAFETY}: send one of them`,
      params: { code: SAFETY_CONFLICT },
    });
  }
}

export const directionsRequest = directionsFields.superRefine(checkSafetyAgreesWithSupersafe);

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
 * cycling, whose costing carries the penalties), and `safety` agreeing with `supersafe`. Built from
 * `directionsFields`, as explain's request is.
 */
export const directionsBody = directionsFields.extend({ format: answerFormat }).superRefine((body, context) => {
  checkSafetyAgreesWithSupersafe(body, context);
  if (alternativeCount(body) === 0) return;
  if (body.coordinates.length !== 2) {
    context.addIssue({ code: 'custom', path: ['alternatives'], message: 'are planned between two coordinates only: ask each leg as a request of its own' });
  }
  if (body.profile !== 'cycling') context.addIssue({ code: 'custom', path: ['alternatives'], message: 'are planned for cycling only' });
  if (body.safety !== undefined && body.safety !== DIRECT_SAFETY && body.safety !== SUPERSAFE_SAFETY) {
    context.addIssue({ code: 'custom', path: ['alternatives'], message: 'are planned for the supersafe and the direct route only: send safety 0 or 1, or supersafe' });
  }
});

/** The grade a directions request asks for: `safety`, else `supersafe` (true, 1, when absent too). */
export const requestedSafety = (request: Pick<DirectionsRequest, 'safety' | 'supersafe'>): number =>
  request.safety ?? (request.supersafe === false ? DIRECT_SAFETY : SUPERSAFE_SAFETY);

/** The route preference fields of a validated request: directions' and explain's all of them, multi-modal's those it accepts. */
export type RoutePreferenceFields = Pick<DirectionsRequest, 'language' | 'avoid_hills'> & Partial<Pick<DirectionsRequest, 'nighttime' | 'bearing' | 'safety' | 'bicycle_type'>>;

/**
 * The rider's route preferences as the planner takes them (core/routing/planning/planner.ts), read
 * from a validated request of any endpoint that plans routes: the one place a request's
 * preference fields become the planner's.
 */
export function routePreferencesOf(request: RoutePreferenceFields): RoutePreferences {
  return {
    language: request.language, avoidHills: request.avoid_hills, nighttime: request.nighttime, bearing: request.bearing, safety: request.safety,
    bicycleType: request.bicycle_type,
  };
}

/** One rate-limit token per consecutive pair of coordinates (spec 8), for directions and explain-supersafe alike. */
export const directionsCost = (request: Pick<DirectionsRequest, 'coordinates'>): number => request.coordinates.length - 1;
