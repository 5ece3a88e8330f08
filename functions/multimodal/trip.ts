import type { City } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import type { Language } from '../../core/language.ts';
import type { Costing } from '../../core/routing/costing/costing.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import { costingFor, disruptionsAlong, type RoutingContext } from '../../core/routing/planning/context.ts';
import { routeLeg } from '../../core/routing/planning/leg.ts';
import { routeBody } from '../../core/routing/planning/route-body.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';
import { snapForCosting, type Snap } from '../../core/routing/snap/snap.ts';
import { routePoints, type CustomRouteItem } from '../customroutes/records.ts';
import { logger } from '../../platform/logger.ts';
import { checkRentedLeg, type ZoneRules } from './geofencing.ts';
import type { MultiModalRequest } from './request.ts';
import { customRouteDetails, total, type BikeType, type EndKind, type MultiModalOption, type OptionLeg } from './response.ts';

/**
 * One multi-modal request as every option plans it (options/): the trip (its ends, custom route,
 * language, instant) and its leg planner. Every leg is planned by the engine's leg planning
 * (core/routing/planning/leg.ts), so a leg is exactly what directions would answer for its two
 * ends and costing; costings, snaps and walking legs are shared between the options.
 */

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

/** The legs of one request: costings, snaps and walking legs are shared between its options. */
export class TripPlanner {
  private readonly costings = new Map<string, Costing>();
  private readonly snaps = new Map<Costing, Map<string, Snap | null>>();
  private readonly walks = new Map<string, BuiltLeg | null>();
  private readonly masks = new Map<Uint8Array, number>();

  constructor(
    readonly context: RoutingContext,
    readonly language: Language,
    readonly night: boolean,
    /** The hill preference (`avoid_hills`), for every cycling leg. */
    readonly avoidHills = false,
  ) {}

  costing(kind: 'walking' | 'supersafe' | 'direct', noRide: Uint8Array | null = null): Costing {
    const key = `${kind}:${noRide ? this.maskId(noRide) : ''}`;
    let costing = this.costings.get(key);
    if (!costing) {
      costing = costingFor(this.context, { profile: kind === 'walking' ? 'walking' : 'cycling', supersafe: kind === 'supersafe', night: this.night, noRide, avoidHills: this.avoidHills });
      this.costings.set(key, costing);
    }
    return costing;
  }

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
