import polyline from '@mapbox/polyline';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createDestination } from '../../functions/events/catalogue.ts';
import { encodeRoute } from '../../functions/events/geometry.ts';
import type { EventItem } from '../../functions/events/model.ts';
import { createEvent, eventById } from '../../functions/events/records.ts';
import { dynamo } from '../../platform/aws.ts';
import { IdempotencyKeyReusedError } from '../../platform/idempotency.ts';
import { tableName } from '../../platform/resources.ts';
import { createRide } from '../../functions/rides/records.ts';
import { newRideBody } from '../../functions/rides/request.ts';
import type { WeatherProvider } from '../../functions/weather/report.ts';
import { riderAccessToken } from '../oauth/oauth-support.ts';
import { app, deleteProfile, signedInRider, type SignedInRider } from '../riders/rider-support.ts';
import { platform, useLocalAws } from '../support/running-platform.ts';

/** Ride history (spec 2.2, 4.6): POST, GET and GET by id of /user/routes/ against the local platform. */

const londonLine = polyline.encode([[51.5246, -0.1337], [51.5226, -0.1301], [51.5219, -0.1246]], 5);

const ride = (overrides: Record<string, unknown> = {}) => ({
  polyline: londonLine,
  date_started: '2026-03-02T08:15:00Z',
  local_timezone: 'Europe/London',
  distance_traveled: 1250.5,
  duration_traveled: 420,
  destination_name: 'British Museum',
  destination_address: 'Great Russell St, London WC1B 3DG',
  ...overrides,
});

const record = (rider: SignedInRider, body: unknown) => app('/user/routes/', rider, { method: 'POST', body });

/** This run's own category and destination, so the demo events and other runs never interfere. */
const run = randomUUID().slice(0, 8);
let destinationId: number;

beforeAll(async () => {
  useLocalAws();
  await createCategory({ name: `Parks ${run}`, emoji: '🌳' });
  destinationId = (await createDestination({ name: `Russell Square ${run}`, longitude: -0.1263, latitude: 51.522, area_name: 'Bloomsbury', categories: [`Parks ${run}`] })).id;
});

/** A leisure route round Bloomsbury, created through the events capability. */
async function testEvent(): Promise<EventItem> {
  useLocalAws();
  return createEvent({
    name: `Squares Loop ${randomUUID().slice(0, 8)}`,
    emoji: '🚲',
    image_url: 'https://images.example/loop.png',
    created_by: 'operator',
    destination_id: destinationId,
    categories: [`Parks ${run}`],
    route: { polyline: encodeRoute([[-0.1249, 51.5228], [-0.1283, 51.5184], [-0.1318, 51.5222]]) },
    images: [{ image_url: 'https://images.example/loop.png' }],
  });
}

describe('POST {app_base_url}/user/routes/', () => {
  it('stores the ride with the weather captured now from the offline provider, named as such', async () => {
    const rider = await signedInRider();
    const created = await record(rider, ride());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      date_started: '2026-03-02T08:15:00.000Z',
      local_timezone: 'Europe/London',
      polyline: londonLine,
      destination_name: 'British Museum',
      distance_traveled: 1250.5,
      duration_traveled: 420,
      completed: true,
      event: null,
      images: [],
      welcome_message: null,
    });
    expect(Number.isSafeInteger(created.body.id)).toBe(true);
    expect(created.body.weather_display).toMatch(/°F, wind \d+ mph · offline weather \(simulated, not observed\)$/);
    expect(created.body.weather_conditions.length).toBeGreaterThan(0);
    expect(typeof created.body.temperature).toBe('number');
    expect(typeof created.body.wind_speed).toBe('number');
    expect(Math.abs(Date.parse(created.body.weather_fetched_at) - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(created.body).sort()).toEqual(
      ['completed', 'date_started', 'destination_address', 'destination_name', 'distance_traveled', 'duration_traveled', 'event', 'id', 'images', 'local_timezone', 'polyline', 'temperature', 'weather_conditions', 'weather_display', 'weather_fetched_at', 'welcome_message', 'wind_speed'].sort(),
    );
    expect((await app(`/user/routes/${created.body.id}/`, rider)).body).toEqual(created.body);
  });

  it('ties a ride to an event, shows the event in full and counts the visit', async () => {
    const rider = await signedInRider();
    const event = await testEvent();
    const created = await record(rider, ride({ event_id: event.id }));
    expect(created.status).toBe(201);
    expect(created.body.event).toMatchObject({ id: event.id, visits_total: 1 });
    const detail = await app(`/user/routes/${created.body.id}/`, rider);
    expect(detail.body.event).toMatchObject({
      id: event.id,
      name: event.name,
      alias: event.alias,
      is_leisure_route: true,
      is_active: true,
      start_time: null,
      end_time: null,
      visits_total: 1,
      city: 'London',
      destination: { name: `Russell Square ${run}`, city: 'London', categories: [{ name: `Parks ${run}`, emoji: '🌳' }] },
      categories: [expect.objectContaining({ name: `Parks ${run}` })],
      images: [expect.objectContaining({ image_url: 'https://images.example/loop.png', created_at: expect.any(String) })],
      route: { distance: expect.any(Number), duration: expect.any(Number), polyline: expect.any(String) },
    });
    expect(detail.body.welcome_message).toBe(`Welcome to ${event.name} 🚲`);
    expect((await app('/user/routes/', rider)).body.routes[0].event).toEqual(detail.body.event);
    await record(rider, ride({ event_id: event.id }));
    expect((await eventById(event.id))!.visits_total).toBe(2);
    expect(await record(rider, ride({ event_id: 99_999_999 }))).toMatchObject({ status: 400, body: { error: 'event_id: no event with id 99999999' } });
    expect((await app('/user/routes/', rider)).body.routes).toHaveLength(2);
  });

  it('stores neither the ride nor the visit when the event is gone by the time the ride is written', async () => {
    const rider = await signedInRider();
    const event = await testEvent();
    useLocalAws();
    // The event disappears between the ride's check of it and the ride's write (while the weather is fetched).
    const vanishing: WeatherProvider = {
      name: 'vanishing',
      current: async () => {
        await dynamo().send(new DeleteCommand({ TableName: tableName('events'), Key: { event_id: String(event.id) } }));
        throw new Error('no weather today');
      },
    };
    await expect(createRide(rider.sub, newRideBody.parse(ride({ event_id: event.id })), { provider: vanishing })).rejects.toMatchObject({
      name: 'RideEventNotFoundError',
      message: `event_id: no event with id ${event.id}`,
    });
    expect((await app('/user/routes/', rider)).body.routes).toEqual([]);
    expect(await eventById(event.id)).toBeNull();
  });

  it('refuses what is not a ride, naming the field', async () => {
    const rider = await signedInRider();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ polyline: 'not a polyline!' }, /^polyline: must be an encoded polyline/],
      [{ polyline: polyline.encode([[51.5, -0.1]], 5) }, /^polyline: must be an encoded polyline/],
      [{ polyline: '\u0000\u0001\uffff' }, /^polyline: must be an encoded polyline/],
      [{ polyline: `${londonLine}\u0000` }, /^polyline: must be an encoded polyline/],
      [{ polyline: londonLine.slice(0, -1) }, /^polyline: must be an encoded polyline/],
      [{ polyline: polyline.encode([[91, -0.1], [51.5, -0.1]], 5) }, /^polyline: must be an encoded polyline/],
      [{ date_started: 'yesterday' }, /^date_started: required: ISO 8601/],
      [{ date_started: '2026-03-02T08:15:00' }, /^date_started: required: ISO 8601/],
      [{ date_started: '2999-01-01T00:00:00Z' }, /^date_started: must be between 2000 and now/],
      [{ local_timezone: 'Mars/Olympus' }, /^local_timezone: must be an IANA time zone/],
      [{ distance_traveled: -1 }, /^distance_traveled: must be at least 0/],
      [{ duration_traveled: 'long' }, /^duration_traveled: required: seconds ridden/],
      [{ event_id: 1.5 }, /^event_id: must be an integer/],
      [{ destination_name: 'x'.repeat(201) }, /^destination_name: must be at most 200 characters/],
      [{ speed: 12 }, /Unrecognized key/],
    ];
    for (const [change, message] of cases) {
      const answer = await record(rider, ride(change));
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.error, JSON.stringify(change)).toMatch(message);
    }
    expect((await app('/user/routes/', rider)).body.routes).toEqual([]);
  });

  it('fills local_timezone from the city the ride started in', async () => {
    const rider = await signedInRider();
    const created = await record(rider, ride({ local_timezone: undefined, polyline: polyline.encode([[40.7484, -73.9857], [40.7540, -73.9812]], 5) }));
    expect(created.body.local_timezone).toBe('America/New_York');
  });
});

describe('a ride recorded while the weather service does not answer', () => {
  it('is stored without weather rather than failing', async () => {
    const rider = await signedInRider();
    useLocalAws();
    const silent: WeatherProvider = { name: 'silent', current: () => new Promise<never>(() => undefined) };
    const created = await createRide(rider.sub, newRideBody.parse(ride()), { provider: silent });
    expect(created).toMatchObject({ weather_conditions: [], temperature: null, wind_speed: null, weather_fetched_at: null, weather_display: null });
    expect((await app(`/user/routes/${created.id}/`, rider)).body).toEqual(created);
  });
});

describe('a ride recorded under an Idempotency-Key', () => {
  it('is stored once: a run that repeats the request answers the stored ride, and another body is refused', async () => {
    const rider = await signedInRider();
    useLocalAws();
    const repeatable = { caller: `rider:${rider.sub}`, key: randomUUID(), fingerprint: 'a'.repeat(64) };
    // What a send that runs again after the first stored its ride (and died before its answer was recorded) does.
    const first = await createRide(rider.sub, newRideBody.parse(ride()), { repeatable });
    const again = await createRide(rider.sub, newRideBody.parse(ride()), { repeatable });
    expect(again).toEqual(first);
    await expect(createRide(rider.sub, newRideBody.parse(ride({ destination_name: 'Elsewhere' })), { repeatable: { ...repeatable, fingerprint: 'b'.repeat(64) } })).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
    // Another key is another ride.
    const other = await createRide(rider.sub, newRideBody.parse(ride()), { repeatable: { ...repeatable, key: randomUUID() } });
    expect(other.id).not.toBe(first.id);
    expect((await app('/user/routes/', rider)).body.routes.map((entry: { id: number }) => entry.id).sort()).toEqual([first.id, other.id].sort());
  });
});

describe('GET {app_base_url}/user/routes/', () => {
  async function riderWithRides(count: number): Promise<{ rider: SignedInRider; ids: number[] }> {
    const rider = await signedInRider();
    const ids: number[] = [];
    // Recorded out of order: the history orders by date_started, not by when rides were recorded.
    const days = Array.from({ length: count }, (_, index) => index).sort((a, b) => ((a * 7) % count) - ((b * 7) % count));
    for (const day of days) {
      const created = await record(rider, ride({ date_started: new Date(Date.UTC(2026, 0, 1 + day, 9)).toISOString(), destination_name: `Day ${day}` }));
      ids[day] = created.body.id;
    }
    return { rider, ids };
  }

  it('pages newest first: default 10, limit up to 50, has_more', async () => {
    const { rider, ids } = await riderWithRides(13);
    const newestFirst = [...ids].reverse();
    const first = await app('/user/routes/', rider);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['has_more', 'limit', 'page', 'routes']);
    expect(first.body).toMatchObject({ page: 1, limit: 10, has_more: true });
    expect(first.body.routes.map((route: { id: number }) => route.id)).toEqual(newestFirst.slice(0, 10));
    const second = await app('/user/routes/?page=2', rider);
    expect(second.body).toMatchObject({ page: 2, has_more: false });
    expect(second.body.routes.map((route: { id: number }) => route.id)).toEqual(newestFirst.slice(10));
    const small = await app('/user/routes/?page=3&limit=5', rider);
    expect(small.body.routes.map((route: { id: number }) => route.id)).toEqual(newestFirst.slice(10, 13));
    expect((await app('/user/routes/?page=9', rider)).body).toMatchObject({ routes: [], has_more: false });
    expect((await app('/user/routes/?limit=50', rider)).body.routes).toHaveLength(13);
  });

  it('refuses a page size over 50 and pages that are not whole numbers', async () => {
    const rider = await signedInRider();
    expect(await app('/user/routes/?limit=51', rider)).toMatchObject({ status: 400, body: { error: 'limit: must be at most 50 (the largest page)' } });
    expect(await app('/user/routes/?limit=0', rider)).toMatchObject({ status: 400, body: { error: 'limit: must be at least 1' } });
    expect(await app('/user/routes/?page=-1', rider)).toMatchObject({ status: 400, body: { error: 'page: must be a whole number' } });
  });

  it('shows at most the 50 most recent images of a ride', async () => {
    const rider = await signedInRider();
    const created = await record(rider, ride());
    useLocalAws();
    const images = Array.from({ length: 60 }, (_, index) => ({
      image_url: `${platform.services.s3}/spoke-photos/images/route/${index.toString(16).padStart(32, '0')}.jpg`,
      created_at: new Date(Date.UTC(2026, 2, 2, 9, index)).toISOString(),
    }));
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('rides'),
        Key: { idp_user_id: rider.sub, ride_id: created.body.id },
        UpdateExpression: 'SET images = :images',
        ExpressionAttributeValues: { ':images': images },
      }),
    );
    const detail = await app(`/user/routes/${created.body.id}/`, rider);
    expect(detail.body.images).toHaveLength(50);
    expect(detail.body.images[0]).toEqual(images[59]);
    expect(detail.body.images[49]).toEqual(images[10]);
    expect((await app('/user/routes/', rider)).body.routes[0].images).toEqual(detail.body.images);
  });
});

describe("another rider's rides", () => {
  it('are never listed, and answer 404 Route not found by id', async () => {
    const [owner, other] = await Promise.all([signedInRider(), signedInRider()]);
    const created = await record(owner, ride({ destination_name: 'Owner only' }));
    expect(await app(`/user/routes/${created.body.id}/`, other)).toMatchObject({ status: 404, body: { error: 'Route not found' } });
    expect((await app('/user/routes/', other)).body.routes).toEqual([]);
    expect(JSON.stringify((await app('/user/stats/', other)).body)).not.toContain(String(created.body.id));
    for (const id of ['0', '-1', 'abc', '99999999999999999999', '1.5']) {
      expect(await app(`/user/routes/${id}/`, owner), id).toMatchObject({ status: 404, body: { error: 'Route not found' } });
    }
  });

  it('a rider without an account gets 404 User not found on history, rides and stats', async () => {
    const rider = await signedInRider();
    const created = await record(rider, ride());
    await deleteProfile(rider.sub);
    for (const path of ['/user/routes/', `/user/routes/${created.body.id}/`, '/user/stats/']) {
      expect(await app(path, rider), path).toMatchObject({ status: 404, body: { error: 'User not found' } });
    }
    expect(await record(rider, ride())).toMatchObject({ status: 404, body: { error: 'User not found' } });
  });
});

describe('the demo rider', () => {
  it('has at least a dozen rides across the four cities, some of them on events', async () => {
    const token = await riderAccessToken({ sub: platform.demo.rider_idp_user_id, email: platform.demo.rider_email, password: platform.demo.rider_password, name: 'Demo Rider' });
    const history = await app('/user/routes/?limit=50', { headers: { Authorization: `Bearer ${token}` } });
    const routes = history.body.routes as { local_timezone: string; event: { id: number } | null; date_started: string }[];
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(new Set(routes.map((route) => route.local_timezone))).toEqual(new Set(['Europe/London', 'America/New_York', 'America/Los_Angeles']));
    expect(routes.filter((route) => route.event).length).toBeGreaterThanOrEqual(3);
    expect(routes.map((route) => route.date_started)).toEqual([...routes.map((route) => route.date_started)].sort().reverse());
    const stats = await app('/user/stats/', { headers: { Authorization: `Bearer ${token}` } });
    expect(stats.body.per_city.map((city: { city: string }) => city.city).sort()).toEqual(['london', 'los-angeles', 'new-york', 'sf-bay']);
  });
});
