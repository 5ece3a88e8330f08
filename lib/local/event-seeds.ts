import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DateTime, type WeekdayNumbers } from 'luxon';
import { cities, type CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { s3 } from '../../platform/aws.ts';
import { bucketName } from '../../platform/resources.ts';
import { createCategory, createDestination, listCategories, listDestinations } from '../../functions/events/catalogue.ts';
import { decodeRoute } from '../../functions/events/geometry.ts';
import { nearbyGroup, type DestinationItem, type EventItem } from '../../functions/events/model.ts';
import { createEvent, listEvents, updateEvent } from '../../functions/events/records.ts';
import { planEventRoute } from '../../functions/events/routes.ts';
import { renderEventImage } from './event-images.ts';

/**
 * The local platform's demo events: per city, permanent leisure routes planned on the city's
 * real routing graph, and group rides that ended recently, are happening now, and are coming
 * up, at real places inside the loaded OpenStreetMap extracts. A group ride keeps its day and
 * time in its city's local time (a Sunday social on a Sunday morning, a night ride in the
 * evening); the start decides only which week. What is happening now at any hour is a festival
 * of several days. When a restart finds a ride whose time has moved it into another group (the
 * festival has ended), it is moved back, so the demo always shows every group. Seeds are found
 * again by their `seed` key; the operator's own events are never touched.
 */

const CATEGORIES = [
  { name: 'Social', emoji: '☕' },
  { name: 'Family-friendly', emoji: '👨‍👩‍👧' },
  { name: 'Sightseeing', emoji: '🏛️' },
  { name: 'Parks & green', emoji: '🌳' },
  { name: 'Waterfront', emoji: '🌊' },
  { name: 'Night ride', emoji: '🌙' },
  { name: 'Beginners', emoji: '🐣' },
  { name: 'Campus', emoji: '🎓' },
];

interface SeedDestination {
  name: string;
  at: LonLat;
  area: string;
  categories: string[];
}

const DESTINATIONS: Record<string, SeedDestination> = {
  'russell-square': { name: 'Russell Square', at: [-0.1263, 51.522], area: 'Bloomsbury', categories: ['Parks & green'] },
  'british-museum': { name: 'British Museum, Great Russell Street', at: [-0.127, 51.5194], area: 'Bloomsbury', categories: ['Sightseeing'] },
  'bounds-green': { name: 'Bounds Green station', at: [-0.1243, 51.6071], area: 'Bounds Green', categories: [] },
  'royal-drive': { name: 'Royal Drive, Friern Barnet', at: [-0.1482, 51.6122], area: 'Friern Barnet', categories: ['Parks & green'] },
  'the-battery': { name: 'The Battery', at: [-74.017, 40.7033], area: 'Financial District', categories: ['Waterfront', 'Parks & green'] },
  'pier-1': { name: 'Brooklyn Bridge Park, Pier 1', at: [-73.9967, 40.7003], area: 'Brooklyn Heights', categories: ['Waterfront'] },
  'bryant-park': { name: 'Bryant Park', at: [-73.9832, 40.7536], area: 'Midtown', categories: ['Parks & green'] },
  'union-square': { name: 'Union Square', at: [-73.99, 40.7359], area: 'Union Square', categories: ['Social'] },
  'royce-hall': { name: 'Royce Hall, UCLA', at: [-118.4422, 34.0729], area: 'Westwood', categories: ['Campus', 'Sightseeing'] },
  'colorado-boulevard': { name: 'Colorado Boulevard, Pasadena', at: [-118.1699, 34.1429], area: 'Pasadena', categories: ['Sightseeing'] },
  'seventh-street': { name: '7th Street, West Oakland', at: [-122.3019, 37.8068], area: 'West Oakland', categories: ['Social'] },
  'euclid-avenue': { name: 'Euclid Avenue, North Berkeley', at: [-122.2603, 37.8757], area: 'North Berkeley', categories: [] },
  'lombard-street': { name: 'Lombard Street, Russian Hill', at: [-122.4187, 37.8021], area: 'Russian Hill', categories: ['Sightseeing'] },
  'potrero-hill': { name: '20th Street, Potrero Hill', at: [-122.3985, 37.7597], area: 'Potrero Hill', categories: ['Sightseeing'] },
};

export interface SeedEvent {
  key: string;
  city: CityId;
  name: string;
  emoji: string;
  description: string;
  destination: keyof typeof DESTINATIONS;
  categories: string[];
  /** Waypoints of a route planned on the city graph. */
  via?: LonLat[];
  /** Group rides: when they happen. Absent: a leisure route. */
  schedule?: RideSchedule;
}

/**
 * When a group ride happens, in its city's local time. A ride that is `coming up` starts at the
 * next `weekday` and `at` after the seed time (`weeksAway` weeks later still); one that `ended`
 * is the latest such ride over before it (`weeksAway` weeks earlier still). A festival runs from
 * 09:00 `daysBefore` days before the seed time's day until 21:00 `daysAfter` days after it.
 */
type RideSchedule =
  | { group: 'coming up' | 'ended'; weekday: WeekdayNumbers; at: { hour: number; minute: number }; hours: number; weeksAway?: number }
  | { group: 'festival'; daysBefore: number; daysAfter: number };

const WEDNESDAY = 3;
const THURSDAY = 4;
const FRIDAY = 5;
const SATURDAY = 6;
const SUNDAY = 7;

export const SEED_EVENTS: readonly SeedEvent[] = [
  // London: central Bloomsbury and outer North London are in the loaded extracts.
  {
    key: 'london-bloomsbury-squares',
    city: 'london',
    name: 'Bloomsbury Squares Loop',
    emoji: '🌳',
    description: 'A gentle loop of almost 4 km round Russell, Bedford, Gordon and Tavistock Squares on quiet streets and cycle tracks.',
    destination: 'russell-square',
    categories: ['Parks & green', 'Sightseeing', 'Beginners'],
    // Street corners of the squares, not their gardens, so the route goes round and not in and out.
    via: [[-0.1249, 51.5228], [-0.1283, 51.5184], [-0.1318, 51.5222], [-0.1316, 51.525], [-0.1279, 51.5262], [-0.1249, 51.5228]],
  },
  {
    key: 'london-north-link',
    city: 'london',
    name: 'North London Green Link',
    emoji: '🌿',
    description: 'From Bounds Green through New Southgate to Arnos Park, mostly on quiet residential streets.',
    destination: 'bounds-green',
    categories: ['Parks & green'],
    via: [[-0.1243, 51.6071], [-0.1429, 51.6141], [-0.1335, 51.6193]],
  },
  {
    key: 'london-museum-night-ride',
    city: 'london',
    name: 'Museum Mile Night Ride',
    emoji: '🌙',
    description: 'An evening ride from the British Museum to Euston on lit streets. Lights on, hi-vis welcome.',
    destination: 'british-museum',
    categories: ['Night ride', 'Sightseeing'],
    via: [[-0.127, 51.5194], [-0.1335, 51.527]],
    schedule: { group: 'coming up', weekday: FRIDAY, at: { hour: 19, minute: 30 }, hours: 3 },
  },
  {
    key: 'london-sunday-social',
    city: 'london',
    name: 'Bloomsbury Sunday Social',
    emoji: '☕',
    description: 'Meet at Russell Square for a short ride and coffee. New riders welcome; we ride at the pace of the slowest.',
    destination: 'russell-square',
    categories: ['Social', 'Beginners'],
    via: [[-0.1304, 51.5183], [-0.1262, 51.5219]],
    schedule: { group: 'coming up', weekday: SUNDAY, at: { hour: 10, minute: 0 }, hours: 2 },
  },
  {
    key: 'london-friern-family-ride',
    city: 'london',
    name: 'Friern Barnet Family Ride',
    emoji: '👨‍👩‍👧',
    description: 'A slow family ride from Royal Drive across to Bounds Green, with a picnic stop.',
    destination: 'royal-drive',
    categories: ['Family-friendly', 'Parks & green'],
    via: [[-0.148, 51.612], [-0.13, 51.61]],
    schedule: { group: 'ended', weekday: SATURDAY, at: { hour: 10, minute: 0 }, hours: 3 },
  },
  {
    key: 'london-autumn-kickoff',
    city: 'london',
    name: 'Autumn Kick-off Ride',
    emoji: '🍂',
    description: 'The season opener at Bounds Green. (Ended a month ago: no longer listed nearby.)',
    destination: 'bounds-green',
    categories: ['Social'],
    schedule: { group: 'ended', weekday: SATURDAY, at: { hour: 9, minute: 30 }, hours: 2, weeksAway: 4 },
  },  {
    key: 'london-bloomsbury-festival',
    city: 'london',
    name: 'Bloomsbury Cycling Festival',
    emoji: '🎉',
    description: 'Five days of led rides, bike marking and repair stands around Russell Square, every day from 9am.',
    destination: 'russell-square',
    categories: ['Social', 'Family-friendly'],
    schedule: { group: 'festival', daysBefore: 1, daysAfter: 3 },
  },

  // New York: Lower Manhattan with Downtown Brooklyn, and Midtown.
  {
    key: 'nyc-hudson-greenway',
    city: 'new-york',
    name: 'Hudson River Greenway: The Battery to the West Village',
    emoji: '🌊',
    description: 'The protected greenway along the Hudson, from The Battery past Tribeca to the West Village piers.',
    destination: 'the-battery',
    categories: ['Waterfront', 'Beginners'],
    via: [[-74.017, 40.7033], [-74.0137, 40.717], [-74.0115, 40.727]],
  },
  {
    key: 'nyc-brooklyn-bridge-park',
    city: 'new-york',
    name: 'Brooklyn Bridge Park and the Heights',
    emoji: '🌉',
    description: 'Pier 1, Brooklyn Heights and back to the Brooklyn Bridge bike path, with views of Lower Manhattan.',
    destination: 'pier-1',
    categories: ['Waterfront', 'Sightseeing'],
    via: [[-73.9967, 40.7003], [-73.999, 40.696], [-73.993, 40.703]],
  },
  {
    key: 'nyc-evening-spin',
    city: 'new-york',
    name: 'Union Square Evening Spin',
    emoji: '🌙',
    description: 'From Union Square west to the Chelsea piers on protected lanes.',
    destination: 'union-square',
    categories: ['Night ride', 'Social'],
    via: [[-73.99, 40.7359], [-74.0048, 40.742]],
    schedule: { group: 'coming up', weekday: WEDNESDAY, at: { hour: 18, minute: 30 }, hours: 2 },
  },
  {
    key: 'nyc-coffee-ride',
    city: 'new-york',
    name: 'Bryant Park to Madison Square Coffee Ride',
    emoji: '☕',
    description: 'A relaxed Saturday morning ride down the avenues with a coffee stop at Madison Square.',
    destination: 'bryant-park',
    categories: ['Social'],
    via: [[-73.9832, 40.7536], [-73.988, 40.742]],
    schedule: { group: 'coming up', weekday: SATURDAY, at: { hour: 9, minute: 0 }, hours: 2 },
  },
  {
    key: 'nyc-battery-kids-ride',
    city: 'new-york',
    name: "The Battery Kids' Ride",
    emoji: '🧒',
    description: 'Learn-to-ride morning for children at The Battery bikeway.',
    destination: 'the-battery',
    categories: ['Family-friendly', 'Waterfront'],
    schedule: { group: 'ended', weekday: SUNDAY, at: { hour: 10, minute: 0 }, hours: 2 },
  },  {
    key: 'nyc-union-square-repair-week',
    city: 'new-york',
    name: 'Union Square Bike Repair Week',
    emoji: '🔧',
    description: 'Free repair stands and safety checks on the north plaza of Union Square, every day from 9am.',
    destination: 'union-square',
    categories: ['Social', 'Beginners'],
    schedule: { group: 'festival', daysBefore: 2, daysAfter: 2 },
  },

  // Los Angeles: UCLA and Westwood, and Pasadena.
  {
    key: 'la-ucla-loop',
    city: 'los-angeles',
    name: 'UCLA Campus Loop',
    emoji: '🎓',
    description: 'Royce Hall, Pauley Pavilion and the campus paths: car-free most of the way.',
    destination: 'royce-hall',
    categories: ['Campus', 'Beginners'],
    via: [[-118.4422, 34.0729], [-118.4468, 34.0703], [-118.444, 34.069], [-118.4422, 34.0729]],
  },
  {
    key: 'la-bike-to-campus',
    city: 'los-angeles',
    name: 'Westwood Bike to Campus Day',
    emoji: '🚲',
    description: 'Free tune-ups and breakfast for everyone who rides to campus.',
    destination: 'royce-hall',
    categories: ['Campus', 'Social'],
    schedule: { group: 'coming up', weekday: THURSDAY, at: { hour: 7, minute: 30 }, hours: 4, weeksAway: 1 },
  },
  {
    key: 'la-colorado-evening',
    city: 'los-angeles',
    name: 'Colorado Boulevard Evening Ride',
    emoji: '🌆',
    description: 'Old Pasadena at dusk along Colorado Boulevard.',
    destination: 'colorado-boulevard',
    categories: ['Night ride', 'Sightseeing'],
    via: [[-118.185, 34.142], [-118.17, 34.143]],
    schedule: { group: 'ended', weekday: FRIDAY, at: { hour: 17, minute: 30 }, hours: 2, weeksAway: 1 },
  },
  // San Francisco Bay Area: San Francisco's hills, and the small West Oakland and North Berkeley extracts.
  {
    key: 'sf-russian-hill-climb',
    city: 'sf-bay',
    name: 'Over Nob Hill and Russian Hill',
    emoji: '⛰️',
    description: 'From Union Square over Nob Hill and Russian Hill to the crooked block of Lombard Street, then down to the Marina: about 170 m of climbing in 5 km.',
    destination: 'lombard-street',
    categories: ['Sightseeing'],
    via: [[-122.4075, 37.788], [-122.4187, 37.8021], [-122.4365, 37.804]],
  },
  {
    key: 'sf-potrero-hill-climb',
    city: 'sf-bay',
    name: 'Up Potrero Hill',
    emoji: '🌄',
    description: 'From the Mission up to the views from 20th Street on Potrero Hill: about 100 m of climbing in 3 km.',
    destination: 'potrero-hill',
    categories: ['Sightseeing'],
    via: [[-122.4215, 37.7615], [-122.3985, 37.7597]],
  },
  {
    key: 'sf-west-oakland-loop',
    city: 'sf-bay',
    name: 'West Oakland Blocks Loop',
    emoji: '🏘️',
    description: 'A short loop of the blocks around 7th and Campbell Streets, on quiet streets.',
    destination: 'seventh-street',
    categories: ['Beginners'],
    via: [[-122.302, 37.8065], [-122.299, 37.8088], [-122.2985, 37.8065], [-122.302, 37.8065]],
  },
  {
    key: 'sf-bike-week',
    city: 'sf-bay',
    name: 'West Oakland Bike Week',
    emoji: '🎉',
    description: 'A week of energizer stations, group rides and repair clinics on 7th Street.',
    destination: 'seventh-street',
    categories: ['Social', 'Family-friendly'],
    schedule: { group: 'festival', daysBefore: 2, daysAfter: 3 },
  },
  {
    key: 'sf-euclid-meetup',
    city: 'sf-bay',
    name: 'North Berkeley Coffee Meetup',
    emoji: '☕',
    description: 'Riders meet on Euclid Avenue before heading up into the hills.',
    destination: 'euclid-avenue',
    categories: ['Social'],
    schedule: { group: 'coming up', weekday: SATURDAY, at: { hour: 8, minute: 30 }, hours: 2, weeksAway: 1 },
  },
];

/** A group ride's start and end for a seed time (null for a leisure route). */
export function seedEventTimes(seed: Pick<SeedEvent, 'city' | 'schedule'>, nowMs: number): { start_time: string | null; end_time: string | null } {
  const { schedule } = seed;
  if (!schedule) return { start_time: null, end_time: null };
  const now = DateTime.fromMillis(nowMs, { zone: cities[seed.city].timeZone });
  const iso = (time: DateTime) => time.toUTC().toISO({ suppressMilliseconds: true })!;
  if (schedule.group === 'festival') {
    const today = now.startOf('day');
    return { start_time: iso(today.minus({ days: schedule.daysBefore }).set({ hour: 9 })), end_time: iso(today.plus({ days: schedule.daysAfter }).set({ hour: 21 })) };
  }
  // The ride of the seed time's week, then the nearest week on the side its group asks for.
  let start = now.set({ weekday: schedule.weekday, ...schedule.at, second: 0, millisecond: 0 });
  if (schedule.group === 'coming up') {
    while (start <= now) start = start.plus({ weeks: 1 });
    start = start.plus({ weeks: schedule.weeksAway ?? 0 });
  } else {
    while (start.plus({ hours: schedule.hours }) > now) start = start.minus({ weeks: 1 });
    start = start.minus({ weeks: schedule.weeksAway ?? 0 });
  }
  return { start_time: iso(start), end_time: iso(start.plus({ hours: schedule.hours })) };
}

/** The public URL of an object in the local photos bucket (s3rver serves reads without credentials). */
const photoUrl = (key: string) => `${process.env.AWS_ENDPOINT_URL_S3}/${bucketName('photos')}/${key}`;

async function coverImage(seed: SeedEvent, route: readonly LonLat[] | null, destination: DestinationItem): Promise<string> {
  const key = `events/seed/${seed.key}.png`;
  const png = await renderEventImage(seed.city, route, [destination.longitude, destination.latitude]);
  await s3().send(new PutObjectCommand({ Bucket: bucketName('photos'), Key: key, Body: png, ContentType: 'image/png' }));
  return photoUrl(key);
}

export interface SeedOutcome {
  created: number;
  retimed: number;
}

export async function seedEvents(options: { cities: readonly CityId[]; createdBy: string; nowMs: number; log: (line: string) => void }): Promise<SeedOutcome> {
  const known = new Set((await listCategories()).map((category) => category.name_key));
  for (const category of CATEGORIES) if (!known.has(category.name.toLowerCase())) await createCategory(category);

  const destinations = new Map((await listDestinations()).map((destination) => [destination.name, destination]));
  const destinationOf = async (key: keyof typeof DESTINATIONS): Promise<DestinationItem> => {
    const seed = DESTINATIONS[key]!;
    let destination = destinations.get(seed.name);
    if (!destination) {
      destination = await createDestination({ name: seed.name, longitude: seed.at[0], latitude: seed.at[1], area_name: seed.area, categories: seed.categories });
      destinations.set(seed.name, destination);
    }
    return destination;
  };

  const existing = new Map((await listEvents()).filter((event) => event.seed).map((event) => [event.seed!, event]));
  const outcome: SeedOutcome = { created: 0, retimed: 0 };
  for (const seed of SEED_EVENTS.filter((candidate) => options.cities.includes(candidate.city))) {
    const current: EventItem | undefined = existing.get(seed.key);
    const times = seedEventTimes(seed, options.nowMs);
    if (current) {
      // Keep each group ride in the group it was designed for, and its image URL on this run's S3 port.
      const designed = nearbyGroup({ ...times, archived_at: null }, options.nowMs);
      const image = photoUrl(`events/seed/${seed.key}.png`);
      const retime = current.start_time !== null && nearbyGroup(current, options.nowMs) !== designed;
      if (retime || current.image_url !== image) {
        await updateEvent(current.id, { ...(retime ? times : {}), image_url: image, images: [{ image_url: image, created_at: current.images[0]?.created_at }] });
        if (retime) outcome.retimed++;
      }
      continue;
    }
    const destination = await destinationOf(seed.destination);
    const planned = seed.via ? await planEventRoute(seed.via) : null;
    const image = await coverImage(seed, planned ? decodeRoute(planned.route.polyline) : null, destination);
    await createEvent(
      {
        name: seed.name,
        description: seed.description,
        emoji: seed.emoji,
        image_url: image,
        ...times,
        created_by: options.createdBy,
        destination_id: destination.id,
        categories: seed.categories,
        route: planned ? { polyline: planned.route.polyline, distance: planned.route.distance, duration: planned.route.duration } : null,
        images: [{ image_url: image }],
      },
      { seed: seed.key },
    );
    outcome.created++;
  }
  if (outcome.created || outcome.retimed) options.log(`events: ${outcome.created} demo events created, ${outcome.retimed} moved back to their time`);
  return outcome;
}
