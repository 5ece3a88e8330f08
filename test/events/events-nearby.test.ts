import { describe, expect, it } from 'vitest';
import type { LonLat } from '../../core/geo.ts';
import { decodeRoute, distanceToLine, encodeRoute, eventCity, routeBbox } from '../../functions/events/geometry.ts';
import { eventFlags, type CategoryItem, type DestinationItem, type EventItem } from '../../functions/events/model.ts';
import { cityNamed, selectNearby } from '../../functions/events/nearby.ts';
import type { EventContext } from '../../functions/events/records.ts';

/**
 * The rules of spec 2.3 and 4.8 at explicit times: the flags, the three groups and their order,
 * distances to routes and destinations, and the filters. Events are built in memory around
 * Russell Square, London.
 */

const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();
const POINT: LonLat = [-0.126, 51.5218];
/** A point about `metres` east of POINT. */
const east = (metres: number): LonLat => [POINT[0] + metres / (111_320 * Math.cos((POINT[1] * Math.PI) / 180)), POINT[1]];

const category = (id: number, name: string): CategoryItem => ({ category_id: String(id), id, name, name_key: name.toLowerCase(), emoji: '🚲', created_at: at(NOW), updated_at: at(NOW) });
const destination = (id: number, where: LonLat, area: string): DestinationItem => ({
  destination_id: String(id),
  id,
  name: `Destination ${id}`,
  latitude: where[1],
  longitude: where[0],
  area_name: area,
  city: 'london',
  category_ids: [],
  created_at: at(NOW),
  updated_at: at(NOW),
});

const context: EventContext = {
  categories: new Map([category(1, 'Social'), category(2, 'Family'), category(3, 'Night ride')].map((c) => [c.id, c])),
  destinations: new Map(
    [destination(1, east(100), 'Bloomsbury'), destination(2, east(300), 'Bloomsbury'), destination(3, east(600), 'Holborn'), destination(4, east(5000), 'Hackney')].map((d) => [d.id, d]),
  ),
};

let nextId = 1;
function event(fields: Partial<Omit<EventItem, 'route'>> & { start?: number | null; end?: number | null; route?: LonLat[] }): EventItem {
  const id = nextId++;
  const { start, end, route, ...rest } = fields;
  return {
    event_id: String(id),
    id,
    name: `Event ${id}`,
    alias: `event-${id}`,
    description: '',
    emoji: '🚴',
    image_url: 'https://images.example/cover.png',
    start_time: start === null || start === undefined ? null : at(start),
    end_time: end === null || end === undefined ? null : at(end),
    created_by: 'operator',
    created_at: at(NOW - 30 * DAY),
    updated_at: at(NOW - 30 * DAY),
    visits_total: 0,
    city: 'london',
    destination_id: 1,
    category_ids: [1],
    images: [],
    route: route ? { distance: 1000, duration: 240, polyline: encodeRoute(route) } : null,
    route_bbox: route ? routeBbox(route) : null,
    archived_at: null,
    ...rest,
  };
}

const query = { latitude: POINT[1], longitude: POINT[0], radius: 1000 };
const names = (list: { name: string }[]) => list.map((item) => item.name);

describe('event flags from the clock', () => {
  const ride = { start_time: at(NOW), end_time: at(NOW + 2 * HOUR), archived_at: null };

  it('a group ride is future before its start, happening from its start until its end, then over', () => {
    expect(eventFlags(ride, NOW - 1)).toEqual({ is_active: true, is_happening_now: false, is_future: true, is_current_or_future: true, is_leisure_route: false });
    expect(eventFlags(ride, NOW)).toEqual({ is_active: true, is_happening_now: true, is_future: false, is_current_or_future: true, is_leisure_route: false });
    expect(eventFlags(ride, NOW + 2 * HOUR - 1)).toMatchObject({ is_happening_now: true, is_current_or_future: true });
    expect(eventFlags(ride, NOW + 2 * HOUR)).toEqual({ is_active: false, is_happening_now: false, is_future: false, is_current_or_future: false, is_leisure_route: false });
  });

  it('a leisure route is always active and never happening, future or over', () => {
    for (const time of [0, NOW, NOW + 365 * DAY]) {
      expect(eventFlags({ start_time: null, end_time: null, archived_at: null }, time)).toEqual({
        is_active: true,
        is_happening_now: false,
        is_future: false,
        is_current_or_future: false,
        is_leisure_route: true,
      });
    }
  });

  it('a withdrawn event is not active', () => {
    expect(eventFlags({ ...ride, archived_at: at(NOW - DAY) }, NOW - HOUR).is_active).toBe(false);
    expect(eventFlags({ start_time: null, end_time: null, archived_at: at(NOW) }, NOW).is_active).toBe(false);
  });
});

describe('events near a point', () => {
  const near = [POINT, east(50)];
  const events = [
    event({ name: 'ended 2 days ago, far', start: NOW - 2 * DAY - 2 * HOUR, end: NOW - 2 * DAY, destination_id: 3 }),
    event({ name: 'leisure, 300 m', start: null, end: null, route: [east(300), east(900)] }),
    event({ name: 'tomorrow, 300 m', start: NOW + DAY, end: NOW + DAY + 2 * HOUR, destination_id: 2 }),
    event({ name: 'ongoing, 600 m', start: NOW - HOUR, end: NOW + HOUR, destination_id: 3 }),
    event({ name: 'ended 1 day ago, near', start: NOW - DAY - HOUR, end: NOW - DAY, route: near }),
    event({ name: 'next week, 100 m', start: NOW + 7 * DAY, end: NOW + 7 * DAY + HOUR, destination_id: 1 }),
    event({ name: 'leisure, 0 m', start: null, end: null, route: [east(-2000), east(2000)] }),
    event({ name: 'ended 15 days ago', start: NOW - 15 * DAY - HOUR, end: NOW - 15 * DAY, destination_id: 1 }),
    event({ name: 'ended exactly 14 days ago', start: NOW - 14 * DAY - HOUR, end: NOW - 14 * DAY, destination_id: 2 }),
    event({ name: 'withdrawn', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 1, archived_at: at(NOW - HOUR) }),
    event({ name: 'tomorrow, 5 km', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 4 }),
  ];

  it('lists upcoming and ongoing rides by distance, then leisure routes, then rides ended within 14 days', () => {
    expect(names(selectNearby(events, context, query, NOW))).toEqual([
      'next week, 100 m',
      'tomorrow, 300 m',
      'ongoing, 600 m',
      'leisure, 0 m',
      'leisure, 300 m',
      'ended 1 day ago, near',
      'ended exactly 14 days ago',
      'ended 2 days ago, far',
    ]);
  });

  it('measures to the nearest point of a route line, not to its vertices, and to the destination otherwise', () => {
    const listed = selectNearby(events, context, query, NOW);
    const byName = Object.fromEntries(listed.map((view) => [view.name, view]));
    // The 4 km line passes through the point though both its ends are 2 km away.
    expect(byName['leisure, 0 m']!.distance).toBeLessThan(1);
    expect(byName['leisure, 300 m']!.distance).toBeCloseTo(300, -1);
    expect(byName['ongoing, 600 m']!.distance).toBeCloseTo(600, -1);
    expect(byName['ongoing, 600 m']).toMatchObject({ is_happening_now: true, is_current_or_future: true, city: 'London' });
    expect(byName['leisure, 0 m']!.start_time).toBeNull();
  });

  it('leaves out what is beyond the radius', () => {
    expect(names(selectNearby(events, context, { ...query, radius: 350 }, NOW))).toEqual([
      'next week, 100 m',
      'tomorrow, 300 m',
      'leisure, 0 m',
      'leisure, 300 m',
      'ended 1 day ago, near',
      'ended exactly 14 days ago',
    ]);
    expect(names(selectNearby(events, context, { ...query, radius: 10_000 }, NOW))).toContain('tomorrow, 5 km');
  });

  it('moves a ride from upcoming to recently ended as time passes', () => {
    const ride = [event({ name: 'ride', start: NOW, end: NOW + HOUR, destination_id: 1 }), event({ name: 'route', start: null, end: null, route: near })];
    expect(names(selectNearby(ride, context, query, NOW - 1))).toEqual(['ride', 'route']);
    expect(names(selectNearby(ride, context, query, NOW + HOUR))).toEqual(['route', 'ride']);
    expect(names(selectNearby(ride, context, query, NOW + HOUR + 14 * DAY + 1))).toEqual(['route']);
  });

  it('filters by categories (any of them, any case), area and city (by name or id, any case); all must match', () => {
    const tagged = [
      event({ name: 'social', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 1, category_ids: [1] }),
      event({ name: 'family', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 3, category_ids: [2] }),
      event({ name: 'night and social', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 2, category_ids: [3, 1] }),
      event({ name: 'none', start: NOW + DAY, end: NOW + DAY + HOUR, destination_id: 2, category_ids: [] }),
    ];
    expect(names(selectNearby(tagged, context, { ...query, categories: ['social'] }, NOW))).toEqual(['social', 'night and social']);
    expect(names(selectNearby(tagged, context, { ...query, categories: ['FAMILY', 'Night Ride'] }, NOW))).toEqual(['night and social', 'family']);
    expect(names(selectNearby(tagged, context, { ...query, categories: ['Racing'] }, NOW))).toEqual([]);
    expect(names(selectNearby(tagged, context, { ...query, area: 'holborn' }, NOW))).toEqual(['family']);
    expect(names(selectNearby(tagged, context, { ...query, area: 'Bloomsbury', city: 'LONDON' }, NOW))).toEqual(['social', 'night and social', 'none']);
    expect(names(selectNearby(tagged, context, { ...query, area: 'Bloomsbury', city: 'new-york' }, NOW))).toEqual([]);
    expect(names(selectNearby(tagged, context, { ...query, city: 'london', categories: ['social'], area: 'Holborn' }, NOW))).toEqual([]);
    expect(names(selectNearby(tagged, context, { ...query, city: 'Atlantis' }, NOW))).toEqual([]);
  });
});

describe('event geometry', () => {
  it('names cities by name or id in any case', () => {
    expect(cityNamed('new york city')?.id).toBe('new-york');
    expect(cityNamed(' SF-BAY ')?.id).toBe('sf-bay');
    expect(cityNamed('Paris')).toBeNull();
  });

  it('computes the city from where the route starts, else from the destination', () => {
    expect(eventCity([[-73.99, 40.73], POINT], POINT)?.id).toBe('new-york');
    expect(eventCity(null, POINT)?.id).toBe('london');
    expect(eventCity(null, [2.35, 48.85])).toBeNull();
  });

  it('encodes routes as precision-5 polylines', () => {
    const line: LonLat[] = [[-0.12601, 51.52184], [-0.12455, 51.52211]];
    expect(decodeRoute(encodeRoute(line))).toEqual(line);
    expect(distanceToLine([-0.12601, 51.52184], line)).toBe(0);
  });
});
