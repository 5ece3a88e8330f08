import { createHash } from 'node:crypto';
import { NODE_BARRIER_DISMOUNT, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, arrivalControlOf, CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_JUNCTION_CONTROLLED, EDGE_RESTRICTION_FROM, EDGE_REVERSED, EDGE_ROADWORKS, EDGE_STEPS, EDGE_WALKING, LIT_ASSUMED, LIT_NO, LIT_YES, litOf, RESTRICTION_SAME_CYCLEWAY, SAFETY_BUSY, safetyClassOf, surfacePenaltyOf, trafficStressOf, WALK_CARRIAGEWAY, walkKindOf } from '../../graph/flags.ts';
import { isClosed, isWindowActive, restrictionsFrom } from '../../graph/rules.ts';
import type { CostTableHeader } from '../../graph/layout.ts';
import { CROSSES_BUSY, CROSSES_MODERATE, type RoutingNetwork } from '../network/network.ts';
import { storedMetricTables, turnRowFirstOf, TURN_FORBIDDEN, type MetricTables } from './cost-tables.ts';
import type { RouteOverlay } from './overlay.ts';
import { DIRECT_WEIGHTS, SUPERSAFE_WEIGHTS, type CyclingWeights } from './cycling-weights.ts';
import type { Profile } from '../../graph/profiles.ts';
import { CYCLING_SPEED_MPS, WALKING_SPEED_MPS } from './speeds.ts';

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
 * Identifies every input of the time-independent costs. A graph whose cost tables or landmark
 * tables were built under another fingerprint has them recomputed on load: stale costs would route
 * by old weights, and stale bounds could overestimate.
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

export { TURN_FORBIDDEN };

/**
 * The metrics whose cost tables graphs store (cost-tables.ts): the cycling ones, which every
 * directions request uses. Walking stores none: its edge cost is a length times a factor and its
 * turn cost two tests of flags, as cheap to compute in the search as to read, while its tables
 * would take about 7 bytes per directed edge more.
 */
export const STORED_COST_METRICS: readonly CostMetric[] = ['cycling-supersafe', 'cycling-direct'];

/** `Costing.turnRestriction` and `viaWayStep`: the turn breaks a turn restriction in force at the departure. */
export const TURN_RESTRICTED = -2;
/** `Costing.turnRestriction` and `viaWayStep`: no restriction in force forbids the turn or follows on from it. */
export const TURN_UNRESTRICTED = -1;

/** Per graph, per metric: `Costing.tables()` (null for a metric without tables). */
const metricTables = new WeakMap<RoutingNetwork, Map<CostMetric, MetricTables | null>>();
/** Per graph, per cycling metric: `leastEdgeCost` with the hill preference on top (computed on first use, never stored). */
const hillyLeastCosts = new WeakMap<RoutingNetwork, Map<CostMetric, Float32Array>>();

/**
 * The edges whose cost a query may raise above the least cost (`Costing.mayCostMoreThanLeast`),
 * as arrays a search's inner loop reads directly: every edge, or those with a closure rule
 * (non-zero in `closures`) or an accepted report (1 in `reports`).
 */
export interface CostlierEdges {
  readonly every: boolean;
  readonly closures: Uint16Array | null;
  readonly reports: Uint8Array | null;
}

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
  /** The edge flag of the edges the profile may use. */
  readonly usableFlag: number;
  /** The metric stores its tables, whose least costs are single precision. */
  private readonly storesTables: boolean;
  private readonly closureCache = new Map<number, boolean>();
  /** `leastCostTable()`, fetched on the first `edgeCost` (undefined until then). */
  private leastCosts: Float32Array | null | undefined = undefined;
  /** Which edges `edgeCost` may raise above `leastEdgeCost` (`mayCostMoreThanLeast`). */
  readonly costlier: CostlierEdges;

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
    this.storesTables = STORED_COST_METRICS.includes(this.metric);
    const fastest = cycling ? CYCLING_SPEED_MPS : WALKING_SPEED_MPS;
    this.minSecondsPerMetre = (cycling ? Math.min(...this.weights.classFactors) * Math.min(...this.weights.stressFactors) : 1) / fastest;
    this.costlier = cycling
      ? { every: options.night || noRide !== null, closures: network.graph.edgeClosure, reports: overlay?.marked ?? null }
      : { every: false, closures: null, reports: null };
  }

  /** The costing whose least costs and turn costs define a metric (departure and lighting do not enter them). */
  static forMetric(network: RoutingNetwork, metric: CostMetric): Costing {
    return new Costing(network, {
      profile: metric === 'walking' ? 'walking' : 'cycling',
      supersafe: metric === 'cycling-supersafe',
      night: false,
      departureMinute: 0,
    });
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
   * The metric's cost tables (cost-tables.ts), shared by every costing of the metric on this graph:
   * the graph's own when it stores them under today's costing (COSTING_FINGERPRINT), else computed
   * on first use (`prepareCostTables` computes them when the router loads such a graph, so no
   * query does). Null for a metric that stores none (walking): the search then asks
   * `leastEdgeCost` and `turnCost`.
   */
  tables(): MetricTables | null {
    return perGraphAndMetric(metricTables, this.network, this.metric, () => {
      if (!this.storesTables) return null;
      return storedMetricTables(this.network.graph, this.metric, COSTING_FINGERPRINT) ?? this.computeTables();
    });
  }

  /**
   * `leastEdgeCost` of every edge (`tables()`, or with the hill preference a table of its own per
   * graph and metric); where `mayCostMoreThanLeast` is false, an edge's `edgeCost` is its entry.
   */
  leastCostTable(): Float32Array | null {
    const flat = this.tables()?.leastCost ?? null;
    if (!this.avoidsHills || flat === null) return flat;
    return perGraphAndMetric(hillyLeastCosts, this.network, this.metric, () => {
      const table = new Float32Array(flat.length);
      for (let edge = 0; edge < table.length; edge++) table[edge] = this.leastEdgeCost(edge);
      return table;
    });
  }

  /** Every turn's cost without the overlay, half-seconds, at `RoutingNetwork.turnBase(from) + to` (`tables()`). */
  turnTable(): Uint8Array | null {
    return this.tables()?.turnCost ?? null;
  }

  /**
   * Whether `edgeCost` may be more than `leastEdgeCost` on this edge: always at night or with
   * no-ride zones; otherwise only where a closure rule or an accepted report touches the edge.
   * Never for walking, whose costs are not tabled.
   */
  mayCostMoreThanLeast(edge: number): boolean {
    const { every, closures, reports } = this.costlier;
    return every || (closures !== null && closures[edge] !== 0) || (reports !== null && reports[edge] === 1);
  }

  /** Seconds of cost to travel the whole edge, or Infinity where it may not be used now. */
  edgeCost(edge: number): number {
    if (this.leastCosts === undefined) this.leastCosts = this.leastCostTable();
    const cost = this.leastCosts ? this.leastCosts[edge]! : this.leastEdgeCost(edge);
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
   * bounds stay valid too. Single precision for a metric that stores its tables (the tables hold
   * what this answers).
   */
  leastEdgeCost(edge: number): number {
    const flat = this.flatEdgeCost(edge);
    const cost = this.avoidsHills && flat !== Infinity ? flat + this.climbPenalty(edge) : flat;
    return this.storesTables ? Math.fround(cost) : cost;
  }

  /** `leastEdgeCost` without the hill preference and in double precision: what the metric's landmark bounds are computed from. */
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

  /** The metric's tables computed from the graph (a graph built without them, or under other weights); null when they cannot be stored. */
  private computeTables(): MetricTables | null {
    const graph = this.network.graph;
    const leastCost = new Float32Array(graph.edgeCount);
    for (let edge = 0; edge < leastCost.length; edge++) leastCost[edge] = this.leastEdgeCost(edge);
    const turnCost = this.computeTurnTable();
    return turnCost ? { leastCost, turnCost } : null;
  }

  /**
   * `turnCost` without the overlay for every turn of the graph's turn rows (cost-tables.ts), in
   * half-seconds (TURN_FORBIDDEN where the turn is never allowed). Null where the graph's turn
   * rows do not cover the profile's edges, or a cost is not a whole number of half-seconds below
   * 127 s; the search then asks `turnCost`.
   */
  private computeTurnTable(): Uint8Array | null {
    const network = this.network;
    const { nodeCount, edgeFlags, firstOut, firstIn, inEdges, turnRowFirst } = network.graph;
    const rowFlags = network.turnRowFlags;
    if ((this.usableFlag & rowFlags) !== this.usableFlag || turnRowFirst.length !== nodeCount + 1) return null;
    const table = new Uint8Array(turnRowFirst[nodeCount]!);
    const leaving: number[] = [];
    for (let node = 0; node < nodeCount; node++) {
      const first = firstOut[node]!;
      const end = firstOut[node + 1]!;
      for (let next = first; next < end; next++) leaving[next - first] = network.startBearing(next);
      const busiest = network.busiestRoadAt(node);
      let turn = turnRowFirst[node]!;
      for (let i = firstIn[node]!; i < firstIn[node + 1]!; i++) {
        const edge = inEdges[i]!;
        if (!(edgeFlags[edge]! & rowFlags)) continue;
        const arriving = network.endBearing(edge);
        for (let next = first; next < end; next++, turn++) {
          const seconds = this.turnSeconds(edge, next, arriving, leaving[next - first]!, busiest);
          if (seconds === Infinity) table[turn] = TURN_FORBIDDEN;
          else if (Number.isInteger(seconds * 2) && seconds >= 0 && seconds * 2 < TURN_FORBIDDEN) table[turn] = seconds * 2;
          else return null;
        }
      }
    }
    return table;
  }

  private turnCostWithoutOverlay(from: number, to: number): number {
    const table = this.turnTable();
    if (table !== null && this.usable(from)) {
      const entry = table[this.network.turnBase(from) + to]!;
      return entry === TURN_FORBIDDEN ? Infinity : entry * 0.5;
    }
    return this.turnCostByRules(from, to);
  }

  /** The turn's cost by the costing's rules, without the tables and the overlay: what the turn table holds. */
  turnCostByRules(from: number, to: number): number {
    const network = this.network;
    const node = network.graph.edgeHead[from]!;
    return this.turnSeconds(from, to, network.endBearing(from), network.startBearing(to), network.busiestRoadAt(node));
  }

  /**
   * The turn's cost from its parts: the bearings it arrives and leaves with (whole degrees) and,
   * the busiest road at the junction (RoutingNetwork.busiestRoadAt).
   */
  private turnSeconds(from: number, to: number, arriving: number, leaving: number, busiest: number): number {
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
      closed = isClosed(this.network.graph, closure, this.options.profile, this.options.departureMinute);
      this.closureCache.set(closure, closed);
    }
    return closed;
  }
}

/** The stored metrics' cost tables as graph sections, and their header (the builder's `cost-tables` stage). */
export interface CostTableSections {
  readonly header: CostTableHeader;
  readonly sections: { readonly turnRowFirst: Uint32Array; readonly leastCost: Float32Array; readonly turnCost: Uint8Array };
}

/** The edge flags whose edges have turn rows: those any stored metric's profile may use. */
export const TURN_ROW_FLAGS = STORED_COST_METRICS.reduce((flags, metric) => flags | (metric === 'walking' ? EDGE_WALKING : EDGE_CYCLING), 0);

/** The turn rows of a graph's arrays (cost-tables.ts), for the builder to store before the tables. */
export const turnRowFirst = (graph: Parameters<typeof turnRowFirstOf>[0]): Uint32Array => turnRowFirstOf(graph, TURN_ROW_FLAGS);

/**
 * Computes every stored metric's tables on a network whose graph holds the turn rows but no tables
 * yet (the builder). A metric whose turn costs cannot be stored is left out; the router computes
 * its costs as it goes.
 */
export function costTableSections(network: RoutingNetwork): CostTableSections {
  const graph = network.graph;
  const computed = STORED_COST_METRICS.map((metric) => ({ metric, tables: Costing.forMetric(network, metric).tables() }))
    .filter((entry): entry is { metric: CostMetric; tables: MetricTables } => entry.tables !== null);
  const edges = graph.edgeCount;
  const turns = graph.turnRowFirst[graph.nodeCount]!;
  const leastCost = new Float32Array(computed.length * edges);
  const turnCost = new Uint8Array(computed.length * turns);
  computed.forEach(({ tables }, index) => {
    leastCost.set(tables.leastCost, index * edges);
    turnCost.set(tables.turnCost, index * turns);
  });
  return {
    header: { costing: COSTING_FINGERPRINT, row_flags: TURN_ROW_FLAGS, metrics: computed.map((entry) => entry.metric) },
    sections: { turnRowFirst: graph.turnRowFirst, leastCost, turnCost },
  };
}

/**
 * Makes every stored metric's tables ready on a freshly loaded graph, so no query computes them:
 * views on the file when it stores them under today's costing, else computed now (a graph built
 * under other weights). Answers whether any had to be computed.
 */
export function prepareCostTables(network: RoutingNetwork): boolean {
  let computed = false;
  for (const metric of STORED_COST_METRICS) {
    if (!storedMetricTables(network.graph, metric, COSTING_FINGERPRINT)) computed = true;
    Costing.forMetric(network, metric).tables();
  }
  return computed;
}
