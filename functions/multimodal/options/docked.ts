import type { LonLat } from '../../../core/geo.ts';
import { CYCLING_SPEED_MPS } from '../../../core/routing/costing/speeds.ts';
import { BikeShareView, type LoadedSystem } from '../../bikeshare/loader.ts';
import { isOperationalStation, type Station } from '../../bikeshare/model.ts';
import { noRideEdges, zoneRules } from '../geofencing.ts';
import { optionName } from '../labels.ts';
import { pricingPlanFor, rentalLinkFor, stationBody, systemBody, type MultiModalOption } from '../response.ts';
import { assemble, keepsZones, rentedRide, SEARCH_RADIUS_METRES, type BuiltLeg, type Trip } from '../trip.ts';

/**
 * The docked option (spec 4.2): walk to the nearest station with a bike to rent, ride supersafe
 * (through the custom route when there is one) to the station nearest the trip's end with a free
 * dock, walk the rest. The docked e-bike option (docked-ebike.ts) is the same ride on an e-bike.
 */

/** What sets one docked option apart: the bike it rents, how fast that goes, where there is one. */
export interface DockedBike {
  type: 'docked' | 'docked_ebike';
  electric: boolean;
  speed: number;
  available(station: Station): boolean;
}

const CLASSIC: DockedBike = {
  type: 'docked',
  electric: false,
  speed: CYCLING_SPEED_MPS,
  available: (station) => station.num_bikes_available - (station.num_ebikes_available ?? 0) > 0,
};

export const dockedOption = (trip: Trip, system: LoadedSystem): MultiModalOption | null => dockedRide(trip, system, CLASSIC);

/** A docked ride on `bike` with one system, or null when its stations or legs do not make one. */
export function dockedRide(trip: Trip, system: LoadedSystem, bike: DockedBike): MultiModalOption | null {
  const { planner, request } = trip;
  const only = new BikeShareView([system]);
  const pickup = only.stationsNear(request.start, SEARCH_RADIUS_METRES, { limit: 1, where: (station) => isOperationalStation(station) && bike.available(station) }).found[0];
  if (!pickup) return null;
  // With a custom route the bike goes back to the station nearest the route's end (spec 4.2 rule 5).
  const dropoff = only.stationsNear(trip.end, SEARCH_RADIUS_METRES, {
    limit: 1,
    where: (station) => station.is_installed && station.is_returning && station.num_docks_available > 0,
  }).found[0];
  if (!dropoff) return null;
  if (pickup.item.station_id === dropoff.item.station_id && !trip.route) return null;

  const rules = zoneRules(system.snapshot.geofencing, null, trip.atSeconds);
  const ride = rentedRide(noRideEdges(rules, planner.context.loaded.network));
  const spec = (endKind: 'route_start' | 'dropoff', endLabel: string) => ({ bikeType: bike.type, endKind, endLabel, speed: bike.speed });
  const pickupAt: LonLat = [pickup.item.lon, pickup.item.lat];
  const dropoffAt: LonLat = [dropoff.item.lon, dropoff.item.lat];

  const toPickup = planner.walk(request.start, pickupAt, 'pickup', pickup.item.name);
  if (!toPickup) return null;
  const rented: BuiltLeg[] = [];
  if (trip.route) {
    const approach = planner.leg(ride, pickupAt, trip.route.start.location, spec('route_start', trip.route.name));
    const own = approach && planner.customLegs(trip.route, bike.type, bike.speed);
    const back = own && planner.leg(ride, trip.route.end.location, dropoffAt, spec('dropoff', dropoff.item.name));
    if (!approach || !own || !back) return null;
    rented.push(approach, ...own, back);
  } else {
    const leg = planner.leg(ride, pickupAt, dropoffAt, spec('dropoff', dropoff.item.name));
    if (!leg) return null;
    rented.push(leg);
  }
  const fromDropoff = planner.walk(dropoffAt, trip.end, 'destination', trip.endLabel);
  if (!fromDropoff || !keepsZones(rules, rented, system.snapshot.system_id, { start: false, end: false })) return null;

  return assemble(
    trip,
    {
      type: bike.type,
      name: optionName(planner.language, bike.type, system.snapshot.brand),
      supersafe: true,
      is_electric: bike.electric,
      parking: null,
      system: systemBody(system),
      pickup_station: stationBody(pickup.item, pickup.distance),
      dropoff_station: stationBody(dropoff.item, dropoff.distance),
      vehicle: null,
      pricing_plan: pricingPlanFor(system, bike.electric),
      rental_link: rentalLinkFor(system, pickup.item.rental_uris),
    },
    [toPickup, ...rented, fromDropoff],
  );
}
