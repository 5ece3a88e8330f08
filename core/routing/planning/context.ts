import { DEFAULT_BICYCLE_TYPE, type BicycleType } from '../costing/bicycle-types.ts';
import type { City } from '../../cities/index.ts';
import type { LonLat, Position } from '../../geo.ts';
import type { LocatedReports } from '../avoidances/locate-avoidances.ts';
import type { Costing } from '../costing/costing.ts';
import { createCosting } from '../costing/create-costing.ts';
import { isGradedSafety, SUPERSAFE_SAFETY } from '../costing/safety.ts';
import type { Profile } from '../../graph/profiles.ts';
import { disruptionsNear, reportDisruptions, type Disruption } from '../disruptions/disruptions.ts';
import { isNight, type Departure } from '../time/departure.ts';
import type { LoadedGraph } from './loaded-graph.ts';

/**
 * What one request routes on: the city, its loaded graph, the departure and the accepted reports
 * located on the graph; and what follows from it for every leg the request plans (the costing, the
 * night, the disruptions along the route). functions/graphs/context-loader.ts loads one from S3
 * and DynamoDB; a tool can build one from a graph file.
 */

export interface RoutingContext {
  city: City;
  loaded: LoadedGraph;
  departure: Departure;
  /** Accepted road reports located on this graph; null when the request plans walking only. */
  reports: LocatedReports | null;
}

/**
 * Night routing for a trip starting at `start` (spec 1.2.2): forced by `nighttime` where given,
 * else from the sun; never where the city has no lighting data.
 */
export function nightFor(context: RoutingContext, start: LonLat, nighttime: boolean | undefined): boolean {
  return context.city.lightingData && (nighttime ?? isNight(context.departure.instant, start[0], start[1]));
}

export interface CostingChoice {
  profile: Profile;
  supersafe: boolean;
  night: boolean;
  /** Edges a rented vehicle may not ride (an operator's no-ride zones); cycling only. */
  noRide?: Uint8Array | null;
  /** The hill preference (`avoid_hills`); cycling only. */
  avoidHills?: boolean;
  /**
   * Cycling: the graded safety (costing/safety.ts), 0 (direct) to 1 (supersafe); where given it
   * decides, and `supersafe` is ignored.
   */
  safety?: number;
  /** Cycling: the bicycle type (costing/bicycle-types.ts); `hybrid` when absent. */
  bicycleType?: BicycleType;
}

export function costingFor(context: RoutingContext, choice: CostingChoice): Costing {
  const cycling = choice.profile === 'cycling';
  // The ends of the grades are the spec's two costings themselves; only a grade between is the graded one.
  const safety = cycling ? choice.safety : undefined;
  const supersafe = safety !== undefined ? safety === SUPERSAFE_SAFETY : choice.supersafe;
  return createCosting(
    context.loaded.network,
    {
      profile: choice.profile, supersafe: cycling && supersafe, night: cycling && choice.night, departureMinute: context.departure.localMinute,
      avoidHills: cycling && choice.avoidHills === true,
      ...(cycling && choice.bicycleType !== undefined && choice.bicycleType !== DEFAULT_BICYCLE_TYPE ? { bicycleType: choice.bicycleType } : {}),
      ...(safety !== undefined && isGradedSafety(safety) ? { safety } : {}),
    },
    cycling ? (context.reports?.overlay ?? null) : null,
    cycling ? (choice.noRide ?? null) : null,
  );
}

/** Disruptions near a cycling geometry at the departure: from the graph, then from accepted reports. */
export function disruptionsAlong(context: RoutingContext, coordinates: Position[]): Disruption[] {
  if (coordinates.length === 0) return [];
  const network = context.loaded.network;
  const minute = context.departure.localMinute;
  return [
    ...disruptionsNear(network, coordinates, minute),
    ...reportDisruptions(network, context.reports?.avoidances ?? [], coordinates, minute),
  ];
}
