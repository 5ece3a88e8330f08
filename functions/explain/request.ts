import { z } from 'zod';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import { directionsFields } from '../directions/request.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';

/**
 * Request body of POST /explain-supersafe/ (spec 4.3): the directions request (spec 4.1) it
 * explains, field for field, so the sentence describes the very pair of routes the rider is shown.
 * Only two fields differ: both routes are planned, so `supersafe` is not asked, and the
 * explanation compares cycling routes, so `profile` may only say so. Beyond the spec, with
 * `safety` the safer of the two is the route at that safety, and `alternative` in place of
 * directions' `alternatives` says which of the direct route's alternatives the sentence compares
 * with.
 */
export const explainRequest = directionsFields
  .omit({ supersafe: true, alternatives: true })
  .extend({
    /** Accepted for symmetry with directions. */
    profile: z.literal('cycling', { error: 'must be cycling: the explanation compares cycling routes' }).optional(),
    alternative: z
      .int({ error: `must be a whole number from 1 to ${ALTERNATIVES.maxCount}` })
      .min(1, `must be a whole number from 1 to ${ALTERNATIVES.maxCount}`)
      .max(ALTERNATIVES.maxCount, `must be a whole number from 1 to ${ALTERNATIVES.maxCount}`)
      .optional()
      .meta({
        description:
          'Beyond the spec: compare the supersafe route with this alternative (1 the first) of the direct route, as directions lists them for `supersafe: false, ' +
          'alternatives: true`, in place of the direct route itself (docs/explain.md). Between two coordinates only.',
        ...beyondTheSpec,
      }),
  })
  .superRefine((body, context) => {
    if (body.alternative !== undefined && body.coordinates.length !== 2) {
      context.addIssue({ code: 'custom', path: ['alternative'], message: 'is planned between two coordinates only' });
    }
  });

export type ExplainRequest = z.output<typeof explainRequest>;
