import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { cityForCoordinate } from '../../core/cities/index.ts';
import type { EventView } from '../events/model.ts';
import { eventById, eventsById, eventVisitUpdate } from '../events/records.ts';
import { dynamo } from '../../platform/aws.ts';
import { batchGetItems } from '../../platform/batch-get.ts';
import { now } from '../../platform/clock.ts';
import { DomainError } from '../../platform/errors.ts';
import { IdempotencyKeyReusedError, repeatableId, type RepeatableRequest } from '../../platform/idempotency.ts';
import { tableName } from '../../platform/resources.ts';
import { captureWeather, weatherProvider } from '../weather/provider.ts';
import type { WeatherProvider } from '../weather/report.ts';
import type { NewRide } from './request.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Ride history (spec 2.2) in the `rides` table: partition `idp_user_id`, sort key `ride_id`, so
 * a ride is only ever read under its own rider's key (another rider's id simply is not there).
 * The local index `by-date-started` orders a rider's rides by `started_key` (UTC start time, then
 * the id) for the newest-first history, and projects the few attributes the statistics need.
 */

/** Spec 8: images per ride shown, the most recent first. */
export const MAX_RIDE_IMAGES = 50;

export interface RideImage {
  image_url: string;
  created_at: string;
}

/** Spec 2.2's fields of a ride that the table stores as the API shows them. */
interface RideFields {
  date_started: string;
  local_timezone: string;
  polyline: string;
  destination_name: string | null;
  destination_address: string | null;
  distance_traveled: number;
  duration_traveled: number;
  completed: boolean;
  weather_conditions: string[];
  temperature: number | null;
  wind_speed: number | null;
  weather_fetched_at: string | null;
  weather_display: string | null;
  welcome_message: string | null;
}

/** What the table stores for one ride. */
export interface RideItem extends RideFields {
  idp_user_id: string;
  ride_id: number;
  started_key: string;
  event_id: number | null;
  /** Attached by image uploads for routes, newest appended; the view shows the 50 most recent. */
  images: RideImage[];
  /** The covered city the ride started in (core/cities), or null outside them. */
  city: string | null;
  created_at: string;
  /** Recorded with an Idempotency-Key: SHA-256 of the request body, to tell a repeat from a reused key. */
  request_fingerprint?: string;
}

/** The ride as the API shows it: exactly spec 2.2's fields. */
export interface RideRecord extends RideFields {
  id: number;
  event: EventView | null;
  images: RideImage[];
}

/** The attributes the date index projects: enough for the statistics without reading polylines. */
export type RideSummary = Pick<
  RideItem,
  'ride_id' | 'date_started' | 'local_timezone' | 'distance_traveled' | 'duration_traveled' | 'completed' | 'city' | 'destination_name'
>;

/** A new ride names an event that does not exist: the request's field is wrong (400), not a missing resource. */
export class RideEventNotFoundError extends DomainError {
  constructor(readonly eventId: number) {
    super('invalid', `event_id: no event with id ${eventId}`);
  }
}

/** Ride ids: random integers up to 2^53 - 1, exact in JSON everywhere. */
/** A ride id: 53 bits (a JSON number's integers), random, or derived from a repeatable request. */
function newRideId(repeatable: RepeatableRequest | null): number {
  const bits = repeatable ? repeatableId(repeatable, 'ride') : randomBytes(8);
  return Number(bits.readBigUInt64BE() & (2n ** 53n - 1n)) || 1;
}

const startedKey = (dateStarted: string, rideId: number) => `${dateStarted}#${String(rideId).padStart(16, '0')}`;

export function rideView(item: RideItem, event: EventView | null): RideRecord {
  const images = [...item.images].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, MAX_RIDE_IMAGES);
  return {
    id: item.ride_id,
    date_started: item.date_started,
    local_timezone: item.local_timezone,
    polyline: item.polyline,
    destination_name: item.destination_name,
    destination_address: item.destination_address,
    distance_traveled: item.distance_traveled,
    duration_traveled: item.duration_traveled,
    completed: item.completed,
    event,
    weather_conditions: item.weather_conditions,
    temperature: item.temperature,
    wind_speed: item.wind_speed,
    weather_fetched_at: item.weather_fetched_at,
    weather_display: item.weather_display,
    images,
    welcome_message: item.welcome_message,
  };
}

/**
 * Stores a new ride with the weather at its start captured now. The weather provider's failure or
 * slowness leaves the ride without weather; an event id that names no event is refused. A ride
 * tied to an event counts as one visit of it (`visits_total`), written in the same transaction as
 * the ride, so there is never a ride without its visit or a visit without its ride.
 */
export interface NewRideOptions {
  provider?: WeatherProvider;
  /**
   * Sent with an Idempotency-Key: the ride's id is derived from the rider and the key, so a send
   * that runs again after the first stored the ride (and died before its answer was recorded)
   * answers that ride instead of storing a second; the same key with another body is refused.
   */
  repeatable?: RepeatableRequest | null;
}

export async function createRide(idpUserId: string, ride: NewRide, { provider = weatherProvider(), repeatable = null }: NewRideOptions = {}): Promise<RideRecord> {
  const event = ride.event_id === null ? null : await eventById(ride.event_id);
  if (ride.event_id !== null && !event) throw new RideEventNotFoundError(ride.event_id);
  const [longitude, latitude] = ride.start;
  const weather = await captureWeather({ latitude, longitude }, provider);
  for (;;) {
    const rideId = newRideId(repeatable);
    const item: RideItem = {
      idp_user_id: idpUserId,
      ride_id: rideId,
      started_key: startedKey(ride.date_started, rideId),
      date_started: ride.date_started,
      local_timezone: ride.local_timezone,
      polyline: ride.polyline,
      destination_name: ride.destination_name,
      destination_address: ride.destination_address,
      distance_traveled: ride.distance_traveled,
      duration_traveled: ride.duration_traveled,
      completed: ride.completed,
      event_id: ride.event_id,
      weather_conditions: weather?.conditions ?? [],
      temperature: weather?.temperatureF ?? null,
      wind_speed: weather?.windSpeedMph ?? null,
      weather_fetched_at: weather?.fetchedAt ?? null,
      weather_display: weather?.display ?? null,
      images: [],
      welcome_message: event ? `Welcome to ${event.name} ${event.emoji}`.trim() : null,
      city: cityForCoordinate(ride.start)?.id ?? null,
      created_at: now().toISOString(),
      ...(repeatable ? { request_fingerprint: repeatable.fingerprint } : {}),
    };
    const put = { TableName: tableName('rides'), Item: item, ConditionExpression: 'attribute_not_exists(ride_id)' };
    try {
      if (!event) {
        await dynamo().send(new PutCommand(put));
        return rideView(item, null);
      }
      await dynamo().send(new TransactWriteCommand({ TransactItems: [{ Put: put }, { Update: eventVisitUpdate(event.id) }] }));
      // The event as read before this ride, with the visit the ride just added.
      return rideView(item, { ...event, visits_total: event.visits_total + 1 });
    } catch (error) {
      // The ride's own put: the write's only or its transaction's first action.
      const idTaken = conditionFailed(error, 0);
      if (idTaken && repeatable) return recordedBefore(idpUserId, rideId, repeatable);
      // A rider already has a ride with this random id (one chance in 2^53 per ride): draw again.
      if (idTaken) continue;
      if (conditionFailed(error, 1)) {
        throw new RideEventNotFoundError(event!.id);
      }
      throw error;
    }
  }
}

/** The ride a repeat of a keyed request finds stored under its id. */
async function recordedBefore(idpUserId: string, rideId: number, repeatable: RepeatableRequest): Promise<RideRecord> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('rides'), Key: { idp_user_id: idpUserId, ride_id: rideId }, ConsistentRead: true }));
  const earlier = Item as RideItem | undefined;
  if (!earlier) throw new Error(`Ride ${rideId} could not be stored: the id is taken`);
  if (earlier.request_fingerprint !== repeatable.fingerprint) throw new IdempotencyKeyReusedError();
  return rideView(earlier, earlier.event_id === null ? null : await eventById(earlier.event_id));
}

/** One of the rider's own rides, with its event in full; null when the rider has no ride with this id. */
export async function getRide(idpUserId: string, rideId: number): Promise<RideRecord | null> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('rides'), Key: { idp_user_id: idpUserId, ride_id: rideId } }));
  if (!Item) return null;
  const item = Item as RideItem;
  return rideView(item, item.event_id === null ? null : await eventById(item.event_id));
}

export interface RidePage {
  routes: RideRecord[];
  page: number;
  limit: number;
  has_more: boolean;
}

/**
 * One page of the rider's history, newest `date_started` first. The page is found on the date
 * index reading only keys (cheap to skip over), then its rides are read in full, and their events
 * in one batch.
 */
/** A query of the rider's rides on the date-started index (local, so reads may be consistent). */
function byDateStarted(idpUserId: string) {
  return {
    TableName: tableName('rides'),
    IndexName: 'by-date-started',
    KeyConditionExpression: 'idp_user_id = :rider',
    ExpressionAttributeValues: { ':rider': idpUserId },
    ConsistentRead: true,
  };
}

export async function listRides(idpUserId: string, page: number, limit: number): Promise<RidePage> {
  const skip = (page - 1) * limit;
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  let seen = 0;
  do {
    const result = await dynamo().send(
      new QueryCommand({
        ...byDateStarted(idpUserId),
        ProjectionExpression: 'ride_id',
        ScanIndexForward: false,
        Limit: Math.min(skip + limit + 1 - seen, 1_000),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of result.Items ?? []) {
      if (seen >= skip) ids.push((item as { ride_id: number }).ride_id);
      seen++;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey && seen < skip + limit + 1);
  const pageIds = ids.slice(0, limit);
  const items = await batchGetItems<RideItem>(tableName('rides'), pageIds.map((rideId) => ({ idp_user_id: idpUserId, ride_id: rideId })), { consistent: true });
  const byId = new Map(items.map((item) => [item.ride_id, item]));
  const rides = pageIds.map((rideId) => byId.get(rideId)).filter((item): item is RideItem => item !== undefined);
  const events = await eventsById(rides.flatMap((ride) => (ride.event_id === null ? [] : [ride.event_id])));
  return {
    routes: rides.map((ride) => rideView(ride, ride.event_id === null ? null : (events.get(ride.event_id) ?? null))),
    page,
    limit,
    has_more: ids.length > limit,
  };
}

/** Every ride of the rider, as the date index projects them (no polylines), oldest first. */
export async function rideSummaries(idpUserId: string): Promise<RideSummary[]> {
  const summaries: RideSummary[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({
        ...byDateStarted(idpUserId),
        Select: 'ALL_PROJECTED_ATTRIBUTES',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    summaries.push(...((result.Items ?? []) as RideSummary[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return summaries;
}
