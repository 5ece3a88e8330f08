import { DateTime } from 'luxon';
import { cities, type CityId } from '../../core/cities/index.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { decodeRoute, encodeRoute } from '../../functions/events/geometry.ts';
import type { EventItem } from '../../functions/events/model.ts';
import { listEvents } from '../../functions/events/records.ts';
import { nowMs } from '../../platform/clock.ts';
import { createRide, rideSummaries } from '../../functions/rides/records.ts';
import { newRideBody } from '../../functions/rides/request.ts';

/**
 * The demo rider's history for `npm start`: fourteen rides across the four cities, seven of them
 * on the demo events the platform seeds (lib/local/event-seeds.ts, found again by their seed
 * key, so there is one set of events): a ride on an event follows the event's planned route, and
 * a ride on a group ride starts when the group ride did. Seeded once, after the events: a rider
 * who already has rides keeps them. A ride whose event is not there (its city not served, see
 * `SPOKE_CITIES`) is recorded on its own waypoints without the event.
 */

interface DemoRide {
  city: CityId;
  daysAgo: number;
  /** Local time of day the ride started. */
  at: [number, number];
  waypoints: LonLat[];
  destination: [string, string] | null;
  /** The seed key of the demo event the ride was part of. */
  event?: string;
  completed?: boolean;
}

const demoRides: DemoRide[] = [
  { city: 'london', daysAgo: 0, at: [8, 10], waypoints: [[-0.1337, 51.5246], [-0.1301, 51.5226], [-0.1246, 51.5219]], destination: ['British Museum', 'Great Russell St, London WC1B 3DG'] },
  { city: 'london', daysAgo: 0, at: [17, 45], waypoints: [[-0.127, 51.5194], [-0.1335, 51.5282]], destination: ['Euston', 'Euston Rd, London NW1 2RT'], event: 'london-bloomsbury-festival' },
  { city: 'london', daysAgo: 1, at: [7, 55], waypoints: [[-0.1249, 51.5228], [-0.1283, 51.5184], [-0.1318, 51.5222]], destination: ['Russell Square', 'Russell Sq, London WC1B 5BE'], event: 'london-bloomsbury-squares' },
  { city: 'london', daysAgo: 2, at: [18, 20], waypoints: [[-0.1419, 51.501], [-0.134, 51.503], [-0.1276, 51.5072]], destination: ['Trafalgar Square', 'Trafalgar Sq, London WC2N 5DN'] },
  { city: 'london', daysAgo: 3, at: [9, 5], waypoints: [[-0.0877, 51.5076], [-0.08, 51.507], [-0.0754, 51.5055]], destination: ['Tower Bridge', 'Tower Bridge Rd, London SE1 2UP'], completed: false },
  { city: 'sf-bay', daysAgo: 4, at: [6, 40], waypoints: [[-122.302, 37.8065], [-122.299, 37.8088], [-122.2985, 37.8065]], destination: ['7th Street', '7th St, Oakland, CA 94607'], event: 'sf-west-oakland-loop' },
  { city: 'london', daysAgo: 5, at: [14, 0], waypoints: [[-0.148, 51.612], [-0.13, 51.61]], destination: ['Bounds Green', 'Bounds Green Rd, London N11'], event: 'london-friern-family-ride' },
  { city: 'sf-bay', daysAgo: 5, at: [12, 15], waypoints: [[-122.4194, 37.7749], [-122.4145, 37.779], [-122.408, 37.784]], destination: ['Union Square', '333 Post St, San Francisco, CA 94108'] },
  { city: 'new-york', daysAgo: 9, at: [8, 30], waypoints: [[-74.017, 40.7033], [-74.0137, 40.717], [-74.0115, 40.727]], destination: ['West Village piers', 'Hudson River Park, New York, NY 10014'], event: 'nyc-hudson-greenway' },
  { city: 'new-york', daysAgo: 10, at: [17, 50], waypoints: [[-73.9857, 40.7484], [-73.9812, 40.754], [-73.9776, 40.76], [-73.9733, 40.7644]], destination: ['Central Park South', 'Central Park S, New York, NY'] },
  { city: 'new-york', daysAgo: 11, at: [7, 45], waypoints: [[-73.9969, 40.7061], [-73.9903, 40.7003], [-73.9865, 40.6928]], destination: ['Brooklyn Bridge Park', '334 Furman St, Brooklyn, NY 11201'] },
  { city: 'los-angeles', daysAgo: 16, at: [9, 0], waypoints: [[-118.4422, 34.0729], [-118.4468, 34.0703], [-118.444, 34.069]], destination: ['Royce Hall', '10745 Dickson Ct, Los Angeles, CA 90095'], event: 'la-ucla-loop' },
  { city: 'los-angeles', daysAgo: 17, at: [16, 30], waypoints: [[-118.4912, 34.0195], [-118.482, 34.011], [-118.4695, 33.985]], destination: ['Venice Beach', '1800 Ocean Front Walk, Venice, CA 90291'] },
  { city: 'new-york', daysAgo: 30, at: [10, 10], waypoints: [[-74.017, 40.7033], [-74.0159, 40.7115], [-74.0135, 40.7223]], destination: null, event: 'nyc-hudson-greenway' },
];

const lengthOf = (points: readonly LonLat[]) =>
  points.slice(1).reduce((sum, point, index) => sum + haversineMetres(points[index]![0], points[index]![1], point[0], point[1]), 0);

/** When the ride started: a group ride's own start, else its day and local time (never later than now). */
function startOf(ride: DemoRide, event: EventItem | undefined): DateTime {
  const zone = cities[ride.city].timeZone;
  if (event?.start_time && Date.parse(event.start_time) <= nowMs()) return DateTime.fromISO(event.start_time, { zone });
  const started = DateTime.fromMillis(nowMs(), { zone })
    .minus({ days: ride.daysAgo })
    .set({ hour: ride.at[0], minute: ride.at[1], second: 0, millisecond: 0 });
  // A ride "today" that would start later than now happened an hour ago instead.
  return started.toMillis() > nowMs() ? DateTime.fromMillis(nowMs() - 3_600_000, { zone }) : started;
}

/** Seeds the demo rides when the rider has none yet; run after the demo events. Returns the number of rides added. */
export async function seedDemoRides(riderId: string): Promise<number> {
  if ((await rideSummaries(riderId)).length > 0) return 0;
  const seeded = new Map((await listEvents()).filter((event) => event.seed).map((event) => [event.seed!, event]));
  for (const ride of demoRides) {
    const event = ride.event ? seeded.get(ride.event) : undefined;
    const line = event?.route ? decodeRoute(event.route.polyline) : ride.waypoints;
    const distance = Math.round(event?.route?.distance ?? lengthOf(line) * 1.15);
    await createRide(
      riderId,
      newRideBody.parse({
        polyline: encodeRoute(line),
        date_started: startOf(ride, event).toISO(),
        local_timezone: cities[ride.city].timeZone,
        distance_traveled: distance,
        duration_traveled: Math.round(distance / (14 / 3.6)),
        completed: ride.completed ?? true,
        destination_name: ride.destination?.[0] ?? null,
        destination_address: ride.destination?.[1] ?? null,
        event_id: event?.id ?? null,
      }),
    );
  }
  return demoRides.length;
}
