import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { cityForCoordinates, type CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { planDirections } from '../directions/directions.ts';
import { directionsRequest } from '../directions/request.ts';
import { encodeRoute } from '../events/geometry.ts';
import { dynamo } from '../../platform/aws.ts';
import { now } from '../../platform/clock.ts';
import { DomainError } from '../../platform/errors.ts';
import { tableName } from '../../platform/resources.ts';

/**
 * Saved custom routes (spec 2.7): a named ride through fixed stops, identified by a UUID that
 * multi-modal requests name as `event_id` (spec 4.2 rule 5). The operator creates them
 * (`npm run admin -- routes ...`); the local platform seeds one per city.
 *
 * A route has a start, intermediate stops (possibly none) and an end, each named. Multi-modal
 * options ride to its start and then follow it as non-reroutable cycling legs, one per stop and
 * one to the end, each ending with an arrive step named after its stop. At creation the route is
 * planned through its points on the city graph as /directions/v2/ plans a supersafe cycling route,
 * and the legs' lengths, times and polylines are kept with it for listings.
 */

export interface RoutePoint {
  name: string;
  /** [longitude, latitude]. */
  location: [number, number];
}

export interface PlannedRouteLeg {
  distance: number;
  duration: number;
  /** Encoded polyline, precision 5 (as ride records and event routes). */
  polyline: string;
}

export interface CustomRouteItem {
  route_id: string;
  name: string;
  city: CityId;
  start: RoutePoint;
  stops: RoutePoint[];
  end: RoutePoint;
  /** As planned when saved: one leg per stop, then one to the end. */
  legs: PlannedRouteLeg[];
  distance: number;
  duration: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Set on the local platform's demo routes, which seeding finds again by it. */
  seed?: string;
}

/** The stops a route may have between its start and end (a request's own `stops` take at most 23). */
export const MAX_ROUTE_STOPS = 23;

const point = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters'),
  location: z.tuple(
    [z.number().min(-180, 'longitude must be between -180 and 180').max(180, 'longitude must be between -180 and 180'), z.number().min(-90, 'latitude must be between -90 and 90').max(90, 'latitude must be between -90 and 90')],
    { error: 'must be [longitude, latitude]' },
  ),
});

const routeFields = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  start: point,
  stops: z.array(point).max(MAX_ROUTE_STOPS, `takes at most ${MAX_ROUTE_STOPS} stops`).default([]),
  end: point,
  created_by: z.string().trim().min(1).default('operator'),
});

export type CustomRouteInput = z.input<typeof routeFields>;

export const customRouteUuid = z.uuid({ error: 'must be a UUID' });

/** A custom route that cannot be saved as given. */
export class CustomRouteInputError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
  }
}

/** The route's points in travel order: start, stops, end. */
export const routePoints = (route: Pick<CustomRouteItem, 'start' | 'stops' | 'end'>): RoutePoint[] => [route.start, ...route.stops, route.end];

async function plan(points: readonly RoutePoint[]): Promise<{ city: CityId; legs: PlannedRouteLeg[] }> {
  const coordinates = points.map((stop) => stop.location as LonLat);
  const city = cityForCoordinates(coordinates);
  if (!city) throw new CustomRouteInputError('Every point of a custom route must lie in one covered city');
  const request = directionsRequest.parse({ coordinates: coordinates.map(([lon, lat]) => [lon, lat]), profile: 'cycling', supersafe: true });
  const outcome = await planDirections(request, now());
  if (outcome.kind !== 'routed' || !outcome.body.route) {
    throw new CustomRouteInputError('No cycling route joins these points on the city graph (is a point more than 250 m from any road?)');
  }
  const legs = outcome.body.legs ?? [{ ...outcome.body.route, mode: 'cycling' as const }];
  return {
    city: city.id,
    legs: legs.map((leg) => ({ distance: leg.distance, duration: leg.duration, polyline: encodeRoute(leg.geometry.coordinates.map(([lon, lat]) => [lon, lat] as const)) })),
  };
}

export async function createCustomRoute(input: CustomRouteInput, options: { seed?: string; routeId?: string } = {}): Promise<CustomRouteItem> {
  const parsed = routeFields.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CustomRouteInputError(`${issue.path.join('.') || 'route'}: ${issue.message}`);
  }
  const fields = parsed.data;
  const { city, legs } = await plan(routePoints(fields));
  const timestamp = now().toISOString();
  const item: CustomRouteItem = {
    route_id: options.routeId ?? randomUUID(),
    name: fields.name,
    city,
    start: fields.start,
    stops: fields.stops,
    end: fields.end,
    legs,
    distance: Math.round(legs.reduce((sum, leg) => sum + leg.distance, 0) * 10) / 10,
    duration: Math.round(legs.reduce((sum, leg) => sum + leg.duration, 0) * 10) / 10,
    created_by: fields.created_by,
    created_at: timestamp,
    updated_at: timestamp,
    ...(options.seed ? { seed: options.seed } : {}),
  };
  await dynamo().send(new PutCommand({ TableName: tableName('customRoutes'), Item: item, ConditionExpression: 'attribute_not_exists(route_id)' }));
  return item;
}

/** The route a UUID names, or null (also for a string that is not a UUID). */
export async function getCustomRoute(routeId: string): Promise<CustomRouteItem | null> {
  if (!customRouteUuid.safeParse(routeId).success) return null;
  const result = await dynamo().send(new GetCommand({ TableName: tableName('customRoutes'), Key: { route_id: routeId } }));
  return (result.Item as CustomRouteItem | undefined) ?? null;
}

export async function listCustomRoutes(): Promise<CustomRouteItem[]> {
  const items: CustomRouteItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new ScanCommand({ TableName: tableName('customRoutes'), ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as CustomRouteItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.name.localeCompare(b.name));
}

export async function deleteCustomRoute(routeId: string): Promise<boolean> {
  if (!customRouteUuid.safeParse(routeId).success) return false;
  const result = await dynamo().send(new DeleteCommand({ TableName: tableName('customRoutes'), Key: { route_id: routeId }, ReturnValues: 'ALL_OLD' }));
  return result.Attributes !== undefined;
}
