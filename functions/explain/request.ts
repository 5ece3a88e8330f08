import { z } from 'zod';
import { directionsFields } from '../directions/request.ts';

/**
 * Request body of POST /explain-supersafe/ (spec 4.3): the directions request (spec 4.1) it
 * explains, field for field, so the sentence describes the very pair of routes the rider is shown.
 * Only two fields differ: both routes are planned, so `supersafe` is not asked, and the
 * explanation compares cycling routes, so `profile` may only say so. With `safety` (beyond the
 * spec) the safer of the two is the route at that safety.
 */
export const explainRequest = directionsFields.omit({ supersafe: true }).extend({
  /** Accepted for symmetry with directions. */
  profile: z.literal('cycling', { error: 'must be cycling: the explanation compares cycling routes' }).optional(),
});

export type ExplainRequest = z.output<typeof explainRequest>;
