import type { LonLat } from '../../../core/geo.ts';
import { CYCLING_SPEED_MPS, EBIKE_SPEED_MPS } from '../../../core/routing/costing/speeds.ts';
import { roundPosition } from '../../../core/routing/planning/leg.ts';
import { BikeShareView, type LoadedSystem } from '../../bikeshare/loader.ts';
import { isAvailableVehicle, type Vehicle } from '../../bikeshare/model.ts';
import { mayPark, mayRent, noRideEdges, zoneRules } from '../geofencing.ts';
import { endLabel, optionName } from '../labels.ts';
import { endRide } from '../parking/ride-end.ts';
import { pricingPlanFor, rentalLinkFor, systemBody, type BikeType, type MultiModalOption } from '../response.ts';
import { assemble, keepsZones, rentedRide, SEARCH_RADIUS_METRES, type BuiltLeg, type Trip } from '../trip.ts';

/**
 * The dockless option (spec 4.2): walk to the nearest bike the operator lets a ride start from,
 * ride supersafe and clear of its no-ride zones (through the custom route when there is one), end
 * the ride where the operator allows it (parking/ride-end.ts) and walk the rest.
 */

const isBike = (vehicle: Vehicle) => vehicle.form_factor === null || vehicle.form_factor === 'bicycle' || vehicle.form_factor === 'cargo_bicycle';

export function docklessOption(trip: Trip, system: LoadedSystem): MultiModalOption | null {
  const { planner, request } = trip;
  const geofencing = system.snapshot.geofencing;
  const usable = (vehicle: Vehicle) =>
    isAvailableVehicle(vehicle) && isBike(vehicle) && mayRent(zoneRules(geofencing, vehicle.vehicle_type_id, trip.atSeconds).at([vehicle.lon, vehicle.lat]));
  const found = new BikeShareView([system]).vehiclesNear(request.start, SEARCH_RADIUS_METRES, { limit: 1, where: usable }).found[0];
  if (!found) return null;
  const vehicle = found.item;
  const rules = zoneRules(geofencing, vehicle.vehicle_type_id, trip.atSeconds);
  const ride = rentedRide(noRideEdges(rules, planner.context.loaded.network));
  const speed = vehicle.is_electric ? EBIKE_SPEED_MPS : CYCLING_SPEED_MPS;
  const bikeType: BikeType = vehicle.is_electric ? 'dockless_ebike' : 'dockless';
  const brand = system.snapshot.brand;
  const at: LonLat = [vehicle.lon, vehicle.lat];

  const toVehicle = planner.walk(request.start, at, 'pickup', endLabel(planner.language, vehicle.is_electric ? 'ebike' : 'bike', { system: brand }));
  if (!toVehicle) return null;
  const rented: BuiltLeg[] = [];
  let from = at;
  if (trip.route) {
    const approach = planner.leg(ride, at, trip.route.start.location, { bikeType, endKind: 'route_start', endLabel: trip.route.name, speed });
    const own = approach && planner.customLegs(trip.route, bikeType, speed);
    if (!approach || !own) return null;
    rented.push(approach, ...own);
    from = trip.route.end.location;
  }
  // A custom route that ends where a ride may end is done; otherwise the ride ends where the operator allows.
  let walkFrom: LonLat | null = null;
  if (!(trip.route && mayPark(rules.at(from)))) {
    const end = endRide(rules, trip.end, SEARCH_RADIUS_METRES, (candidate, atDestination) => {
      const leg = planner.leg(ride, from, candidate, {
        bikeType,
        endKind: atDestination ? 'destination' : 'dropoff',
        endLabel: atDestination ? trip.endLabel : endLabel(planner.language, 'end_ride'),
        speed,
      });
      const coordinates = leg?.body.geometry.coordinates;
      return leg ? { leg, end: coordinates![coordinates!.length - 1]! } : null;
    });
    if (!end) return null;
    rented.push(end.leg);
    walkFrom = end.walkFrom;
  }
  const legs = [toVehicle, ...rented];
  if (walkFrom) {
    const walk = planner.walk(walkFrom, trip.end, 'destination', trip.endLabel);
    if (!walk) return null;
    legs.push(walk);
  }
  if (!keepsZones(rules, rented, system.snapshot.system_id, { start: true, end: true })) return null;

  return assemble(
    trip,
    {
      type: 'dockless',
      name: optionName(planner.language, 'dockless', brand),
      supersafe: true,
      is_electric: vehicle.is_electric,
      parking: null,
      system: systemBody(system),
      pickup_station: null,
      dropoff_station: null,
      vehicle: {
        bike_id: vehicle.vehicle_id,
        location: roundPosition(at),
        vehicle_type: vehicle.vehicle_type,
        is_electric: vehicle.is_electric,
        current_range_meters: vehicle.current_range_meters,
        distance: Math.round(found.distance),
      },
      pricing_plan: pricingPlanFor(system, vehicle.is_electric, vehicle),
      rental_link: rentalLinkFor(system, vehicle.rental_uris),
    },
    legs,
  );
}
