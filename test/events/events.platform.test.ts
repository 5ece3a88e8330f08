import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createDestination } from '../../functions/events/catalogue.ts';
import { decodeRoute, encodeRoute } from '../../functions/events/geometry.ts';
import { archiveEvent, createEvent, eventById, listEvents, updateEvent } from '../../functions/events/records.ts';
import { withClockAt } from '../../platform/clock.ts';
import { call, useLocalAws } from '../support/running-platform.ts';

/**
 * GET {app_base_url}/events/nearby/ (spec 4.8) on the running local platform, with events
 * written to its DynamoDB and requests run at an explicit instant (X-Spoke-Test-Clock-At).
 * Each test run has its own categories, so the demo events and other runs never interfere.
 */

const T = Date.parse('2031-03-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
/** Headers that run one request at `ms`. */
const at = (ms: number) => ({ 'X-Spoke-Test-Clock-At': new Date(ms).toISOString() });

// Gordon Square, Bloomsbury, and points east of it.
const P = { lon: -0.1303, lat: 51.5246 };
const east = (metres: number): [number, number] => [P.lon + metres / (111_320 * Math.cos((P.lat * Math.PI) / 180)), P.lat];

const nearby = (query: string, when = T) => call(`/events/nearby/?${query}`, { api: 'app', headers: at(when) });
const names = (body: { events: { name: string }[] }) => body.events.map((event) => event.name);

const run = randomUUID().slice(0, 8);
const social = `Social ${run}`;
const family = `Family ${run}`;
const base = `latitude=${P.lat}&longitude=${P.lon}&radius=1500`;
let eventIds: Record<string, number> = {};

beforeAll(async () => {
  useLocalAws();
  await createCategory({ name: social, emoji: '☕' });
  await createCategory({ name: family, emoji: '👨‍👩‍👧' });
  const destination = async (name: string, metres: number, area: string) =>
    (await createDestination({ name: `${name} ${run}`, longitude: east(metres)[0], latitude: east(metres)[1], area_name: area, categories: [social] })).id;
  const near = await destination('Gordon Square', 100, 'Bloomsbury');
  const middle = await destination('Tavistock Place', 400, 'Bloomsbury');
  const far = await destination('Gray\'s Inn Road', 1200, `Holborn ${run}`);
  const common = { emoji: '🚴', image_url: 'https://images.example/ride.png', created_by: 'operator', description: 'A test ride.' };
  const create = async (name: string, fields: Record<string, unknown>) => {
    const created = await createEvent({ ...common, name: `${name} ${run}`, categories: [social], ...fields } as Parameters<typeof createEvent>[0]);
    eventIds[name] = created.id;
  };
  eventIds = {};
  await create('next week, 400 m', { destination_id: middle, start_time: iso(T + 7 * DAY), end_time: iso(T + 7 * DAY + 2 * HOUR) });
  await create('ongoing, 1200 m', { destination_id: far, start_time: iso(T - HOUR), end_time: iso(T + HOUR), categories: [family] });
  await create('tomorrow, 100 m', { destination_id: near, start_time: iso(T + DAY), end_time: iso(T + DAY + HOUR) });
  await create('leisure, passes by', { destination_id: far, route: { polyline: encodeRoute([east(-800), east(800)]) }, categories: [social, family] });
  await create('leisure, 400 m', { destination_id: middle, route: { polyline: encodeRoute([east(400), [P.lon, P.lat + 0.01]]) } });
  await create('ended yesterday, 100 m', { destination_id: near, start_time: iso(T - DAY - HOUR), end_time: iso(T - DAY) });
  await create('ended 13 days ago, 1200 m', { destination_id: far, start_time: iso(T - 13 * DAY - HOUR), end_time: iso(T - 13 * DAY) });
  await create('ended 20 days ago', { destination_id: near, start_time: iso(T - 20 * DAY - HOUR), end_time: iso(T - 20 * DAY) });
  await create('withdrawn', { destination_id: near, start_time: iso(T + DAY), end_time: iso(T + DAY + HOUR) });
  await archiveEvent(eventIds['withdrawn']!);
  await create('tomorrow, 3 km', { destination_id: near, start_time: iso(T + DAY), end_time: iso(T + DAY + HOUR), route: { polyline: encodeRoute([east(3000), east(3500)]) } });
});

describe('events near a point', () => {
  it('is public and lists upcoming and ongoing rides, then leisure routes, then rides ended within 14 days, each by distance', async () => {
    const response = await nearby(`${base}&categories=${encodeURIComponent(social)},${encodeURIComponent(family)}`);
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(
      ['tomorrow, 100 m', 'next week, 400 m', 'ongoing, 1200 m', 'leisure, passes by', 'leisure, 400 m', 'ended yesterday, 100 m', 'ended 13 days ago, 1200 m'].map(
        (name) => `${name} ${run}`,
      ),
    );
    const [tomorrow, , ongoing, passing] = response.body.events;
    expect(tomorrow).toMatchObject({ is_future: true, is_happening_now: false, is_current_or_future: true, is_active: true, is_leisure_route: false, city: 'London' });
    expect(ongoing).toMatchObject({ is_future: false, is_happening_now: true, is_current_or_future: true, is_active: true });
    expect(passing).toMatchObject({ is_leisure_route: true, is_active: true, start_time: null, end_time: null, city: 'London' });
    // The route runs 800 m either side of the point: the distance is to the line, not its ends.
    expect(passing.distance).toBeLessThan(1);
    expect(tomorrow.distance).toBeCloseTo(100, -1);
  });

  it('moves a ride from ongoing to recently ended as time passes, and drops it after 14 days', async () => {
    const query = `${base}&categories=${encodeURIComponent(family)}`;
    expect(names((await nearby(query)).body)).toEqual([`ongoing, 1200 m ${run}`, `leisure, passes by ${run}`]);
    expect(names((await nearby(query, T + HOUR)).body)).toEqual([`leisure, passes by ${run}`, `ongoing, 1200 m ${run}`]);
    const later = (await nearby(query, T + HOUR + 14 * DAY + 60_000)).body;
    expect(names(later)).toEqual([`leisure, passes by ${run}`]);
  });

  it('answers exactly the spec fields, the full destination with its categories, and the route', async () => {
    const { events } = (await nearby(`${base}&radius=200&categories=${encodeURIComponent(social)}`)).body;
    const event = events.find((candidate: { name: string }) => candidate.name === `tomorrow, 100 m ${run}`);
    expect(Object.keys(event).sort()).toEqual(
      [
        'id', 'name', 'alias', 'description', 'emoji', 'image_url', 'start_time', 'end_time', 'created_by', 'created_at', 'updated_at', 'is_active',
        'is_happening_now', 'is_future', 'is_current_or_future', 'is_leisure_route', 'visits_total', 'city', 'distance', 'destination', 'route', 'categories', 'images',
      ].sort(),
    );
    expect(event.alias).toBe(`tomorrow-100-m-${run}`);
    expect(event.destination).toMatchObject({ name: `Gordon Square ${run}`, area_name: 'Bloomsbury', city: 'London', categories: [{ name: social, emoji: '☕' }] });
    expect(event.categories).toEqual([{ id: expect.any(Number), name: social, emoji: '☕' }]);
    expect(event.route).toBeNull();
    expect(Number.isInteger(event.id)).toBe(true);
  });

  it('filters by city (by name or id, any case), by area, and by both', async () => {
    const query = `${base}&categories=${encodeURIComponent(social)},${encodeURIComponent(family)}`;
    const all = names((await nearby(query)).body);
    expect(names((await nearby(`${query}&city=LONDON`)).body)).toEqual(all);
    expect(names((await nearby(`${query}&city=london`)).body)).toEqual(all);
    expect((await nearby(`${query}&city=New%20York%20City`)).body.events).toEqual([]);
    const holborn = encodeURIComponent(`holborn ${run}`.toUpperCase());
    expect(names((await nearby(`${query}&area=${holborn}`)).body)).toEqual(
      [`ongoing, 1200 m ${run}`, `leisure, passes by ${run}`, `ended 13 days ago, 1200 m ${run}`],
    );
    expect(names((await nearby(`${query}&area=${holborn}&city=London`)).body)).toHaveLength(3);
    expect((await nearby(`${query}&area=${holborn}&city=los-angeles`)).body.events).toEqual([]);
  });

  it('reads categories as comma-separated names, any of them, in any case', async () => {
    const familyOnly = names((await nearby(`${base}&categories=${encodeURIComponent(family.toUpperCase())}`)).body);
    expect(familyOnly).toEqual([`ongoing, 1200 m ${run}`, `leisure, passes by ${run}`]);
    const either = names((await nearby(`${base}&categories=${encodeURIComponent(` ${family} ,Nonexistent ${run}`)}`)).body);
    expect(either).toEqual(familyOnly);
    expect((await nearby(`${base}&categories=Nonexistent%20${run}`)).body.events).toEqual([]);
  });

  it('reflects updates and the full record matches eventById', async () => {
    const id = eventIds['next week, 400 m']!;
    await updateEvent(id, { start_time: iso(T - 3 * DAY - HOUR), end_time: iso(T - 3 * DAY) });
    const listed = names((await nearby(`${base}&categories=${encodeURIComponent(social)}`)).body);
    expect(listed.indexOf(`next week, 400 m ${run}`)).toBeGreaterThan(listed.indexOf(`leisure, 400 m ${run}`));
    const record = await withClockAt(T, () => eventById(id));
    expect(record).toMatchObject({ id, name: `next week, 400 m ${run}`, is_current_or_future: false, destination: { area_name: 'Bloomsbury' } });
    expect(record).not.toHaveProperty('distance');
    expect(await eventById(999_999_999)).toBeNull();
    expect(await eventById('not-an-id')).toBeNull();
  });
});

describe('writing events', () => {
  it('leaves nothing behind when a create fails after its id was issued; the next create gets a later id', async () => {
    const before = (await createEvent({ name: `Before ${run}`, emoji: '🚴', image_url: 'https://images.example/a.png', created_by: 'operator', destination_id: (await createDestination({ name: `Anywhere ${run}`, latitude: P.lat, longitude: P.lon, area_name: 'Bloomsbury' })).id, start_time: iso(T), end_time: iso(T + HOUR) })).id;
    await expect(
      createEvent({ name: `Broken ${run}`, emoji: '🚴', image_url: 'https://images.example/a.png', created_by: 'operator', destination_id: 987_654_321, start_time: iso(T), end_time: iso(T + HOUR) }),
    ).rejects.toThrow(/no destination 987654321/);
    // The failed create took an id after `before` and stored nothing under it.
    expect((await listEvents()).filter((event) => event.name === `Broken ${run}`)).toEqual([]);
    const after = (await createEvent({ name: `After ${run}`, emoji: '🚴', image_url: 'https://images.example/a.png', created_by: 'operator', destination_id: (await eventById(before))!.destination.id, start_time: iso(T), end_time: iso(T + HOUR) })).id;
    expect(after).toBeGreaterThan(before + 1);
  });
});

describe('the demo events of the local platform', () => {
  it('lists a leisure route planned on the real graph in every city, and no group ride years after the seeding', async () => {
    const points = { London: [51.5219, -0.1262], 'New York City': [40.7033, -74.017], 'Los Angeles': [34.0729, -118.4422], 'San Francisco Bay Area': [37.8068, -122.3019] };
    for (const [city, [latitude, longitude]] of Object.entries(points)) {
      // At T (2031), every demo group ride, timed around the platform's start, is long over.
      const response = await nearby(`latitude=${latitude}&longitude=${longitude}&radius=2000`, T);
      expect(response.status).toBe(200);
      const seeded = response.body.events.filter((event: { created_by: string }) => event.created_by !== 'operator');
      expect(seeded.length, city).toBeGreaterThan(0);
      for (const event of seeded) {
        expect(event, city).toMatchObject({ is_leisure_route: true, city });
        const line = decodeRoute(event.route.polyline);
        expect(line.length).toBeGreaterThan(5);
        expect(event.route.distance).toBeGreaterThan(300);
        const image = await fetch(event.image_url);
        expect(image.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
      }
    }
  });
});

describe('bad requests to /events/nearby/', () => {
  it.each([
    ['longitude=-0.13', 'latitude: is required (also accepted as lat)'],
    ['latitude=51.5', 'longitude: is required (also accepted as lon or lng)'],
    ['latitude=95&longitude=-0.13', 'latitude: must be a number between -90 and 90'],
    ['latitude=51.5&longitude=-0.13&radius=abc', 'radius: must be a number of metres greater than 0 and at most 50000'],
    ['latitude=51.5&longitude=-0.13&categories=,,', 'categories: must name at least one category (comma-separated)'],
    ['latitude=51.5&longitude=-0.13&city=', 'city: must be a non-empty name of at most 200 characters'],
    ['latitude=51.5&longitude=-0.13&area=%20', 'area: must be a non-empty name of at most 200 characters'],
  ])('?%s answers 400 naming the problem', async (query, error) => {
    const response = await nearby(query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(error);
  });

  it('answers 405 to POST and 200 with no events far from every city', async () => {
    expect((await call('/events/nearby/?latitude=51.5&longitude=-0.13', { api: 'app', method: 'POST' })).status).toBe(405);
    expect(await nearby('latitude=0&longitude=0')).toMatchObject({ status: 200, body: { events: [] } });
  });
});
