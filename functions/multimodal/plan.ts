import { randomUUID } from 'node:crypto';
import { cityForCoordinates, type City } from '../../core/cities/index.ts';
import { type LonLat, type Position } from '../../core/geo.ts';
import type { Language } from '../../core/language.ts';
import type { Costing } from '../../core/routing/costing/costing.ts';
import { CYCLING_SPEED_MPS, EBIKE_SPEED_MPS } from '../../core/routing/costing/profile.ts';
import { BikeShareView, type LoadedSystem } from '../bikeshare/loader.ts';
import { isAvailableVehicle, isOperationalStation, type PricingPlan, type RentalUris, type Station, type Vehicle } from '../bikeshare/model.ts';
import { routePoints, type CustomRouteItem } from '../customroutes/records.ts';
import { NIGHT_SUBLABEL } from '../routing/directions.ts';
import type { Destination } from '../events/model.ts';
import { logger } from '../platform/logger.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import { costingFor, disruptionsAlong, nightFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { roundPosition, routeLeg } from '../../core/routing/planning/leg.ts';
import { routeBody, type RouteBody } from '../../core/routing/planning/route-body.ts';
import { routingContext } from '../routing/context-loader.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';
import { snapForCosting, type Snap } from '../../core/routing/snap/snap.ts';
import { checkRentedLeg, mayPark, mayRent, noRideEdges, parkingCandidates, zoneRules, type ZoneRules } from './geofencing.ts';
import { endLabel, optionName } from './labels.ts';
import { chooseParking, destinationBorough, destinationParkingOf, parkingBody, type DestinationParking, type ParkingBody } from './parking/choose.ts';
import type { MultiModalRequest } from './request.ts';
import { platformSources, type PlannerSources } from './sources.ts';

/**
 * Multi-modal options (spec 4.2) as domain logic: from a validated request to the response body.
 * Every leg is planned with the routing's shared leg planning (core/routing/planning/leg.ts), so a
 * leg is exactly what directions would answer for its two ends and costing. docs/multimodal.md
 * describes every option type, field and value.
 */

/** Spec 8: how far from the start and end bikes, stations and parking are looked for. */
export const SEARCH_RADIUS_METRES = 1_500;
/** Spec 4.2 rule 3: alternatives slower than this many times the Personal option are left out. */
export const SLOWEST_ALTERNATIVE_FACTOR = 3;

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

interface BuiltLeg {
  body: OptionLeg;
  path: RoutedPath;
}

interface LegSpec {
  bikeType: BikeType | null;
  endKind: EndKind;
  endLabel: string;
  /** Riding speed of a cycling leg, m/s. */
  speed?: number;
  reroutable?: boolean;
  /** The arrive step's name (a custom route's stop). */
  arriveName?: string;
}

const total = (legs: readonly BuiltLeg[], field: 'distance' | 'duration') => Math.round(legs.reduce((sum, leg) => sum + leg.body[field], 0) * 10) / 10;
const sameGeometry = (a: readonly BuiltLeg[], b: readonly BuiltLeg[]) =>
  a.length === b.length && a.every((leg, index) => JSON.stringify(leg.body.geometry.coordinates) === JSON.stringify(b[index]!.body.geometry.coordinates));
const isBike = (vehicle: Vehicle) => vehicle.form_factor === null || vehicle.form_factor === 'bicycle' || vehicle.form_factor === 'cargo_bicycle';
const classicBikes = (station: Station) => station.num_bikes_available - (station.num_ebikes_available ?? 0);

/** The legs of one request: costings, snaps and walking legs are shared between its options. */
class TripPlanner {
  private readonly costings = new Map<string, Costing>();
  private readonly snaps = new Map<Costing, Map<string, Snap | null>>();
  private readonly walks = new Map<string, BuiltLeg | null>();

  constructor(
    readonly context: RoutingContext,
    readonly language: Language,
    readonly night: boolean,
  ) {}

  costing(kind: 'walking' | 'supersafe' | 'direct', noRide: Uint8Array | null = null): Costing {
    const key = `${kind}:${noRide ? this.maskId(noRide) : ''}`;
    let costing = this.costings.get(key);
    if (!costing) {
      costing = costingFor(this.context, { profile: kind === 'walking' ? 'walking' : 'cycling', supersafe: kind === 'supersafe', night: this.night, noRide });
      this.costings.set(key, costing);
    }
    return costing;
  }

  private readonly masks = new Map<Uint8Array, number>();
  private maskId(mask: Uint8Array): number {
    if (!this.masks.has(mask)) this.masks.set(mask, this.masks.size + 1);
    return this.masks.get(mask)!;
  }

  snap(costing: Costing, point: LonLat, end: 'from' | 'to'): Snap | null {
    let perCosting = this.snaps.get(costing);
    if (!perCosting) this.snaps.set(costing, (perCosting = new Map()));
    const key = `${end}:${point[0]},${point[1]}`;
    if (!perCosting.has(key)) perCosting.set(key, snapForCosting(costing, point, end));
    return perCosting.get(key)!;
  }

  leg(costing: Costing, from: LonLat, to: LonLat, spec: LegSpec): BuiltLeg | null {
    const a = this.snap(costing, from, 'from');
    const b = this.snap(costing, to, 'to');
    if (!a || !b) return null;
    const planned = routeLeg(costing, this.context, a, b, { language: this.language, ridingSpeed: spec.speed });
    if (!planned) return null;
    if (spec.arriveName) planned.steps[planned.steps.length - 1]!.name = spec.arriveName;
    return {
      path: planned.path,
      body: {
        ...routeBody(planned.steps, [planned.path]),
        mode: costing.options.profile,
        bike_type: spec.bikeType,
        end_kind: spec.endKind,
        end_label: spec.endLabel,
        reroutable: spec.reroutable ?? true,
      },
    };
  }

  walk(from: LonLat, to: LonLat, endKind: EndKind, endLabel: string): BuiltLeg | null {
    const key = `${from.join(',')}>${to.join(',')}>${endKind}>${endLabel}`;
    if (!this.walks.has(key)) this.walks.set(key, this.leg(this.costing('walking'), from, to, { bikeType: null, endKind, endLabel }));
    return this.walks.get(key)!;
  }

  /** A custom route's own legs, stop to stop as saved: supersafe, never rerouted. */
  customLegs(route: CustomRouteItem, bikeType: BikeType, speed: number): BuiltLeg[] | null {
    const points = routePoints(route);
    const legs: BuiltLeg[] = [];
    for (let index = 1; index < points.length; index++) {
      const stop = points[index]!;
      const leg = this.leg(this.costing('supersafe'), points[index - 1]!.location, stop.location, {
        bikeType,
        endKind: 'route_stop',
        endLabel: stop.name,
        speed,
        reroutable: false,
        arriveName: stop.name,
      });
      if (!leg) return null;
      legs.push(leg);
    }
    return legs;
  }

  disruptions(legs: readonly BuiltLeg[]): Disruption[] {
    const coordinates = legs.filter((leg) => leg.body.mode === 'cycling').flatMap((leg) => leg.body.geometry.coordinates);
    return disruptionsAlong(this.context, coordinates);
  }
}

function customRouteDetails(route: CustomRouteItem, legs: readonly BuiltLeg[]): CustomRouteDetails {
  const own = legs.filter((leg) => leg.body.end_kind === 'route_stop');
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

function stationBody(station: Station, distance: number): StationBody {
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
function rentalLinkFor(system: LoadedSystem, own: RentalUris | null): RentalUris | null {
  if (own && (own.android || own.ios || own.web)) return own;
  const apps = system.snapshot.system?.rental_apps;
  const android = apps?.android?.discovery_uri ?? apps?.android?.store_uri;
  const ios = apps?.ios?.discovery_uri ?? apps?.ios?.store_uri;
  return android || ios ? { ...(android ? { android } : {}), ...(ios ? { ios } : {}) } : null;
}

interface Trip {
  planner: TripPlanner;
  request: MultiModalRequest;
  city: City;
  route: CustomRouteItem | null;
  /** Where the trip ends: the request's end, or the custom route's end. */
  end: LonLat;
  endLabel: string;
  atSeconds: number;
}

function assemble(trip: Trip, base: Omit<MultiModalOption, 'distance' | 'duration' | 'legs' | 'event' | 'disruptions'>, legs: BuiltLeg[]): MultiModalOption {
  return {
    ...base,
    distance: total(legs, 'distance'),
    duration: total(legs, 'duration'),
    legs: legs.map((leg) => leg.body),
    event: trip.route ? customRouteDetails(trip.route, legs) : null,
    disruptions: trip.planner.disruptions(legs),
  };
}

function personalLegs(trip: Trip, variant: 'supersafe' | 'direct', parking: ParkingBody | null): BuiltLeg[] | null {
  const { planner, request } = trip;
  const costing = planner.costing(variant);
  const spec = (endKind: EndKind, endLabel: string): LegSpec => ({ bikeType: 'personal', endKind, endLabel });
  if (trip.route) {
    const approach = planner.leg(costing, request.start, trip.route.start.location, spec('route_start', trip.route.name));
    const own = approach && planner.customLegs(trip.route, 'personal', CYCLING_SPEED_MPS);
    return approach && own ? [approach, ...own] : null;
  }
  const points: LonLat[] = [request.start, ...request.stops, request.end];
  const legs: BuiltLeg[] = [];
  for (let index = 1; index < points.length; index++) {
    const last = index === points.length - 1;
    if (last && parking) {
      // Spec 4.2 rule 7: cycle to the spot, walk the rest.
      const ride = planner.leg(costing, points[index - 1]!, parking.location, spec('parking', endLabel(trip.planner.language, 'park_bike')));
      const walk = ride && planner.walk(parking.location, points[index]!, 'destination', trip.endLabel);
      if (!ride || !walk) return null;
      legs.push(ride, walk);
      continue;
    }
    const leg = planner.leg(costing, points[index - 1]!, points[index]!, last ? spec('destination', trip.endLabel) : spec('stop', endLabel(trip.planner.language, 'stop', { n: index })));
    if (!leg) return null;
    legs.push(leg);
  }
  return legs;
}

function personalOptions(trip: Trip, parking: ParkingBody | null): MultiModalOption[] {
  const name = optionName(trip.planner.language, 'personal');
  const base = { type: 'personal' as const, name, is_electric: false, parking, system: null, pickup_station: null, dropoff_station: null, vehicle: null, pricing_plan: null, rental_link: null };
  const supersafe = personalLegs(trip, 'supersafe', parking);
  const direct = personalLegs(trip, 'direct', parking);
  const options: MultiModalOption[] = [];
  if (supersafe && direct && sameGeometry(supersafe, direct)) return [{ ...assemble(trip, { ...base, supersafe: true }, supersafe), same_as_direct: true }];
  if (supersafe) options.push(assemble(trip, { ...base, supersafe: true }, supersafe));
  if (direct) options.push(assemble(trip, { ...base, supersafe: false }, direct));
  return options;
}

/** Whether every rented leg keeps the operator's zones; logs the itinerary a router got wrong. */
function keepsZones(rules: ZoneRules, rented: readonly BuiltLeg[], system: string, ends: { start: boolean; end: boolean }): boolean {
  for (const [index, leg] of rented.entries()) {
    const problem = checkRentedLeg(rules, leg.body.geometry.coordinates, {
      start: ends.start && index === 0,
      end: ends.end && index === rented.length - 1,
    });
    if (problem) {
      logger.warn('bike-share option dropped: it breaks the operator\'s zones', { system, problem: problem.kind, zone: problem.zone });
      return false;
    }
  }
  return true;
}

function dockedOption(trip: Trip, system: LoadedSystem, electric: boolean): MultiModalOption | null {
  const { planner, request } = trip;
  const only = new BikeShareView([system]);
  const hasBike = electric ? (station: Station) => (station.num_ebikes_available ?? 0) > 0 : (station: Station) => classicBikes(station) > 0;
  const pickup = only.stationsNear(request.start, SEARCH_RADIUS_METRES, { limit: 1, where: (station) => isOperationalStation(station) && hasBike(station) }).found[0];
  if (!pickup) return null;
  // With a custom route the bike goes back to the station nearest the route's end (spec 4.2 rule 5).
  const returnNear = trip.end;
  const dropoff = only.stationsNear(returnNear, SEARCH_RADIUS_METRES, {
    limit: 1,
    where: (station) => station.is_installed && station.is_returning && station.num_docks_available > 0,
  }).found[0];
  if (!dropoff) return null;
  if (pickup.item.station_id === dropoff.item.station_id && !trip.route) return null;

  const rules = zoneRules(system.snapshot.geofencing, null, trip.atSeconds);
  const ride = planner.costing('supersafe', noRideEdges(rules, planner.context.loaded.network));
  const speed = electric ? EBIKE_SPEED_MPS : CYCLING_SPEED_MPS;
  const bikeType: BikeType = electric ? 'docked_ebike' : 'docked';
  const pickupAt: LonLat = [pickup.item.lon, pickup.item.lat];
  const dropoffAt: LonLat = [dropoff.item.lon, dropoff.item.lat];

  const toPickup = planner.walk(request.start, pickupAt, 'pickup', pickup.item.name);
  if (!toPickup) return null;
  const rented: BuiltLeg[] = [];
  if (trip.route) {
    const approach = planner.leg(ride, pickupAt, trip.route.start.location, { bikeType, endKind: 'route_start', endLabel: trip.route.name, speed });
    const own = approach && planner.customLegs(trip.route, bikeType, speed);
    const back = own && planner.leg(ride, trip.route.end.location, dropoffAt, { bikeType, endKind: 'dropoff', endLabel: dropoff.item.name, speed });
    if (!approach || !own || !back) return null;
    rented.push(approach, ...own, back);
  } else {
    const leg = planner.leg(ride, pickupAt, dropoffAt, { bikeType, endKind: 'dropoff', endLabel: dropoff.item.name, speed });
    if (!leg) return null;
    rented.push(leg);
  }
  const fromDropoff = planner.walk(dropoffAt, trip.end, 'destination', trip.endLabel);
  if (!fromDropoff || !keepsZones(rules, rented, system.snapshot.system_id, { start: false, end: false })) return null;

  const brand = system.snapshot.brand;
  return assemble(
    trip,
    {
      type: electric ? 'docked_ebike' : 'docked',
      name: optionName(planner.language, electric ? 'docked_ebike' : 'docked', brand),
      supersafe: true,
      is_electric: electric,
      parking: null,
      system: { id: system.snapshot.system_id, brand, provider: system.snapshot.provider },
      pickup_station: stationBody(pickup.item, pickup.distance),
      dropoff_station: stationBody(dropoff.item, dropoff.distance),
      vehicle: null,
      pricing_plan: pricingPlanFor(system, electric),
      rental_link: rentalLinkFor(system, pickup.item.rental_uris),
    },
    [toPickup, ...rented, fromDropoff],
  );
}

/** How many places to end a dockless ride are tried before the option is given up. */
const PARKING_ATTEMPTS = 6;

function docklessOption(trip: Trip, system: LoadedSystem): MultiModalOption | null {
  const { planner, request } = trip;
  const geofencing = system.snapshot.geofencing;
  const usable = (vehicle: Vehicle) =>
    isAvailableVehicle(vehicle) && isBike(vehicle) && mayRent(zoneRules(geofencing, vehicle.vehicle_type_id, trip.atSeconds).at([vehicle.lon, vehicle.lat]));
  const found = new BikeShareView([system]).vehiclesNear(request.start, SEARCH_RADIUS_METRES, { limit: 1, where: usable }).found[0];
  if (!found) return null;
  const vehicle = found.item;
  const rules = zoneRules(geofencing, vehicle.vehicle_type_id, trip.atSeconds);
  const ride = planner.costing('supersafe', noRideEdges(rules, planner.context.loaded.network));
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
  // End where the operator allows it: at the trip's end, else just beyond the edge of the zone
  // that forbids it, then walk (spec 1.2.11). A custom route that ends there already is done.
  let walkFrom: LonLat | null = null;
  if (!(trip.route && mayPark(rules.at(from)))) {
    for (const candidate of parkingCandidates(rules, trip.end, SEARCH_RADIUS_METRES).slice(0, PARKING_ATTEMPTS)) {
      const atEnd = candidate === trip.end;
      const leg = planner.leg(ride, from, candidate, {
        bikeType,
        endKind: atEnd ? 'destination' : 'dropoff',
        endLabel: atEnd ? trip.endLabel : endLabel(planner.language, 'end_ride'),
        speed,
      });
      const coordinates = leg?.body.geometry.coordinates;
      if (!leg || !mayPark(rules.at(coordinates![coordinates!.length - 1]!))) continue;
      rented.push(leg);
      walkFrom = atEnd ? null : coordinates![coordinates!.length - 1]!;
      break;
    }
    if (rented.length === 0 || rented[rented.length - 1]!.body.end_kind === 'route_stop') return null;
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
      system: { id: system.snapshot.system_id, brand, provider: system.snapshot.provider },
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

export async function planMultiModal(request: MultiModalRequest, now: Date, sources: PlannerSources = platformSources): Promise<MultiModalOutcome> {
  const searchId = randomUUID();
  const route = request.eventId ? await sources.customRoute(request.eventId) : null;
  const points: LonLat[] = [request.start, request.end, ...request.stops, ...(route ? routePoints(route).map((point) => point.location) : [])];
  const city = cityForCoordinates(points);
  if (!city) return { kind: 'cross-city', searchId };

  const context = await routingContext(city, request.departureTime, now, { cycling: true, loaders: sources.routing });
  const night = nightFor(context, request.start, undefined);
  const planner = new TripPlanner(context, request.language, night);
  const details = request.destinationId !== null ? await sources.destination(request.destinationId) : null;
  const end: LonLat = route ? route.end.location : request.end;
  // Spec 4.2: the display name is used when no destination_id names the destination.
  const endName = route ? route.end.name : (details?.name ?? request.endName ?? null);
  const trip: Trip = {
    planner,
    request,
    city,
    route,
    end,
    endLabel: endName ?? endLabel(request.language, 'destination'),
    atSeconds: Math.floor(context.departure.instant.toSeconds()),
  };

  const graph = context.loaded.network.graph;
  const borough = destinationBorough(graph, end);
  // Spec 4.2 rule 7: parking applies to the last hop, never with a custom route.
  const spot =
    request.parkingType && !route
      ? await chooseParking({ city: city.id, graph, destination: end, parkingType: request.parkingType, operator: request.operator, borough, spots: sources.spots })
      : null;
  const parking = spot ? parkingBody(spot, end) : null;

  const options = personalOptions(trip, parking);
  // Spec 4.2 rule 6: with stops, only the Personal option.
  if (options.length > 0 && request.stops.length === 0) {
    // Without bike-share data the rider still gets the Personal options.
    const view = await sources.bikeShare(city.id).catch((error: unknown) => {
      logger.warn('bike share unavailable; answering the Personal options only', { city: city.id, error: error as Error });
      return new BikeShareView([]);
    });
    const alternatives: MultiModalOption[] = [];
    for (const system of view.systems) alternatives.push(...[dockedOption(trip, system, false)].filter((option) => option !== null));
    for (const system of view.systems) alternatives.push(...[dockedOption(trip, system, true)].filter((option) => option !== null));
    for (const system of view.systems) alternatives.push(...[docklessOption(trip, system)].filter((option) => option !== null));
    const reference = options[0]!.duration;
    options.push(...alternatives.filter((option) => option.duration <= SLOWEST_ALTERNATIVE_FACTOR * reference));
  }

  return {
    kind: 'planned',
    body: {
      search_id: searchId,
      options,
      destination_parking: destinationParkingOf(borough, request.operator),
      origin: { name: request.startName, location: roundPosition(request.start) },
      destination: { name: endName, location: roundPosition(end), details },
      graph_version: context.loaded.version,
      sublabel: night ? NIGHT_SUBLABEL : null,
      metadata: { nighttime: night, stops: request.stops.length, custom_route: route?.route_id ?? null },
    },
  };
}
