import { createHash } from 'node:crypto';
import { NODE_BARRIER_DISMOUNT, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, arrivalControlOf, CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_JUNCTION_CONTROLLED, EDGE_RESTRICTION_FROM, EDGE_REVERSED, EDGE_ROADWORKS, EDGE_STEPS, EDGE_WALKING, LIT_ASSUMED, LIT_NO, LIT_YES, litOf, RESTRICTION_SAME_CYCLEWAY, SAFETY_BUSY, safetyClassOf, surfacePenaltyOf, trafficStressOf, WALK_CARRIAGEWAY, walkKindOf } from '../../graph/flags.ts';
import { isClosed, isWindowActive, restrictionsFrom } from '../../graph/rules.ts';
import { CROSSES_BUSY, CROSSES_MODERATE, type RoutingNetwork } from '../network/network.ts';
import type { RouteOverlay } from './overlay.ts';
import { DIRECT_WEIGHTS, SUPERSAFE_WEIGHTS, type CyclingWeights } from './cycling-weights.ts';
import { CYCLING_SPEED_MPS, WALKING_SPEED_MPS, type Profile } from './profile.ts';

/**
 * Costing: pure functions from edge attributes and the request's options to a cost in seconds of
 * riding (or walking) that the search minimises, and the answers to every question of mode or
 * time the search asks (as Valhalla's search asks its costing: may this edge be used, does this
 * turn break a restriction, at the departure). The search knows nothing of what an edge means or
 * when it departs; this module knows nothing of how the search works. Weights are documented in
 * docs/routing.md.
 */

export interface CostOptions {
  profile: Profile;
  /** Cycling only: prefer quiet roads and cycleways (spec 1.1). */
  supersafe: boolean;
  /** Cycling only, and only where lighting data exists: prefer lit streets. */
  night: boolean;
  /** Departure as local wall-clock minutes in the city's zone (graph-format `localMinutes`). */
  departureMinute: number;
  /** Cycling only: climbing costs more, the steeper the more (`climbSeconds`); off unless asked for. */
  avoidHills?: boolean;
}

export type CostMetric = 'cycling-supersafe' | 'cycling-direct' | 'walking';

/** At night where lighting is mapped: lit, public street assumed lit, unknown, unlit. */
export const NIGHT_LIGHTING_FACTORS = { lit: 1.0, assumed: 1.1, unknown: 1.4, unlit: 2.0 } as const;
/** Surface penalty 0 (smooth) .. 3 (very rough): avoided, but never reported as dangerous. */
export const SURFACE_FACTORS = [1.0, 1.25, 1.6, 2.2] as const;
/** Active roadworks: avoided with moderate emphasis (spec 1.2.6). */
export const ROADWORKS_FACTOR = 1.6;
/** Walking in the carriageway where no pavement is mapped: the fallback, not the preference. */
export const WALK_CARRIAGEWAY_FACTOR = 1.3;
/** Turning round at a dead end, the only place a U-turn is allowed. */
export const DEAD_END_U_TURN_SECONDS = 15;
/** Passing a barrier that lets bicycles through only pushed (kissing gate, cycle barrier). */
export const BARRIER_DISMOUNT_SECONDS = 15;

/** A metric's arrival delays by control value (0 where none), for the search's inner loop. */
function controlDelays(weights: CyclingWeights): Float64Array {
  const delays = new Float64Array(8);
  delays[CONTROL_TRAFFIC_SIGNALS] = weights.controlSeconds.signals;
  delays[CONTROL_ALL_WAY_STOP] = weights.controlSeconds.allWayStop;
  delays[CONTROL_TWO_WAY_STOP] = weights.controlSeconds.twoWayStop;
  delays[CONTROL_GIVE_WAY] = weights.controlSeconds.giveWay;
  return delays;
}

/**
 * Bump when a cost function changes shape (not just a weight above): with the weights, it makes
 * the fingerprint that graphs record for their precomputed search bounds.
 */
const COSTING_REVISION = 3;

/**
 * Identifies every input of the time-independent costs. A graph whose landmark tables were built
 * under another fingerprint has them recomputed on load, since stale bounds could overestimate.
 */
export const COSTING_FINGERPRINT = createHash('sha256')
  .update(
    JSON.stringify([
      COSTING_REVISION,
      CYCLING_SPEED_MPS,
      WALKING_SPEED_MPS,
      SUPERSAFE_WEIGHTS,
      DIRECT_WEIGHTS,
      SURFACE_FACTORS,
      ROADWORKS_FACTOR,
      WALK_CARRIAGEWAY_FACTOR,
      DEAD_END_U_TURN_SECONDS,
      BARRIER_DISMOUNT_SECONDS,
    ]),
  )
  .digest('hex')
  .slice(0, 16);

/**
 * The hill preference (`avoid_hills`): every metre an edge climbs adds seconds to its cost, more
 * the steeper its grade, HILL_SECONDS_PER_METRE at a gentle grade rising with the square of the
 * grade over HILL_STEEP_GRADE (at twice that grade a metre costs five times as much). Descents
 * add nothing and take nothing away, so the penalty only ever adds cost: search bounds computed
 * without it (landmarks, the straight line) stay admissible. Kept apart from the class factors
 * above; it does not enter COSTING_FINGERPRINT, since the stored landmark tables never include it.
 */
export const HILL_SECONDS_PER_METRE = 20;
export const HILL_STEEP_GRADE = 0.08;

/** Seconds the hill preference adds for climbing `ascent` metres along `length` metres (0 where it does not climb). */
export function climbSeconds(ascent: number, length: number): number {
  if (!(ascent > 0) || !(length > 0)) return 0;
  const grade = ascent / length;
  return ascent * HILL_SECONDS_PER_METRE * (1 + (grade / HILL_STEEP_GRADE) ** 2);
}

/** `Costing.turnTable`'s entry for a turn that is never allowed. */
export const TURN_FORBIDDEN = 255;

/** `Costing.turnRestriction` and `viaWayStep`: the turn breaks a turn restriction in force at the departure. */
export const TURN_RESTRICTED = -2;
/** `Costing.turnRestriction` and `viaWayStep`: no restriction in force forbids the turn or follows on from it. */
export const TURN_UNRESTRICTED = -1;

/** Per graph, per metric: `Costing.turnTable`'s tables (null where one could not be stored exactly). */
const turnTables = new WeakMap<RoutingNetwork, Map<CostMetric, Uint8Array | null>>();
/** Per graph, per metric and hill preference: `Costing.leastCostTable`'s tables. */
const leastCostTables = new WeakMap<RoutingNetwork, Map<EdgeCostKey, Float64Array>>();
/** A metric, or a cycling metric with the hill preference on top. */
type EdgeCostKey = CostMetric | `${CostMetric}+hills`;

/** The table `compute` makes for this graph and key, made on the first call and kept with the graph. */
function perGraphAndMetric<K extends string, T>(cache: WeakMap<RoutingNetwork, Map<K, T>>, network: RoutingNetwork, metric: K, compute: () => T): T {
  let tables = cache.get(network);
  if (!tables) {
    tables = new Map();
    cache.set(network, tables);
  }
  if (!tables.has(metric)) tables.set(metric, compute());
  return tables.get(metric)!;
}

export class Costing {
  /** Lower bound of cost per metre over every edge: the A* heuristic's scale. */
  readonly minSecondsPerMetre: number;
  /** Cycling obeys turn restrictions; walking does not (spec 1.2.10). */
  readonly obeysRestrictions: boolean;
  /**
   * Names the time-independent part of this costing (`leastEdgeCost` and `turnCost`): costings
   * with the same metric share precomputed search bounds whatever their departure or lighting.
   */
  readonly metric: CostMetric;
  /** The cycling metric's weights (cycling-weights.ts); walking has none. */
  private readonly weights: CyclingWeights;
  private readonly controlDelays: Float64Array;
  /** Cycling with the hill preference: climbing adds `climbSeconds` to edge costs (never to the metric's bounds). */
  readonly avoidsHills: boolean;
  private readonly edgeCostKey: EdgeCostKey;
  private readonly usableFlag: number;
  private readonly closureCache = new Map<number, boolean>();
  /** `leastCostTable()`, fetched on the first `edgeCost`. */
  private leastCosts: Float64Array | null = null;

  constructor(
    readonly network: RoutingNetwork,
    readonly options: CostOptions,
    /** Effects of accepted road reports on this graph (core/routing/costing/overlay.ts); they only raise costs. */
    readonly overlay: RouteOverlay | null = null,
    /**
     * Cycling: edges a rented vehicle may not be ridden on (1), such as those through a bike-share
     * operator's no-ride zones. Like the overlay it only raises costs (to Infinity).
     */
    readonly noRide: Uint8Array | null = null,
  ) {
    const cycling = options.profile === 'cycling';
    this.usableFlag = cycling ? EDGE_CYCLING : EDGE_WALKING;
    this.obeysRestrictions = cycling;
    this.metric = cycling ? (options.supersafe ? 'cycling-supersafe' : 'cycling-direct') : 'walking';
    this.weights = cycling && options.supersafe ? SUPERSAFE_WEIGHTS : DIRECT_WEIGHTS;
    this.controlDelays = controlDelays(this.weights);
    this.avoidsHills = cycling && options.avoidHills === true;
    this.edgeCostKey = this.avoidsHills ? `${this.metric}+hills` : this.metric;
    const fastest = cycling ? CYCLING_SPEED_MPS : WALKING_SPEED_MPS;
    this.minSecondsPerMetre = (cycling ? Math.min(...this.weights.classFactors) * Math.min(...this.weights.stressFactors) : 1) / fastest;
  }

  usable(edge: number): boolean {
    return (this.network.graph.edgeFlags[edge]! & this.usableFlag) !== 0;
  }

  /** Can be travelled in the profile's own way: for cycling, ridden rather than pushed. */
  travelsNormally(edge: number): boolean {
    return this.usable(edge) && (this.options.profile === 'walking' || !(this.network.graph.edgeFlags[edge]! & EDGE_DISMOUNT));
  }

  /**
   * Usable and open at the departure: what a coordinate may snap to, so a start in a park that
   * is closed at night snaps to the open street beside it rather than to a locked path.
   */
  openAtDeparture(edge: number): boolean {
    return this.usable(edge) && this.edgeCost(edge) !== Infinity;
  }

  /**
   * Seconds of cost for a request's coordinate to join a way `metres` farther than the nearest way
   * it snapped to: walked, and for cycling with the bike pushed at the metric's push weight.
   */
  joinSeconds(metres: number): number {
    const walked = metres / WALKING_SPEED_MPS;
    return this.options.profile === 'walking' ? walked : walked * this.weights.pushFactor;
  }

  /**
   * `leastEdgeCost` of every edge, computed once per graph, metric and hill preference and shared
   * by every costing of the same. Where `mayCostMoreThanLeast` is false, an edge's `edgeCost` is its entry.
   */
  leastCostTable(): Float64Array {
    return perGraphAndMetric(leastCostTables, this.network, this.edgeCostKey, () => {
      const table = new Float64Array(this.network.graph.edgeCount);
      for (let edge = 0; edge < table.length; edge++) table[edge] = this.leastEdgeCost(edge);
      return table;
    });
  }

  /**
   * Whether `edgeCost` may be more than `leastEdgeCost` on this edge: always at night or with
   * no-ride zones; otherwise only where a closure rule or an accepted report touches the edge.
   */
  mayCostMoreThanLeast(edge: number): boolean {
    if (this.options.profile === 'walking') return false;
    return this.options.night || this.noRide !== null || this.network.graph.edgeClosure[edge] !== 0 || (this.overlay !== null && this.overlay.marks(edge));
  }

  /** Seconds of cost to travel the whole edge, or Infinity where it may not be used now. */
  edgeCost(edge: number): number {
    const cost = (this.leastCosts ??= this.leastCostTable())[edge]!;
    if (this.options.profile === 'walking' || cost === Infinity) return cost;
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

  /**
   * The least the edge can ever cost under this costing's metric and hill preference, whatever
   * the time: by day and with every closure open. Never more than `edgeCost`, so search bounds
   * built on it stay valid; with the hill preference never less than without it, so the metric's
   * bounds stay valid too.
   */
  leastEdgeCost(edge: number): number {
    const cost = this.flatEdgeCost(edge);
    return this.avoidsHills && cost !== Infinity ? cost + this.climbPenalty(edge) : cost;
  }

  /** `leastEdgeCost` without the hill preference: what the metric's landmark bounds are computed from. */
  private flatEdgeCost(edge: number): number {
    const graph = this.network.graph;
    const flags = graph.edgeFlags[edge]!;
    if (!(flags & this.usableFlag)) return Infinity;
    const length = graph.edgeLength[edge]!;
    if (this.options.profile === 'walking') {
      return (length / WALKING_SPEED_MPS) * (walkKindOf(flags) === WALK_CARRIAGEWAY ? WALK_CARRIAGEWAY_FACTOR : 1);
    }
    const weights = this.weights;
    if (flags & EDGE_DISMOUNT) return (length / WALKING_SPEED_MPS) * (flags & EDGE_STEPS ? weights.stepsPushFactor : weights.pushFactor);
    let factor = weights.classFactors[safetyClassOf(flags)]! * weights.stressFactors[trafficStressOf(flags)]! * SURFACE_FACTORS[surfacePenaltyOf(flags)]!;
    const speed = CYCLING_SPEED_MPS;
    if (flags & EDGE_ROADWORKS) factor *= ROADWORKS_FACTOR;
    return (length / speed) * factor;
  }

  /** `climbSeconds` of the edge: its segment's climb in the edge's direction (the descent for a reversed edge). */
  private climbPenalty(edge: number): number {
    const graph = this.network.graph;
    const segment = graph.edgeSegment[edge]!;
    const ascent = (graph.edgeFlags[edge]! & EDGE_REVERSED ? graph.segmentDescent[segment]! : graph.segmentAscent[segment]!) / 10;
    return climbSeconds(ascent, graph.edgeLength[edge]!);
  }

  /**
   * Seconds added for going from one edge onto the next at their shared node, or Infinity for a
   * U-turn anywhere but a dead end. Turn restrictions, which depend on the departure and on the
   * edges before, are asked apart (`turnRestriction`, `viaWayStep`).
   */
  turnCost(from: number, to: number): number {
    const seconds = this.turnCostWithoutOverlay(from, to);
    return seconds !== Infinity && this.overlayForbidsTurn(from, to) ? Infinity : seconds;
  }

  /**
   * Whether an accepted report removes the turn from `from` onto `to` (never a U-turn, never
   * walking). Only an edge the overlay marks (`RouteOverlay.marks`) can have its entry removed.
   */
  overlayForbidsTurn(from: number, to: number): boolean {
    if (this.overlay === null || !this.overlay.marks(to) || this.options.profile === 'walking' || this.network.reverseOf(from) === to) return false;
    return this.overlay.forbidsEntry(to, this.network.graph.edgeHead[from]!, this.options.departureMinute);
  }

  /** Whether turn restrictions can begin at `edge`: cycling obeys them, walking does not (spec 1.2.10). */
  restrictsTurnsFrom(edge: number): boolean {
    return this.obeysRestrictions && (this.network.graph.edgeFlags[edge]! & EDGE_RESTRICTION_FROM) !== 0;
  }

  /**
   * Whether turning from `from` onto `to` breaks a turn restriction in force at the departure
   * (TURN_RESTRICTED), begins the edge sequence of a via-way restriction in force then (the
   * restriction's index: the search follows it with `viaWayStep`), or neither (TURN_UNRESTRICTED).
   * Asked only where `restrictsTurnsFrom(from)`.
   */
  turnRestriction(from: number, to: number): number {
    const graph = this.network.graph;
    const [first, last] = restrictionsFrom(graph, from);
    let verdict = TURN_UNRESTRICTED;
    for (let restriction = first; restriction < last; restriction++) {
      const start = graph.restrictionFirst[restriction]!;
      if (graph.restrictionEdges[start + 1] !== to || !this.restrictionInForce(restriction)) continue;
      if (graph.restrictionFirst[restriction + 1]! - start === 2) return TURN_RESTRICTED;
      verdict = restriction;
    }
    return verdict;
  }

  /**
   * The via-way restriction's state machine: with the first `matched` edges of the sequence of
   * `restriction` (one `turnRestriction` found in force) travelled, going on along `next`
   * completes the sequence (TURN_RESTRICTED: the turn may not be taken), leaves it
   * (TURN_UNRESTRICTED), or travels one more of its edges (the new count of matched edges).
   */
  viaWayStep(restriction: number, matched: number, next: number): number {
    const graph = this.network.graph;
    const position = graph.restrictionFirst[restriction]! + matched;
    if (graph.restrictionEdges[position] !== next) return TURN_UNRESTRICTED;
    return position === graph.restrictionFirst[restriction + 1]! - 1 ? TURN_RESTRICTED : matched + 1;
  }

  /** In force at the departure: not waived for a cycleway alongside, and its time window (if any) open. */
  private restrictionInForce(restriction: number): boolean {
    const graph = this.network.graph;
    if (graph.restrictionFlags[restriction]! & RESTRICTION_SAME_CYCLEWAY) return false;
    const window = graph.restrictionWindow[restriction]!;
    return window === 0 || isWindowActive(graph, window - 1, this.options.departureMinute);
  }

  /**
   * `turnCost` for every turn of the graph, without the overlay, indexed as
   * `RoutingNetwork.turnFirst` says, in half-seconds (TURN_FORBIDDEN where the turn is never
   * allowed): computed once per graph and metric and shared by every costing of the metric (turn
   * costs depend on nothing else). Null where a cost is not a whole number of half-seconds below
   * 127 s; the search then asks `turnCost`.
   */
  turnTable(): Uint8Array | null {
    return perGraphAndMetric(turnTables, this.network, this.metric, () => this.computeTurnTable());
  }

  private computeTurnTable(): Uint8Array | null {
    const network = this.network;
    const { edgeCount, edgeHead, firstOut } = network.graph;
    const table = new Uint8Array(network.turnCount);
    for (let edge = 0; edge < edgeCount; edge++) {
      const head = edgeHead[edge]!;
      let turn = network.turnFirst[edge]!;
      for (let next = firstOut[head]!, end = firstOut[head + 1]!; next < end; next++, turn++) {
        const seconds = this.turnCostWithoutOverlay(edge, next);
        if (seconds === Infinity) table[turn] = TURN_FORBIDDEN;
        else if (Number.isInteger(seconds * 2) && seconds >= 0 && seconds * 2 < TURN_FORBIDDEN) table[turn] = seconds * 2;
        else return null;
      }
    }
    return table;
  }

  private turnCostWithoutOverlay(from: number, to: number): number {
    const network = this.network;
    const graph = network.graph;
    if (network.reverseOf(from) === to) {
      const node = graph.edgeHead[from]!;
      const exits = graph.firstOut[node + 1]! - graph.firstOut[node]!;
      return exits <= 1 ? DEAD_END_U_TURN_SECONDS : Infinity;
    }
    // A barrier is passed through its node: private or locked gates, stiles and the like stop the
    // profile they forbid (as OSRM's barrier nodes do), bicycle barriers make the rider push.
    const node = graph.edgeHead[from]!;
    const nodeFlags = graph.nodeFlags[node]!;
    if (this.options.profile === 'walking') return nodeFlags & NODE_BARRIER_NO_WALKING ? Infinity : 0;
    if (nodeFlags & NODE_BARRIER_NO_CYCLING) return Infinity;

    const fromFlags = graph.edgeFlags[from]!;
    const toFlags = graph.edgeFlags[to]!;
    const weights = this.weights;
    // Bearings are whole degrees in [0, 360): bearingDifference in integer steps.
    const difference = Math.abs(network.endBearing[from]! - network.startBearing[to]!);
    const angle = difference > 180 ? 360 - difference : difference;
    const turns = weights.turnSeconds;
    let seconds = angle < 25 ? turns.straight : angle < 60 ? turns.slight : angle < 120 ? turns.turn : turns.sharp;
    seconds += this.controlDelays[arrivalControlOf(fromFlags)]!;
    if (nodeFlags & NODE_BARRIER_DISMOUNT) seconds += BARRIER_DISMOUNT_SECONDS;
    if (toFlags & EDGE_DISMOUNT && !(fromFlags & EDGE_DISMOUNT)) seconds += weights.dismountSeconds;

    if (!(fromFlags & EDGE_JUNCTION_CONTROLLED) && safetyClassOf(fromFlags) !== SAFETY_BUSY) {
      const busiest = network.busiestRoadAt[graph.edgeHead[from]!]!;
      if (busiest === CROSSES_BUSY) seconds += weights.uncontrolledCrossingSeconds.busy;
      else if (busiest === CROSSES_MODERATE) seconds += weights.uncontrolledCrossingSeconds.moderate;
    }
    return seconds;
  }

  private closedNow(closure: number): boolean {
    let closed = this.closureCache.get(closure);
    if (closed === undefined) {
      closed = isClosed(this.network.graph, closure, this.options.profile, this.options.departureMinute);
      this.closureCache.set(closure, closed);
    }
    return closed;
  }
}

