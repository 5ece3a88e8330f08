import type { City } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import type { Language } from '../../core/language.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import type { RoutePlanner, RouteVariant } from '../../core/routing/planning/planner.ts';
import { routeBody } from '../../core/routing/planning/route-body.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';
import { routePoints, type CustomRouteItem } from '../customroutes/records.ts';
import { logger } from '../../platform/logger.ts';
import { checkRentedLeg, type ZoneRules } from './geofencing.ts';
import type { MultiModalRequest } from './request.ts';
import { customRouteDetails, total, type BikeType, type EndKind, type MultiModalOption, type OptionLeg } from './response.ts';

/**
 * One multi-modal request as every option plans it (options/): the trip (its ends, custom route,
 * language, instant) and its leg planner. Every leg is planned by the route planner directions
 * uses (core/routing/planning/planner.ts), so a leg is exactly what directions would answer for
 * its two ends and variant; costings, snaps and walking legs are shared between the options.
 */

/** The variants an option's legs are planned as: walking, and the rider's own bike supersafe or direct. */
export const WALKING: RouteVariant = { profile: 'walking', supersafe: false };
export const SUPERSAFE: RouteVariant = { profile: 'cycling', supersafe: true };
export const DIRECT: RouteVariant = { profile: 'cycling', supersafe: false };

/** A rented bike's ride: supersafe, clear of its operator's no-ride zones. */
export const rentedRide = (noRide: Uint8Array | null): RouteVariant => ({ ...SUPERSAFE, noRide });

/** Spec 8: how far from the start and end bikes, stations and parking are looked for. */
export const SEARCH_RADIUS_METRES = 1_500;

export interface BuiltLeg {
  body: OptionLeg;
  path: RoutedPath;
}

export interface LegSpec {
  bikeType: BikeType | null;
  endKind: EndKind;
  endLabel: string;
  /** Riding speed of a cycling leg, m/s. */
  speed?: number;
  reroutable?: boolean;
  /** The arrive step's name (a custom route's stop). */
  arriveName?: string;
}

/**
 * The legs of one request's options, planned by the request's route planner (which shares
 * costings and snaps between them) and shaped as option legs; walking legs are shared too.
 */
export class TripPlanner {
  private readonly walks = new Map<string, BuiltLeg | null>();

  constructor(readonly routes: RoutePlanner) {}

  get context(): RoutingContext {
    return this.routes.context;
  }

  /** The language of the response: its labels, option names and steps. */
  get language(): Language {
    return this.routes.preferences.language;
  }

  leg(variant: RouteVariant, from: LonLat, to: LonLat, spec: LegSpec): BuiltLeg | null {
    const planned = this.routes.route({ ...variant, ridingSpeed: spec.speed }, [from, to]).legs?.[0];
    if (!planned) return null;
    if (spec.arriveName) planned.steps[planned.steps.length - 1]!.name = spec.arriveName;
    return {
      path: planned.path,
      body: {
        ...routeBody(planned.steps, [planned.path]),
        mode: variant.profile,
        bike_type: spec.bikeType,
        end_kind: spec.endKind,
        end_label: spec.endLabel,
        reroutable: spec.reroutable ?? true,
      },
    };
  }

  walk(from: LonLat, to: LonLat, endKind: EndKind, endLabel: string): BuiltLeg | null {
    const key = `${from.join(',')}>${to.join(',')}>${endKind}>${endLabel}`;
    if (!this.walks.has(key)) this.walks.set(key, this.leg(WALKING, from, to, { bikeType: null, endKind, endLabel }));
    return this.walks.get(key)!;
  }

  /** A custom route's own legs, stop to stop as saved: supersafe, never rerouted. */
  customLegs(route: CustomRouteItem, bikeType: BikeType, speed: number): BuiltLeg[] | null {
    const points = routePoints(route);
    const legs: BuiltLeg[] = [];
    for (let index = 1; index < points.length; index++) {
      const stop = points[index]!;
      const leg = this.leg(SUPERSAFE, points[index - 1]!.location, stop.location, {
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
    return this.routes.disruptionsAlong(coordinates);
  }
}

export interface Trip {
  planner: TripPlanner;
  request: MultiModalRequest;
  city: City;
  route: CustomRouteItem | null;
  /** Where the trip ends: the request's end, or the custom route's end. */
  end: LonLat;
  endLabel: string;
  atSeconds: number;
}

/** An option from what its module decided and the legs it planned: totals, the custom route's details, disruptions. */
export function assemble(trip: Trip, base: Omit<MultiModalOption, 'distance' | 'duration' | 'legs' | 'event' | 'disruptions'>, legs: BuiltLeg[]): MultiModalOption {
  const bodies = legs.map((leg) => leg.body);
  return {
    ...base,
    distance: total(bodies, 'distance'),
    duration: total(bodies, 'duration'),
    legs: bodies,
    event: trip.route ? customRouteDetails(trip.route, bodies) : null,
    disruptions: trip.planner.disruptions(legs),
  };
}

/** Whether every rented leg keeps the operator's zones; logs the itinerary a router got wrong. */
export function keepsZones(rules: ZoneRules, rented: readonly BuiltLeg[], system: string, ends: { start: boolean; end: boolean }): boolean {
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
