import { z } from 'zod';
import { disruption, position, route } from '../directions/response.ts';
import { destination } from '../events/response.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';
import { LONDON_EBIKE_OPERATORS } from './parking/london-ebike-rules.ts';
import { SPOT_KINDS } from './parking/spots.ts';
import { roundPosition } from '../../core/routing/planning/leg.ts';
import type { LoadedSystem } from '../bikeshare/loader.ts';
import type { PricingPlan, RentalUris, Station, Vehicle } from '../bikeshare/model.ts';
import type { CustomRouteItem } from '../customroutes/records.ts';

/**
 * The answer of POST /multi-modal/v2/ (spec 4.2; docs/multimodal.md) as zod schemas, for the
 * OpenAPI documents (functions/openapi/), the handler's result type and the contract tests. Legs
 * have the directions route's shape (spec 4.2: "same shape as directions steps").
 */

const named = z.object({ name: z.string(), location: position });

const optionLeg = route
  .extend({
    mode: z.enum(['cycling', 'walking']),
    bike_type: z.enum(['personal', 'docked', 'docked_ebike', 'dockless', 'dockless_ebike']).nullable().meta({ description: 'The bike ridden on a cycling leg; null on walking legs.' }),
    end_kind: z.enum(['destination', 'stop', 'parking', 'pickup', 'dropoff', 'route_start', 'route_stop']).meta({ description: 'What the leg ends at.' }),
    end_label: z.string().meta({ description: "What a rider reads for the leg's end, in the request's language." }),
    reroutable: z.boolean().meta({ description: 'False on the legs of a custom route: navigation keeps the rider on them.' }),
  })
  .meta({ id: 'OptionLeg' });

const station = z
  .object({
    station_id: z.string(),
    name: z.string(),
    location: position,
    distance: z.number().meta({ description: 'Metres in a straight line from the start (pickup) or to the end (drop-off).' }),
    num_bikes_available: z.int(),
    num_ebikes_available: z.int().nullable(),
    num_docks_available: z.int(),
  })
  .meta({ id: 'OptionStation' });

const vehicle = z
  .object({
    bike_id: z.string(),
    location: position,
    vehicle_type: z.string(),
    is_electric: z.boolean(),
    current_range_meters: z.number().nullable(),
    distance: z.number(),
  })
  .meta({ id: 'OptionVehicle' });

const pricingSegment = z.object({ start: z.number(), rate: z.number(), interval: z.number(), end: z.number().nullable() });

const pricingPlan = z
  .object({
    plan_id: z.string(),
    name: z.string(),
    currency: z.string(),
    price: z.number(),
    is_taxable: z.boolean(),
    description: z.string(),
    per_km_pricing: z.array(pricingSegment),
    per_min_pricing: z.array(pricingSegment),
    surge_pricing: z.boolean(),
  })
  .meta({ id: 'PricingPlan', description: "The operator's GBFS pricing plan for the option." });

const rentalLink = z
  .object({ android: z.string().optional(), ios: z.string().optional(), web: z.string().optional() })
  .meta({ id: 'RentalLink', description: "Deep links into the operator's app or site to rent." });

const parking = z
  .object({
    kind: z.enum(SPOT_KINDS),
    id: z.string(),
    name: z.string().nullable(),
    location: position,
    capacity: z.int().nullable(),
    distance_to_destination: z.number().meta({ description: 'Metres in a straight line from the spot to the destination.' }),
    operators: z.array(z.enum(LONDON_EBIKE_OPERATORS)).nullable(),
    source: z.object({ name: z.string(), attribution: z.string() }),
  })
  .meta({ id: 'ParkingSpot' });

const destinationParking = z
  .object({
    area_name: z.string(),
    gss_code: z.string().meta({ description: 'ONS code of the borough.', ...beyondTheSpec }),
    ebike_parking_rule: z.enum(['bay_mandatory', 'free_floating']),
    operator: z.enum(LONDON_EBIKE_OPERATORS).optional(),
    covered: z.boolean().optional(),
  })
  .meta({ id: 'DestinationParking', description: "The destination borough's rental e-bike parking rule; null outside London's boroughs." });

const customRoute = z
  .object({
    id: z.uuid(),
    name: z.string(),
    start: named,
    stops: z.array(named),
    end: named,
    distance: z.number(),
    duration: z.number(),
  })
  .meta({ id: 'CustomRouteDetails', description: "A saved custom route's details, with the metres and seconds of its own legs in this option." });

const option = z
  .object({
    type: z.enum(['personal', 'docked', 'docked_ebike', 'dockless']),
    name: z.string(),
    supersafe: z.boolean(),
    same_as_direct: z.literal(true).optional().meta({ description: 'A Personal option whose supersafe and direct routes are the same, given once.' }),
    is_electric: z.boolean(),
    distance: z.number(),
    duration: z.number(),
    legs: z.array(optionLeg),
    event: customRoute.nullable(),
    disruptions: z.array(disruption),
    parking: parking.nullable(),
    system: z.object({ id: z.string(), brand: z.string(), provider: z.string() }).nullable(),
    pickup_station: station.nullable(),
    dropoff_station: station.nullable(),
    vehicle: vehicle.nullable(),
    pricing_plan: pricingPlan.nullable(),
    rental_link: rentalLink.nullable(),
  })
  .meta({ id: 'MultiModalOption' });

export const multiModalResponse = z
  .object({
    search_id: z.uuid(),
    options: z.array(option).meta({ description: 'Personal (supersafe first), docked, docked e-bike, dockless; empty when no option is viable.' }),
    destination_parking: destinationParking.nullable(),
    origin: z.object({ name: z.string().nullable(), location: position }).meta({ description: 'Beyond the spec: the start as planned, with its display name.', ...beyondTheSpec }),
    destination: z
      .object({ name: z.string().nullable(), location: position, details: destination.nullable() })
      .meta({ description: 'Beyond the spec: the end as planned; `details` is the destination named by `destination_id`.', ...beyondTheSpec }),
    graph_version: z.string().meta({ description: 'Beyond the spec: the routing network version.', ...beyondTheSpec }),
    sublabel: z.string().nullable().meta({ description: 'Beyond the spec: `Prefers well-lit roads` on night routes, else null.', ...beyondTheSpec }),
    metadata: z
      .object({ nighttime: z.boolean(), stops: z.int(), custom_route: z.string().nullable() })
      .meta({ description: 'Beyond the spec: whether night routing applied, the number of stops, the custom route used.', ...beyondTheSpec }),
  })
  .meta({ id: 'MultiModalResponse' });

export type MultiModalOption = z.output<typeof option>;
export type MultiModalBody = z.output<typeof multiModalResponse>;
export type OptionType = MultiModalOption['type'];
export type OptionLeg = z.output<typeof optionLeg>;
export type BikeType = NonNullable<OptionLeg['bike_type']>;
export type EndKind = OptionLeg['end_kind'];
export type StationBody = z.output<typeof station>;
export type VehicleBody = z.output<typeof vehicle>;
export type CustomRouteDetails = z.output<typeof customRoute>;

export type MultiModalOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'planned'; body: MultiModalBody };

/** Metres or seconds of a list of legs, to a tenth. */
export const total = (legs: readonly OptionLeg[], field: 'distance' | 'duration'): number => Math.round(legs.reduce((sum, leg) => sum + leg[field], 0) * 10) / 10;

/** A custom route as an option rides it: its points as saved, and its own legs' distance and time. */
export function customRouteDetails(route: CustomRouteItem, legs: readonly OptionLeg[]): CustomRouteDetails {
  const own = legs.filter((leg) => leg.end_kind === 'route_stop');
  const point = (stop: { name: string; location: [number, number] }) => ({ name: stop.name, location: roundPosition(stop.location) });
  return {
    id: route.route_id,
    name: route.name,
    start: point(route.start),
    stops: route.stops.map(point),
    end: point(route.end),
    distance: total(own, 'distance'),
    duration: total(own, 'duration'),
  };
}

export function stationBody(station: Station, distance: number): StationBody {
  return {
    station_id: station.station_id,
    name: station.name,
    location: roundPosition([station.lon, station.lat]),
    distance: Math.round(distance),
    num_bikes_available: station.num_bikes_available,
    num_ebikes_available: station.num_ebikes_available,
    num_docks_available: station.num_docks_available,
  };
}

export function systemBody(system: LoadedSystem): MultiModalOption['system'] {
  return { id: system.snapshot.system_id, brand: system.snapshot.brand, provider: system.snapshot.provider };
}

/** The plan a rental is priced by: the vehicle's own, else the one whose name or id says the kind of bike, else the first. */
export function pricingPlanFor(system: LoadedSystem, electric: boolean, vehicle?: Vehicle): PricingPlan | null {
  const plans = system.snapshot.pricing_plans;
  if (vehicle?.pricing_plan_id) {
    const own = plans.find((plan) => plan.plan_id === vehicle.pricing_plan_id);
    if (own) return own;
  }
  const ebike = (plan: PricingPlan) => /e-?bike|electric/i.test(`${plan.plan_id} ${plan.name}`);
  const bike = (plan: PricingPlan) => /bike|cycle/i.test(`${plan.plan_id} ${plan.name}`) && !ebike(plan);
  return plans.find(electric ? ebike : bike) ?? plans[0] ?? null;
}

/** Where to rent: the station's or vehicle's own links, else the operator's apps. */
export function rentalLinkFor(system: LoadedSystem, own: RentalUris | null): RentalUris | null {
  if (own && (own.android || own.ios || own.web)) return own;
  const apps = system.snapshot.system?.rental_apps;
  const android = apps?.android?.discovery_uri ?? apps?.android?.store_uri;
  const ios = apps?.ios?.discovery_uri ?? apps?.ios?.store_uri;
  return android || ios ? { ...(android ? { android } : {}), ...(ios ? { ios } : {}) } : null;
}
