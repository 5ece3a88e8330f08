import { z } from 'zod';
import { avoidHills, coordinate, departureTime, language, MAX_COORDINATES, MIN_COORDINATES } from '../routing/request.ts';

/**
 * Request body of POST /explain-supersafe/ (spec 4.3): the inputs of a cycling directions request
 * (spec 4.1), so the sentence describes the very pair of routes the rider is shown.
 */
export const explainRequest = z.object({
  coordinates: z
    .array(coordinate, { error: 'must be an array of [longitude, latitude] pairs' })
    .min(MIN_COORDINATES, `must contain at least ${MIN_COORDINATES} coordinates`)
    .max(MAX_COORDINATES, `must contain at most ${MAX_COORDINATES} coordinates`),
  /** Accepted for symmetry with directions; the explanation compares cycling routes only. */
  profile: z.literal('cycling', { error: 'must be cycling: the explanation compares cycling routes' }).optional(),
  bearing: z.number({ error: 'must be a number of degrees' }).min(0, 'must be in [0, 360)').lt(360, 'must be in [0, 360)').optional(),
  departure_time: departureTime.optional(),
  language: language.default('en'),
  nighttime: z.boolean({ error: 'must be true or false' }).optional(),
  /** Both routes are planned with it, as the rider sees them. */
  avoid_hills: avoidHills,
});

export type ExplainRequest = z.output<typeof explainRequest>;

/** One rate-limit token per consecutive pair of coordinates, as directions. */
export const explainCost = (request: ExplainRequest): number => request.coordinates.length - 1;
