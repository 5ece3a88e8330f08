import { arrivalControlOf, CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_JUNCTION_CONTROLLED, EDGE_REVERSED, EDGE_ROADWORKS, EDGE_STEPS, LIT_ASSUMED, LIT_NO, LIT_YES, litOf, NODE_BARRIER_DISMOUNT, NODE_BARRIER_NARROW, NODE_BARRIER_NO_CYCLING, SAFETY_BUSY, safetyClassOf, SEGMENT_NARROW, surfacePenaltyOf, trafficStressOf } from '../../graph/flags.ts';
import type { Graph } from '../../graph/layout.ts';
import { isClosed } from '../../graph/rules.ts';
import { CROSSES_BUSY, CROSSES_MODERATE, type RoutingNetwork } from '../network/network.ts';
import { BICYCLE_TYPE_PROFILES, DEFAULT_BICYCLE_TYPE, ridingSpeed, surfaceOf, type BicycleTypeProfile } from './bicycle-types.ts';
import { TURN_FORBIDDEN } from './cost-tables.ts';
import { Costing, type CostOptions, type MetricShare } from './costing.ts';
import type { RouteOverlay } from './overlay.ts';
import { WALKING_SPEED_MPS } from './speeds.ts';
import { BARRIER_DISMOUNT_SECONDS, DIRECT_WEIGHTS, NIGHT_LIGHTING_FACTORS, ROADWORKS_FACTOR, SUPERSAFE_WEIGHTS, type CyclingWeights } from './weights.ts';

/**
 * The cycling costing (Valhalla's `BicycleCost`): riding time weighed by the metric's weights
 * (supersafe or direct, weights.ts), pushing where the bike may only be pushed, turn restrictions
 * obeyed, and what a departure changes: closures, lighting at night, accepted reports and no-ride
 * zones.
 */

/** A metric's arrival delays by control value (0 where none), for the search's inner loop. */
function controlDelays(weights: CyclingWeights): Float64Array {
  const delays = new Float64Array(8);
  delays[CONTROL_TRAFFIC_SIGNALS] = weights.controlSeconds.signals;
  delays[CONTROL_ALL_WAY_STOP] = weights.controlSeconds.allWayStop;
  delays[CONTROL_TWO_WAY_STOP] = weights.controlSeconds.twoWayStop;
  delays[CONTROL_GIVE_WAY] = weights.controlSeconds.giveWay;
  return delays;
}

/** Climb and descent of an edge in its direction, metres (the segment's, swapped for a reversed edge). */
function edgeClimb(graph: Graph, edge: number): { ascent: number; descent: number } {
  const segment = graph.edgeSegment[edge]!;
  const up = graph.segmentAscent[segment]! / 10;
  const down = graph.segmentDescent[segment]! / 10;
  return graph.edgeFlags[edge]! & EDGE_REVERSED ? { ascent: down, descent: up } : { ascent: up, descent: down };
}

/**
 * Seconds of cost for `length` metres of usable cycling `edge` with edge flags `flags`, by day and
 * with every closure open, under a metric's weights and a bicycle type: riding time at the type's
 * speed (bicycle-types.ts) times the metric's class and stress factors, the type's surface penalty
 * factor and avoidance, and roadworks; pushing at walking pace times the push factor. Infinity
 * where the type never goes. For `hybrid` every type factor is 1: today's costs to the bit.
 */
function cyclingTravelSeconds(graph: Graph, weights: CyclingWeights, type: BicycleTypeProfile, edge: number, flags: number, length: number): number {
  const hybrid = type === BICYCLE_TYPE_PROFILES.hybrid;
  const rideFlags = hybrid ? 0 : graph.segmentRideFlags[graph.edgeSegment[edge]!]!;
  if (!hybrid && ((type.never.steps && flags & EDGE_STEPS) || (type.never.narrow && rideFlags & SEGMENT_NARROW))) return Infinity;
  const avoidance = hybrid ? 1 : surfaceOf(type.surfaceAvoidance, rideFlags);
  if (flags & EDGE_DISMOUNT) return (length / WALKING_SPEED_MPS) * (flags & EDGE_STEPS ? weights.stepsPushFactor : weights.pushFactor) * avoidance;
  let factor = weights.classFactors[safetyClassOf(flags)]! * weights.stressFactors[trafficStressOf(flags)]! * type.surfacePenaltyFactors[surfacePenaltyOf(flags)]!;
  if (flags & EDGE_ROADWORKS) factor *= ROADWORKS_FACTOR;
  const speed = hybrid ? type.cruiseSpeed : typeSpeedOn(graph, type, edge, rideFlags);
  return (length / speed) * factor * avoidance;
}

/** The type's riding speed on `edge` (its ride flags `rideFlags`), by surface and grade. */
function typeSpeedOn(graph: Graph, type: BicycleTypeProfile, edge: number, rideFlags: number): number {
  const { ascent, descent } = edgeClimb(graph, edge);
  return ridingSpeed(type, rideFlags, graph.edgeLength[edge]!, ascent, descent);
}

/** Margin under the least cost ratio, so that single-precision bounds stay below the costs they bound. */
const BOUND_MARGIN = 1 - 1e-6;
/** Per graph, per metric and bicycle type: `boundShare`. */
const boundShares = new WeakMap<RoutingNetwork, Map<string, number>>();

/** What riding an edge costs at night over by day, by its lighting (weights.ts, `NIGHT_LIGHTING_FACTORS`): 1 where lit. */
export function nightLightingFactor(edgeFlags: number): number {
  const lit = litOf(edgeFlags);
  return lit === LIT_YES
    ? NIGHT_LIGHTING_FACTORS.lit
    : lit === LIT_ASSUMED
      ? NIGHT_LIGHTING_FACTORS.assumed
      : lit === LIT_NO
        ? NIGHT_LIGHTING_FACTORS.unlit
        : NIGHT_LIGHTING_FACTORS.unknown;
}

/**
 * The least ratio, over every edge of the graph, of a bicycle type's cost to `hybrid`'s under one
 * metric's weights (never above 1: pushed edges cost alike). Turns cost every type what they cost
 * `hybrid`, or more where a type may not pass, so this share of any `hybrid` lower bound (the
 * metric's landmarks and hierarchy) is a lower bound of the type's cost: the search stays exact.
 */
function boundShare(network: RoutingNetwork, weights: CyclingWeights, type: BicycleTypeProfile, key: string): number {
  let shares = boundShares.get(network);
  if (!shares) boundShares.set(network, (shares = new Map()));
  let share = shares.get(key);
  if (share === undefined) {
    const graph = network.graph;
    const hybrid = BICYCLE_TYPE_PROFILES.hybrid;
    share = 1;
    for (let edge = 0; edge < graph.edgeCount; edge++) {
      const flags = graph.edgeFlags[edge]!;
      if (!(flags & EDGE_CYCLING)) continue;
      const length = graph.edgeLength[edge]!;
      const least = cyclingTravelSeconds(graph, weights, hybrid, edge, flags, length);
      if (least > 0) share = Math.min(share, cyclingTravelSeconds(graph, weights, type, edge, flags, length) / least);
    }
    share *= BOUND_MARGIN;
    shares.set(key, share);
  }
  return share;
}

export class CyclingCosting extends Costing {
  /** The metric's weights (weights.ts). */
  private readonly weights: CyclingWeights;
  /** The bicycle type's row (bicycle-types.ts). */
  private readonly type: BicycleTypeProfile;
  /** `boundShare`: 1 for `hybrid`. */
  private readonly metricBoundShare: number;
  private readonly controlDelays: Float64Array;
  private readonly closureCache = new Map<number, boolean>();

  constructor(network: RoutingNetwork, options: CostOptions, overlay: RouteOverlay | null = null, noRide: Uint8Array | null = null) {
    const weights = options.supersafe ? SUPERSAFE_WEIGHTS : DIRECT_WEIGHTS;
    const bicycleType = options.bicycleType ?? DEFAULT_BICYCLE_TYPE;
    const type = BICYCLE_TYPE_PROFILES[bicycleType];
    const metric = options.supersafe ? 'cycling-supersafe' as const : 'cycling-direct' as const;
    const share = bicycleType === DEFAULT_BICYCLE_TYPE ? 1 : boundShare(network, weights, type, `${metric}:${bicycleType}`);
    super(network, options, overlay, noRide, {
      usableFlag: EDGE_CYCLING,
      obeysRestrictions: true,
      metric,
      minSecondsPerMetre: ((Math.min(...weights.classFactors) * Math.min(...weights.stressFactors)) / BICYCLE_TYPE_PROFILES.hybrid.cruiseSpeed) * share,
      avoidsHills: options.avoidHills === true,
      costlier: { every: options.night || noRide !== null, closures: network.closureEdges(), reports: overlay?.marked ?? null },
      turnsReadGeometry: true,
    });
    this.weights = weights;
    this.type = type;
    this.metricBoundShare = share;
    this.controlDelays = controlDelays(weights);
  }

  /** The metric's bounds, scaled by the least ratio of the type's costs to `hybrid`'s (`boundShare`). */
  override metricShares(): readonly MetricShare[] {
    return [{ metric: this.metric, share: this.metricBoundShare }];
  }

  /** Metres per second the rider rides `edge` at (pushing aside): the type's speed by surface and grade, 15 km/h for `hybrid`. */
  override ridingSpeedOn(edge: number): number {
    const graph = this.network.graph;
    if (this.type === BICYCLE_TYPE_PROFILES.hybrid) return this.type.cruiseSpeed;
    return typeSpeedOn(graph, this.type, edge, graph.segmentRideFlags[graph.edgeSegment[edge]!]!);
  }

  override travelsNormally(edge: number): boolean {
    return this.usable(edge) && !(this.network.graph.edgeFlags[edge]! & EDGE_DISMOUNT);
  }

  override joinSeconds(metres: number): number {
    return (metres / WALKING_SPEED_MPS) * this.weights.pushFactor;
  }

  override edgeCost(edge: number): number {
    const cost = this.tabledLeastEdgeCost(edge);
    if (cost === Infinity) return cost;
    if (this.noRide?.[edge]) return Infinity;
    const graph = this.network.graph;
    const closure = graph.edgeClosure[edge]!;
    if (closure !== 0 && this.closedNow(closure - 1)) return Infinity;
    const reported = this.overlay ? this.overlay.edgeFactor(edge, this.options.departureMinute, this.options.supersafe) : 1;
    if (!this.options.night) return cost * reported;
    return cost * reported * nightLightingFactor(graph.edgeFlags[edge]!);
  }

  /** Public so that the graded costing (graded-costing.ts) can weigh the direct and supersafe answers. */
  override travelSeconds(edge: number, flags: number, length: number): number {
    return cyclingTravelSeconds(this.network.graph, this.weights, this.type, edge, flags, length);
  }

  /**
   * A type's turns cost what `hybrid`'s do but where it never passes a narrow barrier
   * (`transitionSeconds` reads the type nowhere else), so its table is hybrid's with every turn
   * through such a node forbidden: hybrid's own where the type passes them all. Costing every turn
   * afresh reads each one's bearings and crossing, about 2.3 s of CPU on a first route of the
   * type on the 5.3-million-edge metro graph (docs/benchmarks.md, "Bicycle types"). A test holds
   * every entry to `turnCostByRules`.
   */
  protected override turnTableFromHybrid(hybrid: Uint8Array): Uint8Array {
    if (!this.type.never.narrow) return hybrid;
    const { nodeCount, nodeFlags, turnRowFirst } = this.network.graph;
    const table = hybrid.slice();
    for (let node = 0; node < nodeCount; node++) {
      if (nodeFlags[node]! & NODE_BARRIER_NARROW) table.fill(TURN_FORBIDDEN, turnRowFirst[node]!, turnRowFirst[node + 1]!);
    }
    return table;
  }

  /** Public, as `travelSeconds` is. */
  override transitionSeconds(from: number, to: number, node: number, arriving: number, leaving: number, busiest: number): number {
    const graph = this.network.graph;
    // A barrier is passed through its node: private or locked gates, stiles and the like stop the
    // profile they forbid (as OSRM's barrier nodes do), bicycle barriers make the rider push.
    const nodeFlags = graph.nodeFlags[node]!;
    if (nodeFlags & NODE_BARRIER_NO_CYCLING) return Infinity;
    if (nodeFlags & NODE_BARRIER_NARROW && this.type.never.narrow) return Infinity;

    const fromFlags = graph.edgeFlags[from]!;
    const toFlags = graph.edgeFlags[to]!;
    const weights = this.weights;
    // Bearings are whole degrees in [0, 360): bearingDifference in integer steps.
    const difference = Math.abs(arriving - leaving);
    const angle = difference > 180 ? 360 - difference : difference;
    const turns = weights.turnSeconds;
    let seconds = angle < 25 ? turns.straight : angle < 60 ? turns.slight : angle < 120 ? turns.turn : turns.sharp;
    seconds += this.controlDelays[arrivalControlOf(fromFlags)]!;
    if (nodeFlags & NODE_BARRIER_DISMOUNT) seconds += BARRIER_DISMOUNT_SECONDS;
    if (toFlags & EDGE_DISMOUNT && !(fromFlags & EDGE_DISMOUNT)) seconds += weights.dismountSeconds;

    if (!(fromFlags & EDGE_JUNCTION_CONTROLLED) && safetyClassOf(fromFlags) !== SAFETY_BUSY) {
      if (busiest === CROSSES_BUSY) seconds += weights.uncontrolledCrossingSeconds.busy;
      else if (busiest === CROSSES_MODERATE) seconds += weights.uncontrolledCrossingSeconds.moderate;
    }
    return seconds;
  }

  private closedNow(closure: number): boolean {
    let closed = this.closureCache.get(closure);
    if (closed === undefined) {
      closed = isClosed(this.network.graph, closure, 'cycling', this.options.departureMinute);
      this.closureCache.set(closure, closed);
    }
    return closed;
  }
}
