import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../platform/aws.ts';
import { batchGetItems } from '../platform/batch-get.ts';
import { nowMs } from '../platform/clock.ts';
import { tableName } from '../platform/resources.ts';

/**
 * Event records (spec 2.3) as other capabilities read them: rides name the event they were
 * part of, and show it in full. This is the minimal read side of the `events` table (partition
 * key `event_id`, the event's integer id as a string); listing and finding events near a point
 * belong to functions/events/ proper. The stored item holds the event's own fields; the
 * time-dependent flags are worked out when it is read.
 */

export interface EventCategory {
  id: number;
  name: string;
  emoji: string;
}

export interface EventDestination {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  area_name: string;
  city: string;
  categories: EventCategory[];
}

export interface EventImage {
  image_url: string;
  created_at: string;
}

/** What the `events` table stores for one event. */
export interface EventItem {
  event_id: string;
  id: number;
  name: string;
  alias: string;
  description: string;
  emoji: string;
  image_url: string;
  /** Both null for a permanent leisure route. */
  start_time: string | null;
  end_time: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** False once the organiser has cancelled or withdrawn it. */
  is_active: boolean;
  visits_total: number;
  city: string;
  destination: EventDestination;
  route: { distance: number; duration: number; polyline: string };
  categories: EventCategory[];
  images: EventImage[];
}

/** The event as the API shows it (spec 2.3), without `distance`, which only nearby results carry. */
export interface EventRecord extends Omit<EventItem, 'event_id'> {
  is_happening_now: boolean;
  is_future: boolean;
  is_current_or_future: boolean;
  is_leisure_route: boolean;
}

export const eventKey = (id: number): string => String(id);

/** The flags that depend on the time of reading. A leisure route is always current. */
export function eventView(item: EventItem, atMs: number = nowMs()): EventRecord {
  const { event_id: _eventId, ...fields } = item;
  const leisure = item.start_time === null && item.end_time === null;
  const starts = item.start_time ? Date.parse(item.start_time) : -Infinity;
  const ends = item.end_time ? Date.parse(item.end_time) : Infinity;
  return {
    ...fields,
    is_leisure_route: leisure,
    is_future: !leisure && atMs < starts,
    is_happening_now: !leisure && item.is_active && starts <= atMs && atMs < ends,
    is_current_or_future: leisure || atMs < ends,
  };
}

export async function getEvent(id: number): Promise<EventRecord | null> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('events'), Key: { event_id: eventKey(id) } }));
  return Item ? eventView(Item as EventItem) : null;
}

/** Several events by id, in one read; ids without an event are missing from the map. */
export async function getEvents(ids: readonly number[]): Promise<Map<number, EventRecord>> {
  const keys = [...new Set(ids)].map((id) => ({ event_id: eventKey(id) }));
  const items = await batchGetItems<EventItem>(tableName('events'), keys);
  return new Map(items.map((item) => [item.id, eventView(item)]));
}

/** Stores an event item (the local platform's demo events; the events capability writes its own). */
export async function putEvent(item: EventItem): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('events'), Item: item }));
}
