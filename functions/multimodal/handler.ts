import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { routingUnavailable } from '../http/errors.ts';

/**
 * POST /multi-modal/v2/ (and /multi-modal/). Multi-modal planning needs the router and live
 * bike-share; until they are in place it answers the spec's 503 ROUTING_UNAVAILABLE.
 */
export const handler = endpoint({ id: 'multi-modal', body: z.looseObject({}) }, async () => {
  throw routingUnavailable('Multi-modal planning is not available on this deployment yet', randomUUID());
});
