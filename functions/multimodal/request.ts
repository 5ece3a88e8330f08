import { z } from 'zod';
import { avoidHills, coordinate, departureTime, language, routePreferencesOf, safety, type Coordinate } from '../directions/request.ts';
import { LONDON_EBIKE_OPERATORS } from './parking/london-ebike-rules.ts';

/**
 * Request body of POST /multi-modal/v2/ (spec 4.2). The spec leaves the names of the end points,
 * their display names and the operator open beyond the unversioned example's `origin` and
 * `destination`; v2 names them `start`, `end`, `start_name`, `end_name` and `operator`, and
 * accepts the example's `origin`, `destination`, `origin_name`, `destination_name` on both paths
 * (docs/multimodal.md). A field given under both of its names must have the same value.
 */

export const MAX_STOPS = 23;
export const PARKING_TYPES = ['ebike', 'regular'] as const;
export type ParkingType = (typeof PARKING_TYPES)[number];

const displayName = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/**
 * Destinations have whole-number ids (spec 2.4, `/events/nearby/`), although the spec's table for
 * this field says UUID: a whole number, or the same as a string of digits.
 */
const DESTINATION_ID = 'must be a destination id: a whole number (spec 2.4), or its digits as a string';
const destinationId = z
  .union([z.number(), z.string()], { error: DESTINATION_ID })
  .refine((value) => (typeof value === 'number' ? Number.isSafeInteger(value) && value > 0 : /^[1-9]\d{0,15}$/.test(value)), DESTINATION_ID);

/** v2 name -> the unversioned example's name. */
const ALIASES = { start: 'origin', end: 'destination', start_name: 'origin_name', end_name: 'destination_name' } as const;

const raw = z.object({
  start: coordinate.optional(),
  origin: coordinate.optional(),
  end: coordinate.optional(),
  destination: coordinate.optional(),
  start_name: displayName.optional(),
  origin_name: displayName.optional(),
  end_name: displayName.optional(),
  destination_name: displayName.optional(),
  event_id: z.uuid({ error: 'must be the UUID of a saved custom route' }).optional(),
  destination_id: destinationId.optional(),
  departure_time: departureTime.optional(),
  language: language.default('en'),
  parking_type: z.enum(PARKING_TYPES, { error: 'must be ebike or regular' }).optional(),
  operator: z.enum(LONDON_EBIKE_OPERATORS, { error: `must be one of ${LONDON_EBIKE_OPERATORS.join(', ')} (London's rental e-bike operators)` }).optional(),
  stops: z
    .array(coordinate, { error: 'must be an array of [longitude, latitude] pairs' })
    .max(MAX_STOPS, `must contain at most ${MAX_STOPS} stops`)
    .optional(),
  /** Every cycling leg of every option is planned with it. */
  avoid_hills: avoidHills,
  /** The supersafe-flagged options' routes are planned at this safety; the direct Personal option stays direct. */
  safety,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const multiModalRequest = raw
  .superRefine((body, context) => {
    for (const [name, alias] of Object.entries(ALIASES) as [keyof typeof ALIASES, (typeof ALIASES)[keyof typeof ALIASES]][]) {
      if (body[name] !== undefined && body[alias] !== undefined && !same(body[name], body[alias])) {
        context.addIssue({ code: 'custom', path: [name], message: `is also given as ${alias} with another value` });
      }
    }
    if (body.start === undefined && body.origin === undefined) context.addIssue({ code: 'custom', path: ['start'], message: 'is required (also accepted as origin)' });
    if (body.end === undefined && body.destination === undefined) context.addIssue({ code: 'custom', path: ['end'], message: 'is required (also accepted as destination)' });
    if (body.stops?.length && body.event_id !== undefined) {
      context.addIssue({ code: 'custom', path: ['stops'], message: 'cannot be combined with event_id (a custom route brings its own stops)' });
    }
  })
  .transform((body) => ({
    start: (body.start ?? body.origin)! as Coordinate,
    end: (body.end ?? body.destination)! as Coordinate,
    startName: body.start_name ?? body.origin_name ?? null,
    endName: body.end_name ?? body.destination_name ?? null,
    eventId: body.event_id ?? null,
    destinationId: body.destination_id === undefined ? null : Number(body.destination_id),
    departureTime: body.departure_time,
    /** The rider's route preferences (`language`, `avoid_hills`, `safety`), as every option's legs are planned with them. */
    preferences: routePreferencesOf(body),
    parkingType: body.parking_type ?? null,
    operator: body.operator ?? null,
    stops: (body.stops ?? []) as Coordinate[],
  }));

export type MultiModalRequest = z.output<typeof multiModalRequest>;

/** Spec 4.2 rule 6 and 8: one rate-limit token per hop (a request without stops is one hop). */
export const multiModalCost = (request: MultiModalRequest): number => request.stops.length + 1;
