import polyline from '@mapbox/polyline';
import { DateTime } from 'luxon';
import sharp from 'sharp';
import { cities, type CityId } from '../../core/cities/index.ts';
import { haversineMetres } from '../../core/geo.ts';
import { getEvent, putEvent, type EventCategory, type EventItem } from '../../functions/events/records.ts';
import { bucketImageStore, newImageKey, publicImageUrl } from '../../functions/images/storage.ts';
import { nowMs } from '../../functions/platform/clock.ts';
import { createRide, rideSummaries } from '../../functions/rides/records.ts';
import { newRideBody } from '../../functions/rides/request.ts';

/**
 * The demo rider's history for `npm start`: a handful of events (two permanent leisure routes,
 * one happening now, one next week, one that ended) and fourteen rides across the four cities,
 * five of them on events, on streets of each city's extract. Seeded once: a rider who already
 * has rides keeps them; events that exist are left alone.
 */

type Waypoints = [number, number][];

const categories = {
  groupRide: { id: 1, name: 'Group ride', emoji: '🚴' },
  leisure: { id: 2, name: 'Leisure route', emoji: '🌳' },
  waterfront: { id: 3, name: 'Waterfront', emoji: '🌊' },
  social: { id: 4, name: 'Social', emoji: '☕' },
} satisfies Record<string, EventCategory>;

interface DemoEvent {
  id: number;
  name: string;
  alias: string;
  description: string;
  emoji: string;
  city: CityId;
  /** Hours from now to start and to end; null for a leisure route. */
  window: [number, number] | null;
  destination: { id: number; name: string; latitude: number; longitude: number; area_name: string };
  categories: EventCategory[];
  route: Waypoints;
  colour: { r: number; g: number; b: number };
}

const demoEvents: DemoEvent[] = [
  {
    id: 101,
    name: 'Thames Evening Social',
    alias: 'thames-evening-social',
    description: 'An easy social ride along the Embankment to Tower Bridge, with coffee at the end.',
    emoji: '🌉',
    city: 'london',
    window: [24 * 7 + 2, 24 * 7 + 4],
    destination: { id: 201, name: 'Tower Bridge', latitude: 51.5055, longitude: -0.0754, area_name: 'Southwark' },
    categories: [categories.groupRide, categories.social],
    route: [[-0.1246, 51.5074], [-0.1165, 51.5098], [-0.1004, 51.5093], [-0.0877, 51.5076], [-0.0754, 51.5055]],
    colour: { r: 30, g: 90, b: 160 },
  },
  {
    id: 102,
    name: 'Hudson River Greenway',
    alias: 'hudson-river-greenway',
    description: 'The protected riverside path from Battery Park to Little Island, any time.',
    emoji: '🗽',
    city: 'new-york',
    window: null,
    destination: { id: 202, name: 'Little Island', latitude: 40.742, longitude: -74.0101, area_name: 'Chelsea' },
    categories: [categories.leisure, categories.waterfront],
    route: [[-74.0171, 40.7033], [-74.0159, 40.7115], [-74.0135, 40.7223], [-74.0112, 40.7332], [-74.0101, 40.742]],
    colour: { r: 20, g: 130, b: 90 },
  },
  {
    id: 103,
    name: 'Golden Gate Sunrise Ride',
    alias: 'golden-gate-sunrise',
    description: 'Crissy Field to the bridge for sunrise.',
    emoji: '🌅',
    city: 'sf-bay',
    window: [-24 * 4, -24 * 4 + 2],
    destination: { id: 203, name: 'Golden Gate Bridge Welcome Center', latitude: 37.8078, longitude: -122.475, area_name: 'Presidio' },
    categories: [categories.groupRide, categories.waterfront],
    route: [[-122.4473, 37.8057], [-122.4558, 37.8039], [-122.4658, 37.8035], [-122.475, 37.8078]],
    colour: { r: 200, g: 80, b: 40 },
  },
  {
    id: 104,
    name: 'LA River Path',
    alias: 'la-river-path',
    description: 'The Elysian Valley stretch of the LA River bike path.',
    emoji: '🌴',
    city: 'los-angeles',
    window: null,
    destination: { id: 204, name: 'Marsh Park', latitude: 34.0971, longitude: -118.2413, area_name: 'Elysian Valley' },
    categories: [categories.leisure],
    route: [[-118.2276, 34.0836], [-118.2328, 34.0887], [-118.2371, 34.0931], [-118.2413, 34.0971]],
    colour: { r: 220, g: 170, b: 40 },
  },
  {
    id: 105,
    name: "Regent's Park Laps",
    alias: 'regents-park-laps',
    description: 'Laps of the Outer Circle at an easy pace; join any time while it runs.',
    emoji: '🔁',
    city: 'london',
    window: [-1, 2],
    destination: { id: 205, name: 'The Hub, Regent\'s Park', latitude: 51.5313, longitude: -0.1541, area_name: 'Marylebone' },
    categories: [categories.groupRide],
    route: [[-0.1466, 51.5233], [-0.1581, 51.5245], [-0.1614, 51.5304], [-0.1541, 51.5313], [-0.1466, 51.5233]],
    colour: { r: 120, g: 60, b: 150 },
  },
];

interface DemoRide {
  city: CityId;
  daysAgo: number;
  /** Local time of day the ride started. */
  at: [number, number];
  waypoints: Waypoints;
  destination: [string, string] | null;
  eventId?: number;
  completed?: boolean;
}

const demoRides: DemoRide[] = [
  { city: 'london', daysAgo: 0, at: [8, 10], waypoints: [[-0.1337, 51.5246], [-0.1301, 51.5226], [-0.1246, 51.5219]], destination: ['British Museum', 'Great Russell St, London WC1B 3DG'] },
  { city: 'london', daysAgo: 0, at: [17, 45], waypoints: [[-0.1466, 51.5233], [-0.1581, 51.5245], [-0.1614, 51.5304], [-0.1541, 51.5313]], destination: ["Regent's Park", 'Outer Circle, London NW1'], eventId: 105 },
  { city: 'london', daysAgo: 1, at: [7, 55], waypoints: [[-0.1246, 51.5074], [-0.1165, 51.5098], [-0.1004, 51.5093], [-0.0877, 51.5076]], destination: ['St Paul\'s', 'St Paul\'s Churchyard, London EC4M 8AD'] },
  { city: 'london', daysAgo: 2, at: [18, 20], waypoints: [[-0.1419, 51.5010], [-0.1340, 51.5030], [-0.1276, 51.5072]], destination: ['Trafalgar Square', 'Trafalgar Sq, London WC2N 5DN'] },
  { city: 'london', daysAgo: 3, at: [9, 5], waypoints: [[-0.0877, 51.5076], [-0.0800, 51.5070], [-0.0754, 51.5055]], destination: ['Tower Bridge', 'Tower Bridge Rd, London SE1 2UP'], completed: false },
  { city: 'sf-bay', daysAgo: 4, at: [6, 40], waypoints: [[-122.4473, 37.8057], [-122.4558, 37.8039], [-122.4658, 37.8035], [-122.475, 37.8078]], destination: ['Golden Gate Bridge', 'Golden Gate Bridge, San Francisco, CA'], eventId: 103 },
  { city: 'sf-bay', daysAgo: 5, at: [12, 15], waypoints: [[-122.4194, 37.7749], [-122.4145, 37.7790], [-122.4080, 37.7840]], destination: ['Union Square', '333 Post St, San Francisco, CA 94108'] },
  { city: 'new-york', daysAgo: 9, at: [8, 30], waypoints: [[-74.0171, 40.7033], [-74.0159, 40.7115], [-74.0135, 40.7223], [-74.0112, 40.7332], [-74.0101, 40.742]], destination: ['Little Island', 'Pier 55, New York, NY 10014'], eventId: 102 },
  { city: 'new-york', daysAgo: 10, at: [17, 50], waypoints: [[-73.9857, 40.7484], [-73.9812, 40.7540], [-73.9776, 40.7600], [-73.9733, 40.7644]], destination: ['Central Park South', 'Central Park S, New York, NY'] },
  { city: 'new-york', daysAgo: 11, at: [7, 45], waypoints: [[-73.9969, 40.7061], [-73.9903, 40.7003], [-73.9865, 40.6928]], destination: ['Brooklyn Bridge Park', '334 Furman St, Brooklyn, NY 11201'] },
  { city: 'los-angeles', daysAgo: 16, at: [9, 0], waypoints: [[-118.2276, 34.0836], [-118.2328, 34.0887], [-118.2371, 34.0931], [-118.2413, 34.0971]], destination: ['Marsh Park', '2960 Marsh St, Los Angeles, CA 90039'], eventId: 104 },
  { city: 'los-angeles', daysAgo: 17, at: [16, 30], waypoints: [[-118.4912, 34.0195], [-118.4820, 34.0110], [-118.4695, 33.9850]], destination: ['Venice Beach', '1800 Ocean Front Walk, Venice, CA 90291'] },
  { city: 'new-york', daysAgo: 30, at: [10, 10], waypoints: [[-74.0171, 40.7033], [-74.0159, 40.7115], [-74.0135, 40.7223]], destination: null, eventId: 102 },
  { city: 'london', daysAgo: 45, at: [13, 0], waypoints: [[-0.1337, 51.5246], [-0.1419, 51.5010]], destination: ['Buckingham Palace', 'London SW1A 1AA'] },
];

/** A 640×360 banner in one colour, standing in for an organiser's photo. */
async function bannerUrl(colour: DemoEvent['colour']): Promise<string> {
  const bytes = await sharp({ create: { width: 640, height: 360, channels: 3, background: colour } }).png().toBuffer();
  const key = newImageKey('event', 'png');
  await bucketImageStore.put(key, bytes, 'image/png');
  return publicImageUrl(key);
}

const lengthOf = (points: Waypoints) =>
  points.slice(1).reduce((sum, point, index) => sum + haversineMetres(points[index]![0], points[index]![1], point[0], point[1]), 0);

const encode = (points: Waypoints) => polyline.encode(points.map(([longitude, latitude]) => [latitude, longitude]), 5);

async function seedDemoEvents(creator: string): Promise<void> {
  const at = DateTime.fromMillis(nowMs()).toUTC();
  for (const event of demoEvents) {
    if (await getEvent(event.id)) continue;
    const image = await bannerUrl(event.colour);
    const city = cities[event.city].name;
    const distance = Math.round(lengthOf(event.route));
    const item: EventItem = {
      event_id: String(event.id),
      id: event.id,
      name: event.name,
      alias: event.alias,
      description: event.description,
      emoji: event.emoji,
      image_url: image,
      start_time: event.window ? at.plus({ hours: event.window[0] }).toISO() : null,
      end_time: event.window ? at.plus({ hours: event.window[1] }).toISO() : null,
      created_by: creator,
      created_at: at.minus({ days: 60 }).toISO()!,
      updated_at: at.minus({ days: 2 }).toISO()!,
      is_active: true,
      visits_total: 0,
      city,
      destination: { ...event.destination, city, categories: event.categories },
      route: { distance, duration: Math.round(distance / (15 / 3.6)), polyline: encode(event.route) },
      categories: event.categories,
      images: [{ image_url: image, created_at: at.minus({ days: 30 }).toISO()! }],
    };
    await putEvent(item);
  }
}

/** Seeds the demo events and, when the rider has none yet, the demo rides. Returns the number of rides added. */
export async function seedDemoRides(riderId: string): Promise<number> {
  await seedDemoEvents(riderId);
  if ((await rideSummaries(riderId)).length > 0) return 0;
  for (const ride of demoRides) {
    const zone = cities[ride.city].timeZone;
    const started = DateTime.fromMillis(nowMs(), { zone })
      .minus({ days: ride.daysAgo })
      .set({ hour: ride.at[0], minute: ride.at[1], second: 0, millisecond: 0 });
    // A ride "today" that would start later than now happened an hour ago instead.
    const start = started.toMillis() > nowMs() ? DateTime.fromMillis(nowMs() - 3_600_000, { zone }) : started;
    const distance = Math.round(lengthOf(ride.waypoints) * 1.15);
    await createRide(
      riderId,
      newRideBody.parse({
        polyline: encode(ride.waypoints),
        date_started: start.toISO(),
        local_timezone: zone,
        distance_traveled: distance,
        duration_traveled: Math.round(distance / (14 / 3.6)),
        completed: ride.completed ?? true,
        destination_name: ride.destination?.[0] ?? null,
        destination_address: ride.destination?.[1] ?? null,
        event_id: ride.eventId ?? null,
      }),
    );
  }
  return demoRides.length;
}
