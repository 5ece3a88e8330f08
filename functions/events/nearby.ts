import { allCities, citiesNear, type City } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { decodeRoute, distanceToBbox, distanceToLine } from './geometry.ts';
import { nearbyGroup, type EventItem, type EventView } from './model.ts';
import { contextFor, eventsInCity, eventView, type EventContext } from './records.ts';

/**
 * `GET /events/nearby/` (spec 4.8) as domain logic. An event is near when its route (the nearest
 * point of the route's line) or, without a route, its destination is within the radius. Listed
 * in three groups, each nearest first: (1) upcoming and ongoing group rides, (2) leisure routes,
 * which have no times and are always listed when near, (3) group rides that ended within the
 * last 14 days. Older and withdrawn events are not listed. Filters, all optional and all
 * case-insensitive: `city` (the event's computed city, by name or id), `categories` (any of the
 * comma-separated names), `area` (the destination's `area_name`); given together, all must match.
 */

export const DEFAULT_EVENTS_RADIUS_METRES = 1000;

export interface EventsNearbyQuery {
  latitude: number;
  longitude: number;
  radius: number;
  city?: string;
  categories?: string[];
  area?: string;
}

const fold = (text: string) => text.trim().toLowerCase();

/** The covered city a `city` parameter names, by name (`New York City`) or id (`new-york`), any case. */
export function cityNamed(name: string): City | null {
  const wanted = fold(name);
  return allCities.find((city) => fold(city.name) === wanted || city.id === wanted) ?? null;
}

/** Metres from the point to the event's route, or to its destination when it has none. */
function distanceTo(point: LonLat, event: EventItem, context: EventContext, radius: number): number {
  if (event.route) {
    // Far routes are skipped without decoding their polyline.
    if (event.route_bbox && distanceToBbox(point, event.route_bbox) > radius) return Infinity;
    return distanceToLine(point, decodeRoute(event.route.polyline));
  }
  const destination = context.destinations.get(event.destination_id);
  return destination ? distanceToLine(point, [[destination.longitude, destination.latitude]]) : Infinity;
}

/** The listed events in order, from a set of candidates: pure, given the time. */
export function selectNearby(candidates: readonly EventItem[], context: EventContext, query: EventsNearbyQuery, atMs: number): EventView[] {
  const point: LonLat = [query.longitude, query.latitude];
  const city = query.city === undefined ? undefined : cityNamed(query.city);
  const area = query.area === undefined ? undefined : fold(query.area);
  const categories = query.categories?.length ? new Set(query.categories.map(fold)) : undefined;
  const listed: { item: EventItem; group: number; distance: number }[] = [];
  for (const item of candidates) {
    const group = nearbyGroup(item, atMs);
    if (group === null) continue;
    if (city !== undefined && item.city !== city?.id) continue;
    if (area !== undefined && fold(context.destinations.get(item.destination_id)?.area_name ?? '') !== area) continue;
    if (categories && !item.category_ids.some((id) => categories.has(context.categories.get(id)?.name_key ?? ''))) continue;
    const distance = distanceTo(point, item, context, query.radius);
    if (distance <= query.radius) listed.push({ item, group, distance });
  }
  listed.sort((a, b) => a.group - b.group || a.distance - b.distance || a.item.id - b.item.id);
  return listed.map(({ item, distance }) => eventView(item, context, atMs, distance));
}

export async function eventsNearby(query: EventsNearbyQuery, atMs: number): Promise<{ events: EventView[] }> {
  const point: LonLat = [query.longitude, query.latitude];
  const wanted = query.city === undefined ? undefined : cityNamed(query.city);
  const cities = citiesNear(point, query.radius).filter((city) => wanted === undefined || city.id === wanted?.id);
  const candidates = (await Promise.all(cities.map((city) => eventsInCity(city.id)))).flat();
  if (candidates.length === 0) return { events: [] };
  return { events: selectNearby(candidates, await contextFor(candidates), query, atMs) };
}
