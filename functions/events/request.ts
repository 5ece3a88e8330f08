import { z } from 'zod';
import { pointAndRadius, pointQueryParameters, queryParameter, radiusParameter } from '../http/query-params.ts';
import { DEFAULT_EVENTS_RADIUS_METRES, type EventsNearbyQuery } from './nearby.ts';

/** The query of GET {app_base_url}/events/nearby/ (spec 4.8): as documented, and as the handler reads it. */

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

export const eventsNearbyQuery = eventsNearbyParameters.transform((query, context): EventsNearbyQuery => {
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
