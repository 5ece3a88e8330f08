import type { CityId } from '../../core/cities/index.ts';

/**
 * Events (group rides with a start and an end, and permanent leisure routes without), their
 * destinations and categories (spec 2.3, 2.4), as stored and as shown. Ids are the spec's
 * integers, issued by a counter (ids.ts); the tables key items by the id's decimal string
 * (`event_id`, `destination_id`, `category_id`), so a key is a plain string everywhere. The
 * flags and `city` are never stored as given: flags are computed from the clock when read,
 * `city` from the geometry when written.
 */

export interface Category {
  id: number;
  name: string;
  emoji: string;
}

export interface CategoryItem extends Category {
  category_id: string;
  /** The name lower-cased: names are unique and matched case-insensitively. */
  name_key: string;
  created_at: string;
  updated_at: string;
}

export interface Destination {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  area_name: string;
  /** The covered city the coordinates lie in, by name (`London`). */
  city: string;
  categories: Category[];
}

export interface DestinationItem {
  destination_id: string;
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  area_name: string;
  city: CityId;
  category_ids: number[];
  created_at: string;
  updated_at: string;
}

export interface EventImage {
  image_url: string;
  created_at: string;
}

/** A planned route: metres, seconds at cycling speed, encoded polyline (precision 5). */
export interface EventRoute {
  distance: number;
  duration: number;
  polyline: string;
}

/** Spec 2.3's fields of an event that the table stores as the API shows them. */
interface EventFields {
  id: number;
  name: string;
  alias: string;
  description: string;
  emoji: string;
  image_url: string;
  /** ISO 8601; both null for a leisure route. */
  start_time: string | null;
  end_time: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  visits_total: number;
  images: EventImage[];
  route: EventRoute | null;
}

export interface EventItem extends EventFields {
  event_id: string;
  /** Computed from the route's start, or the destination when there is no route (GSI `by-city`). */
  city: CityId;
  destination_id: number;
  category_ids: number[];
  /** [west, south, east, north] of the route, to skip far routes without decoding them. */
  route_bbox: [number, number, number, number] | null;
  /** Set when the operator withdraws the event: it is no longer listed, and not active. */
  archived_at: string | null;
  /** Which seed created it, for demo data the local platform keeps current. */
  seed?: string;
}

export interface EventFlags {
  is_active: boolean;
  is_happening_now: boolean;
  is_future: boolean;
  is_current_or_future: boolean;
  is_leisure_route: boolean;
}

/** Spec 2.3 (the view function writes the fields in the spec's order). `distance` only in nearby results. */
export interface EventView extends EventFields, EventFlags {
  city: string;
  distance?: number;
  destination: Destination;
  categories: Category[];
}

/** Events that ended within this window are still listed nearby, after the others (spec 8). */
export const RECENT_PAST_DAYS = 14;
export const RECENT_PAST_MS = RECENT_PAST_DAYS * 86_400_000;

export const isLeisureRoute = (event: Pick<EventItem, 'start_time' | 'end_time'>): boolean => event.start_time === null && event.end_time === null;

/** The flags of spec 2.3 at `nowMs`. */
export function eventFlags(event: Pick<EventItem, 'start_time' | 'end_time' | 'archived_at'>, nowMs: number): EventFlags {
  const leisure = isLeisureRoute(event);
  const start = event.start_time === null ? Number.NaN : Date.parse(event.start_time);
  const end = event.end_time === null ? Number.NaN : Date.parse(event.end_time);
  const future = !leisure && nowMs < start;
  const happening = !leisure && start <= nowMs && nowMs < end;
  const currentOrFuture = !leisure && nowMs < end;
  return {
    is_active: !event.archived_at && (leisure || currentOrFuture),
    is_happening_now: happening,
    is_future: future,
    is_current_or_future: currentOrFuture,
    is_leisure_route: leisure,
  };
}

/** Where a nearby event is listed (spec 4.8): 0 upcoming or ongoing, 1 leisure route, 2 recently ended, null not listed. */
export function nearbyGroup(event: Pick<EventItem, 'start_time' | 'end_time' | 'archived_at'>, nowMs: number): 0 | 1 | 2 | null {
  if (event.archived_at) return null;
  if (isLeisureRoute(event)) return 1;
  const end = Date.parse(event.end_time!);
  if (nowMs < end) return 0;
  return nowMs - end <= RECENT_PAST_MS ? 2 : null;
}
