import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { cities, type CityId } from '../../core/cities/index.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { CYCLING_SPEED_MPS } from '../../core/routing/costing/speeds.ts';
import { dynamo } from '../../platform/aws.ts';
import { now, nowMs } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { batchGet, categoryIdsByName, categoryView, destinationView, EventInputError, getDestination, listCategories, parseInput } from './catalogue.ts';
import { decodeRoute, encodeRoute, eventCity, routeBbox } from './geometry.ts';
import { nextId } from './ids.ts';
import { eventFlags, type CategoryItem, type DestinationItem, type EventItem, type EventRoute, type EventView } from './model.ts';
import { planEventRoute } from './routes.ts';
import { queryAll, scanAll } from '../../platform/dynamo-pages.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Events (spec 2.3): written by the operator (bin/admin.ts `events ...`), read by
 * `/events/nearby/` and by anything that shows an event in full, such as a ride tied to one:
 * `eventById` answers the complete record with destination, categories and images.
 */

const timestamp = () => now().toISOString();

/** ISO 8601 with a zone (`Z` or an offset), stored as UTC without fractions. */
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i, 'must be an ISO 8601 time with a zone, e.g. 2026-12-05T09:00:00Z')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a valid time')
  .transform((value) => new Date(Date.parse(value)).toISOString().replace('.000Z', 'Z'));

const coordinate = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)], { error: 'must be [longitude, latitude]' });

const routeInput = z.union([
  z.object({ via: z.array(coordinate).min(2, 'needs at least 2 points').max(25, 'takes at most 25 points') }),
  z.object({
    polyline: z.string().min(1, 'must not be empty'),
    /** As planned elsewhere; measured along the line (and timed at cycling speed) when absent. */
    distance: z.number().positive().optional(),
    duration: z.number().positive().optional(),
  }),
]);

export type RouteInput = z.input<typeof routeInput>;

const imageInput = z.object({ image_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), created_at: instant.optional() });

const eventFields = z
  .object({
    name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    description: z.string().trim().max(5000, 'must be at most 5000 characters').default(''),
    emoji: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(16, 'must be one emoji'),
    image_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    start_time: instant.nullable().default(null),
    end_time: instant.nullable().default(null),
    created_by: z.string({ error: 'is required' }).trim().min(1, 'must not be empty'),
    destination_id: z.number({ error: 'is required' }).int().positive(),
    categories: z.array(z.string()).default([]),
    route: routeInput.nullable().default(null),
    images: z.array(imageInput).max(50, 'takes at most 50 images').default([]),
  })
  .superRefine((event, context) => {
    if ((event.start_time === null) !== (event.end_time === null)) {
      context.addIssue({ code: 'custom', path: ['end_time'], message: 'start_time and end_time are both set (a group ride) or both null (a leisure route)' });
    } else if (event.start_time !== null && Date.parse(event.start_time) >= Date.parse(event.end_time!)) {
      context.addIssue({ code: 'custom', path: ['end_time'], message: 'must be after start_time' });
    }
    if (event.start_time === null && event.route === null) {
      context.addIssue({ code: 'custom', path: ['route'], message: 'is required for a leisure route' });
    }
  });

export type EventInput = z.input<typeof eventFields>;

const cyclingSeconds = (metres: number) => Math.round((metres / CYCLING_SPEED_MPS) * 10) / 10;

/** A route from waypoints, planned on the city graph, or from a polyline as given. */
async function resolveRoute(input: z.output<typeof routeInput>): Promise<{ route: EventRoute; coordinates: LonLat[] }> {
  if ('via' in input) return planEventRoute(input.via);
  let coordinates: LonLat[];
  try {
    coordinates = decodeRoute(input.polyline);
  } catch {
    throw new EventInputError('route.polyline: is not an encoded polyline');
  }
  if (coordinates.length < 2 || coordinates.some(([lon, lat]) => !(Math.abs(lon) <= 180 && Math.abs(lat) <= 90))) {
    throw new EventInputError('route.polyline: must encode at least 2 points of precision 5');
  }
  let distance = 0;
  for (let i = 1; i < coordinates.length; i++) {
    distance += haversineMetres(coordinates[i - 1]![0], coordinates[i - 1]![1], coordinates[i]![0], coordinates[i]![1]);
  }
  distance = input.distance ?? Math.round(distance * 10) / 10;
  return { route: { distance, duration: input.duration ?? cyclingSeconds(distance), polyline: encodeRoute(coordinates) }, coordinates };
}

export const slug = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'event';

export async function eventByAlias(alias: string): Promise<EventItem | null> {
  const result = await dynamo().send(
    new QueryCommand({ TableName: tableName('events'), IndexName: 'by-alias', KeyConditionExpression: 'alias = :alias', ExpressionAttributeValues: { ':alias': alias } }),
  );
  return (result.Items?.[0] as EventItem | undefined) ?? null;
}

/** The name's slug, numbered when another event has it. */
async function uniqueAlias(name: string, exceptId?: number): Promise<string> {
  const base = slug(name);
  for (let n = 1; ; n++) {
    const alias = n === 1 ? base : `${base}-${n}`;
    const holder = await eventByAlias(alias);
    if (!holder || holder.id === exceptId) return alias;
  }
}

async function composeItem(
  fields: z.output<typeof eventFields>,
  base: Pick<EventItem, 'id' | 'created_at' | 'visits_total' | 'archived_at'> & { alias?: string; seed?: string },
  existingRoute: { route: EventRoute; coordinates: LonLat[] } | null,
): Promise<EventItem> {
  const destination = await getDestination(fields.destination_id);
  if (!destination) throw new EventInputError(`destination_id: no destination ${fields.destination_id}`);
  const planned = fields.route ? await resolveRoute(fields.route) : existingRoute;
  const city = eventCity(planned?.coordinates ?? null, [destination.longitude, destination.latitude]);
  if (!city) throw new EventInputError('The route starts in none of the covered cities');
  return {
    event_id: String(base.id),
    id: base.id,
    name: fields.name,
    alias: base.alias ?? (await uniqueAlias(fields.name, base.id)),
    description: fields.description,
    emoji: fields.emoji,
    image_url: fields.image_url,
    start_time: fields.start_time,
    end_time: fields.end_time,
    created_by: fields.created_by,
    created_at: base.created_at,
    updated_at: timestamp(),
    visits_total: base.visits_total,
    city: city.id,
    destination_id: destination.id,
    category_ids: await categoryIdsByName(fields.categories),
    images: fields.images.map((image) => ({ image_url: image.image_url, created_at: image.created_at ?? timestamp() })),
    route: planned?.route ?? null,
    route_bbox: planned ? routeBbox(planned.coordinates) : null,
    archived_at: base.archived_at,
    ...(base.seed ? { seed: base.seed } : {}),
  };
}

export async function createEvent(input: EventInput, options: { seed?: string } = {}): Promise<EventItem> {
  const fields = parseInput(eventFields, input);
  const item = await composeItem(fields, { id: await nextId('events'), created_at: timestamp(), visits_total: 0, archived_at: null, seed: options.seed }, null);
  await dynamo().send(new PutCommand({ TableName: tableName('events'), Item: item, ConditionExpression: 'attribute_not_exists(event_id)' }));
  return item;
}

export async function getEventItem(id: number): Promise<EventItem | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('events'), Key: { event_id: String(id) } }));
  return (result.Item as EventItem | undefined) ?? null;
}

/**
 * Changes the given fields; the rest stay. `route: null` removes a group ride's route; a leisure
 * route must keep one. The write is conditional on the event being unchanged since it was read.
 */
export async function updateEvent(id: number, patch: Partial<EventInput>): Promise<EventItem> {
  const current = await getEventItem(id);
  if (!current) throw new EventInputError(`No event ${id}`);
  const categoriesById = new Map((await listCategories()).map((category) => [category.id, category]));
  const keep = patch.route === undefined && current.route !== null;
  const fields = parseInput(eventFields, {
    name: patch.name ?? current.name,
    description: patch.description ?? current.description,
    emoji: patch.emoji ?? current.emoji,
    image_url: patch.image_url ?? current.image_url,
    start_time: patch.start_time !== undefined ? patch.start_time : current.start_time,
    end_time: patch.end_time !== undefined ? patch.end_time : current.end_time,
    created_by: current.created_by,
    destination_id: patch.destination_id ?? current.destination_id,
    categories: patch.categories ?? current.category_ids.flatMap((categoryId) => categoriesById.get(categoryId)?.name ?? []),
    // The stored route stands unless the patch replaces (waypoints or polyline) or removes (null) it.
    route: keep ? { polyline: current.route!.polyline } : (patch.route ?? null),
    images: patch.images ?? current.images,
  });
  const renamed = patch.name !== undefined && fields.name !== current.name;
  const item = await composeItem(
    { ...fields, route: keep ? null : fields.route },
    { ...current, alias: renamed ? undefined : current.alias },
    keep ? { route: current.route!, coordinates: decodeRoute(current.route!.polyline) } : null,
  );
  await dynamo().send(
    new PutCommand({
      TableName: tableName('events'),
      Item: item,
      ConditionExpression: 'updated_at = :read',
      ExpressionAttributeValues: { ':read': current.updated_at },
    }),
  ).catch((error: unknown) => {
    if (conditionFailed(error)) throw new EventInputError(`Event ${id} changed while it was being updated; try again`);
    throw error;
  });
  return item;
}

/** Withdraws an event: kept for the rides tied to it, no longer listed or active. */
export async function archiveEvent(id: number): Promise<EventItem> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: { event_id: String(id) },
      UpdateExpression: 'SET archived_at = :now, updated_at = :now',
      ConditionExpression: 'attribute_exists(event_id)',
      ExpressionAttributeValues: { ':now': timestamp() },
      ReturnValues: 'ALL_NEW',
    }),
  ).catch((error: unknown) => {
    if (conditionFailed(error)) throw new EventInputError(`No event ${id}`);
    throw error;
  });
  return result.Attributes as EventItem;
}

/**
 * The write that adds one ride to the event's `visits_total`, conditional on the event existing:
 * `recordEventVisit` sends it alone, a ride's record sends it in the same transaction as the ride.
 */
export function eventVisitUpdate(id: number) {
  return {
    TableName: tableName('events'),
    Key: { event_id: String(id) },
    UpdateExpression: 'ADD visits_total :one',
    ConditionExpression: 'attribute_exists(event_id)',
    ExpressionAttributeValues: { ':one': 1 },
  };
}

/** One more ride tied to the event (spec 2.3 `visits_total`). */
export async function recordEventVisit(id: number): Promise<void> {
  await dynamo().send(new UpdateCommand(eventVisitUpdate(id)));
}

/** Every event of a city, archived ones included (GSI `by-city`). */
export function eventsInCity(city: CityId): Promise<EventItem[]> {
  return queryAll<EventItem>({
    TableName: tableName('events'),
    IndexName: 'by-city',
    KeyConditionExpression: 'city = :city',
    ExpressionAttributeValues: { ':city': city },
  });
}

export async function listEvents(): Promise<EventItem[]> {
  return (await scanAll<EventItem>({ TableName: tableName('events') })).sort((a, b) => a.id - b.id);
}

/** What a view of events needs besides the events: their destinations and every category. */
export interface EventContext {
  destinations: ReadonlyMap<number, DestinationItem>;
  categories: ReadonlyMap<number, CategoryItem>;
}

export async function contextFor(events: readonly EventItem[]): Promise<EventContext> {
  const [destinations, categories] = await Promise.all([
    batchGet<DestinationItem>('destinations', 'destination_id', events.map((event) => String(event.destination_id))),
    listCategories(),
  ]);
  return {
    destinations: new Map(destinations.map((destination) => [destination.id, destination])),
    categories: new Map(categories.map((category) => [category.id, category])),
  };
}

/** Spec 2.3 at `atMs`, with `distance` when a nearby search measured one. */
export function eventView(item: EventItem, context: EventContext, atMs: number, distance?: number): EventView {
  const destination = context.destinations.get(item.destination_id);
  if (!destination) throw new Error(`Event ${item.id} refers to a missing destination ${item.destination_id}`);
  return {
    id: item.id,
    name: item.name,
    alias: item.alias,
    description: item.description,
    emoji: item.emoji,
    image_url: item.image_url,
    start_time: item.start_time,
    end_time: item.end_time,
    created_by: item.created_by,
    created_at: item.created_at,
    updated_at: item.updated_at,
    ...eventFlags(item, atMs),
    visits_total: item.visits_total,
    city: cities[item.city].name,
    ...(distance === undefined ? {} : { distance: Math.round(distance * 10) / 10 }),
    destination: destinationView(destination, context.categories),
    route: item.route,
    categories: item.category_ids.flatMap((id) => {
      const category = context.categories.get(id);
      return category ? [categoryView(category)] : [];
    }),
    images: item.images,
  };
}

/** The full record of one event (spec 2.3) as it stands now, or null. Archived events are answered too. */
export async function eventById(id: number | string): Promise<EventView | null> {
  const numeric = typeof id === 'number' ? id : Number(id);
  if (!Number.isSafeInteger(numeric) || numeric <= 0) return null;
  const item = await getEventItem(numeric);
  if (!item) return null;
  return eventView(item, await contextFor([item]), nowMs());
}

/** Several full records at once (a page of rides tied to events): one batch read; ids without an event are missing from the map. */
export async function eventsById(ids: readonly number[]): Promise<Map<number, EventView>> {
  if (ids.length === 0) return new Map();
  const items = await batchGet<EventItem>('events', 'event_id', ids.map(String));
  const context = await contextFor(items);
  const atMs = nowMs();
  return new Map(items.map((item) => [item.id, eventView(item, context, atMs)]));
}
