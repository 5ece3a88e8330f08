import { z } from 'zod';

/**
 * Events, destinations and categories as the API shows them (spec 2.3, 2.4), for the OpenAPI
 * documents (functions/openapi/), the handlers' result types and the contract tests: the answer
 * of GET /events/nearby/, and the `event` of a ride record.
 */

const isoTime = z.string().meta({ description: 'ISO 8601.' });

export const category = z.object({ id: z.int(), name: z.string(), emoji: z.string() }).meta({ id: 'Category' });

export const destination = z
  .object({
    id: z.int(),
    name: z.string(),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    area_name: z.string(),
    city: z.string().meta({ description: 'The covered city the coordinates lie in, by name (`London`).' }),
    categories: z.array(category),
  })
  .meta({ id: 'Destination' });

const image = z.object({ image_url: z.string(), created_at: isoTime }).meta({ id: 'Image' });

export const eventView = z
  .object({
    id: z.int(),
    name: z.string(),
    alias: z.string().meta({ description: 'Slug.' }),
    description: z.string(),
    emoji: z.string(),
    image_url: z.string(),
    start_time: isoTime.nullable().meta({ description: 'ISO 8601; null for a leisure route.' }),
    end_time: isoTime.nullable().meta({ description: 'ISO 8601; null for a leisure route.' }),
    created_by: z.string().meta({ description: "Identity-provider user id of the event's creator." }),
    created_at: isoTime,
    updated_at: isoTime,
    is_active: z.boolean(),
    is_happening_now: z.boolean(),
    is_future: z.boolean(),
    is_current_or_future: z.boolean(),
    is_leisure_route: z.boolean(),
    visits_total: z.int(),
    city: z.string().meta({ description: 'Computed from the route geometry.' }),
    distance: z.number().optional().meta({ description: 'Nearby results only: metres to the destination, or to the route for route-based events.' }),
    destination,
    route: z
      .object({ distance: z.number(), duration: z.number(), polyline: z.string().meta({ description: 'Encoded polyline, precision 5.' }) })
      .nullable(),
    categories: z.array(category),
    images: z.array(image),
  })
  .meta({ id: 'Event' });

export const eventsNearbyResponse = z.object({ events: z.array(eventView) }).meta({ id: 'EventsNearbyResponse' });
