import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { pointAndRadius, pointQueryParameters, queryParameter, radiusParameter } from '../http/query-params.ts';
import { nowMs } from '../../platform/clock.ts';
import { DEFAULT_EVENTS_RADIUS_METRES, eventsNearby, type EventsNearbyQuery } from './nearby.ts';
import { eventsNearbyResponse } from './response.ts';

/** GET {app_base_url}/events/nearby/ (spec 4.8): public. */

const text = (query: Record<string, string | undefined>, name: string, context: z.RefinementCtx): string | undefined => {
  const value = query[name];
  if (value === undefined) return undefined;
  if (value.trim() === '' || value.length > 200) {
    context.addIssue({ code: 'custom', path: [name], message: 'must be a non-empty name of at most 200 characters' });
    return undefined;
  }
  return value;
};

export const eventsNearbyParameters = z.object({
  ...pointQueryParameters,
  radius: radiusParameter(DEFAULT_EVENTS_RADIUS_METRES),
  city: queryParameter('A covered city by name or id, case-insensitive (`London`, `new-york`).'),
  area: queryParameter("A destination's area, case-insensitive (`Bloomsbury`)."),
  categories: queryParameter('Comma-separated category names; an event matching any of them is listed.'),
});

const eventsNearbyQuery = eventsNearbyParameters.transform((query, context): EventsNearbyQuery => {
  const point = pointAndRadius(query, context, DEFAULT_EVENTS_RADIUS_METRES);
  const city = text(query, 'city', context);
  const area = text(query, 'area', context);
  const categories = query.categories === undefined ? undefined : query.categories.split(',').map((name) => name.trim()).filter(Boolean);
  if (categories !== undefined && categories.length === 0) {
    context.addIssue({ code: 'custom', path: ['categories'], message: 'must name at least one category (comma-separated)' });
  }
  if (!point) return z.NEVER;
  return { ...point, ...(city === undefined ? {} : { city }), ...(area === undefined ? {} : { area }), ...(categories ? { categories } : {}) };
});

export const handler = endpoint({ id: 'events-nearby', query: eventsNearbyQuery, response: eventsNearbyResponse }, async ({ query }) => ({
  body: await eventsNearby(query, nowMs()),
}));
