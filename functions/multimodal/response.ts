import type { Position } from '../../core/geo.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import { roundPosition } from '../../core/routing/planning/leg.ts';
import type { RouteBody } from '../../core/routing/planning/route-body.ts';
import type { LoadedSystem } from '../bikeshare/loader.ts';
import type { PricingPlan, RentalUris, Station, Vehicle } from '../bikeshare/model.ts';
import type { CustomRouteItem } from '../customroutes/records.ts';
import type { Destination } from '../events/model.ts';
import type { DestinationParking, ParkingBody } from './parking/choose.ts';

/** The multi-modal response (spec 4.2) and the pieces of it every option shapes alike. docs/multimodal.md describes every field. */

export type OptionType = 'personal' | 'docked' | 'docked_ebike' | 'dockless';
export type BikeType = 'personal' | 'docked' | 'docked_ebike' | 'dockless' | 'dockless_ebike';
export type EndKind = 'destination' | 'stop' | 'parking' | 'pickup' | 'dropoff' | 'route_start' | 'route_stop';

export interface OptionLeg extends RouteBody {
  mode: 'cycling' | 'walking';
  /** The bike ridden on a cycling leg; null on walking legs. */
  bike_type: BikeType | null;
  /** What the leg ends at; its arrive step is the leg's last step. */
  end_kind: EndKind;
  /** What a rider reads for the leg's end, in the request's language. */
  end_label: string;
  /** False on the legs of a custom route: navigation keeps the rider on them instead of planning anew. */
  reroutable: boolean;
}

export interface StationBody {
  station_id: string;
  name: string;
  location: Position;
  /** Metres in a straight line from the start (pickup) or to the end (drop-off). */
  distance: number;
  num_bikes_available: number;
  num_ebikes_available: number | null;
  num_docks_available: number;
}

export interface VehicleBody {
  bike_id: string;
  location: Position;
  vehicle_type: string;
  is_electric: boolean;
  current_range_meters: number | null;
  distance: number;
}

export interface CustomRouteDetails {
  id: string;
  name: string;
  start: { name: string; location: Position };
  stops: { name: string; location: Position }[];
  end: { name: string; location: Position };
  /** Metres and seconds of the route's own legs in this option (at this option's speed). */
  distance: number;
  duration: number;
}

export interface MultiModalOption {
  type: OptionType;
  name: string;
  supersafe: boolean;
  /** A Personal option whose supersafe and direct routes are the same, given once (spec 4.2 rule 1). */
  same_as_direct?: true;
  is_electric: boolean;
  distance: number;
  duration: number;
  legs: OptionLeg[];
  event: CustomRouteDetails | null;
  disruptions: Disruption[];
  parking: ParkingBody | null;
  system: { id: string; brand: string; provider: string } | null;
  pickup_station: StationBody | null;
  dropoff_station: StationBody | null;
  vehicle: VehicleBody | null;
  pricing_plan: PricingPlan | null;
  rental_link: RentalUris | null;
}

export interface MultiModalBody {
  search_id: string;
  options: MultiModalOption[];
  destination_parking: DestinationParking | null;
  origin: { name: string | null; location: Position };
  destination: { name: string | null; location: Position; details: Destination | null };
  graph_version: string;
  sublabel: string | null;
  metadata: { nighttime: boolean; stops: number; custom_route: string | null };
}

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
