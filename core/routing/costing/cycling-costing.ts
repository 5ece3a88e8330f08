import { arrivalControlOf, CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_JUNCTION_CONTROLLED, EDGE_ROADWORKS, EDGE_STEPS, LIT_ASSUMED, LIT_NO, LIT_YES, litOf, NODE_BARRIER_DISMOUNT, NODE_BARRIER_NO_CYCLING, SAFETY_BUSY, safetyClassOf, surfacePenaltyOf, trafficStressOf } from '../../graph/flags.ts';
import { isClosed } from '../../graph/rules.ts';
import { CROSSES_BUSY, CROSSES_MODERATE, type RoutingNetwork } from '../network/network.ts';
import { Costing, type CostOptions } from './costing.ts';
import type { RouteOverlay } from './overlay.ts';
import { CYCLING_SPEED_MPS, WALKING_SPEED_MPS } from './speeds.ts';
import { BARRIER_DISMOUNT_SECONDS, DIRECT_WEIGHTS, NIGHT_LIGHTING_FACTORS, ROADWORKS_FACTOR, SUPERSAFE_WEIGHTS, SURFACE_FACTORS, type CyclingWeights } from './weights.ts';

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

export class CyclingCosting extends Costing {
  /** The metric's weights (weights.ts). */
  private readonly weights: CyclingWeights;
  private readonly controlDelays: Float64Array;
  private readonly closureCache = new Map<number, boolean>();

  constructor(network: RoutingNetwork, options: CostOptions, overlay: RouteOverlay | null = null, noRide: Uint8Array | null = null) {
    const weights = options.supersafe ? SUPERSAFE_WEIGHTS : DIRECT_WEIGHTS;
    super(network, options, overlay, noRide, {
      usableFlag: EDGE_CYCLING,
      obeysRestrictions: true,
      metric: options.supersafe ? 'cycling-supersafe' : 'cycling-direct',
      minSecondsPerMetre: (Math.min(...weights.classFactors) * Math.min(...weights.stressFactors)) / CYCLING_SPEED_MPS,
      avoidsHills: options.avoidHills === true,
      costlier: { every: options.night || noRide !== null, closures: network.graph.edgeClosure, reports: overlay?.marked ?? null },
      turnsReadGeometry: true,
    });
    this.weights = weights;
    this.controlDelays = controlDelays(weights);
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
    const lit = litOf(graph.edgeFlags[edge]!);
    return (
      cost * reported *
      (lit === LIT_YES
        ? NIGHT_LIGHTING_FACTORS.lit
        : lit === LIT_ASSUMED
          ? NIGHT_LIGHTING_FACTORS.assumed
          : lit === LIT_NO
            ? NIGHT_LIGHTING_FACTORS.unlit
            : NIGHT_LIGHTING_FACTORS.unknown)
    );
  }

  /** Public so that the graded costing (graded-costing.ts) can weigh the direct and supersafe answers. */
  override travelSeconds(flags: number, length: number): number {
    const weights = this.weights;
    if (flags & EDGE_DISMOUNT) return (length / WALKING_SPEED_MPS) * (flags & EDGE_STEPS ? weights.stepsPushFactor : weights.pushFactor);
    let factor = weights.classFactors[safetyClassOf(flags)]! * weights.stressFactors[trafficStressOf(flags)]! * SURFACE_FACTORS[surfacePenaltyOf(flags)]!;
    if (flags & EDGE_ROADWORKS) factor *= ROADWORKS_FACTOR;
    return (length / CYCLING_SPEED_MPS) * factor;
  }

  /** Public, as `travelSeconds` is. */
  override transitionSeconds(from: number, to: number, node: number, arriving: number, leaving: number, busiest: number): number {
    const graph = this.network.graph;
    // A barrier is passed through its node: private or locked gates, stiles and the like stop the
    // profile they forbid (as OSRM's barrier nodes do), bicycle barriers make the rider push.
    const nodeFlags = graph.nodeFlags[node]!;
    if (nodeFlags & NODE_BARRIER_NO_CYCLING) return Infinity;

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
