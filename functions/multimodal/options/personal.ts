import type { LonLat } from '../../../core/geo.ts';
import { CYCLING_SPEED_MPS } from '../../../core/routing/costing/speeds.ts';
import type { RouteVariant } from '../../../core/routing/planning/planner.ts';
import { endLabel, optionName } from '../labels.ts';
import type { ParkingBody } from '../parking/choose.ts';
import type { MultiModalOption } from '../response.ts';
import { assemble, DIRECT, SUPERSAFE, type BuiltLeg, type LegSpec, type Trip } from '../trip.ts';

/**
 * The Personal options (spec 4.2): the rider's own bike, supersafe and direct, through the stops;
 * with a parking choice, cycled to the spot and walked from there (rule 7); given once when both
 * variants take the same route (rule 1).
 */

const sameGeometry = (a: readonly BuiltLeg[], b: readonly BuiltLeg[]) =>
  a.length === b.length && a.every((leg, index) => JSON.stringify(leg.body.geometry.coordinates) === JSON.stringify(b[index]!.body.geometry.coordinates));

function personalLegs(trip: Trip, cycled: RouteVariant, parking: ParkingBody | null): BuiltLeg[] | null {
  const { planner, request } = trip;
  const spec = (endKind: LegSpec['endKind'], label: string): LegSpec => ({ bikeType: 'personal', endKind, endLabel: label });
  if (trip.route) {
    const approach = planner.leg(cycled, request.start, trip.route.start.location, spec('route_start', trip.route.name));
    const own = approach && planner.customLegs(trip.route, 'personal', CYCLING_SPEED_MPS);
    return approach && own ? [approach, ...own] : null;
  }
  const points: LonLat[] = [request.start, ...request.stops, request.end];
  const legs: BuiltLeg[] = [];
  for (let index = 1; index < points.length; index++) {
    const last = index === points.length - 1;
    if (last && parking) {
      // Spec 4.2 rule 7: cycle to the spot, walk the rest.
      const ride = planner.leg(cycled, points[index - 1]!, parking.location, spec('parking', endLabel(planner.language, 'park_bike')));
      const walk = ride && planner.walk(parking.location, points[index]!, 'destination', trip.endLabel);
      if (!ride || !walk) return null;
      legs.push(ride, walk);
      continue;
    }
    const leg = planner.leg(cycled, points[index - 1]!, points[index]!, last ? spec('destination', trip.endLabel) : spec('stop', endLabel(planner.language, 'stop', { n: index })));
    if (!leg) return null;
    legs.push(leg);
  }
  return legs;
}

export function personalOptions(trip: Trip, parking: ParkingBody | null): MultiModalOption[] {
  const name = optionName(trip.planner.language, 'personal');
  const base = { type: 'personal' as const, name, is_electric: false, parking, system: null, pickup_station: null, dropoff_station: null, vehicle: null, pricing_plan: null, rental_link: null };
  const supersafe = personalLegs(trip, SUPERSAFE, parking);
  const direct = personalLegs(trip, DIRECT, parking);
  const options: MultiModalOption[] = [];
  if (supersafe && direct && sameGeometry(supersafe, direct)) return [{ ...assemble(trip, { ...base, supersafe: true }, supersafe), same_as_direct: true }];
  if (supersafe) options.push(assemble(trip, { ...base, supersafe: true }, supersafe));
  if (direct) options.push(assemble(trip, { ...base, supersafe: false }, direct));
  return options;
}
