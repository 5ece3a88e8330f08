import { z } from 'zod';
import { numberParam, pointAndRadius, pointQueryParameters, queryParameter, radiusParameter } from '../http/query-params.ts';
import { DEFAULT_BIKES_LIMIT, DEFAULT_BIKES_RADIUS_METRES, MAX_BIKES_LIMIT, type BikesNearbyQuery } from './nearby.ts';

/** The query of GET {app_base_url}/bikes/nearby/ (spec 4.7): as documented, and as the handler reads it. */

export const bikesNearbyParameters = z.object({
  ...pointQueryParameters,
  radius: radiusParameter(DEFAULT_BIKES_RADIUS_METRES),
  limit: queryParameter(`Most stations, and separately most dockless bikes (default ${DEFAULT_BIKES_LIMIT}).`, { type: 'integer', minimum: 1, maximum: MAX_BIKES_LIMIT }),
});

export const bikesNearbyQuery = bikesNearbyParameters.transform((query, context): BikesNearbyQuery => {
  const point = pointAndRadius(query, context, DEFAULT_BIKES_RADIUS_METRES);
  const limit = numberParam(query, context, ['limit'], {
    min: 1,
    max: MAX_BIKES_LIMIT,
    integer: true,
    message: `must be a whole number between 1 and ${MAX_BIKES_LIMIT}`,
  });
  if (!point) return z.NEVER;
  return { ...point, limit: limit ?? DEFAULT_BIKES_LIMIT };
});
