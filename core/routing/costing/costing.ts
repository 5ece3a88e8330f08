import { EDGE_REVERSED, RESTRICTION_SAME_CYCLEWAY } from '../../graph/flags.ts';
import type { Profile } from '../../graph/profiles.ts';
import { isWindowActive, restrictionsFrom } from '../../graph/rules.ts';
import { hasBit } from '../network/bits.ts';
import { CROSSES_NOTHING, type RoutingNetwork } from '../network/network.ts';
import { storedMetricTables, TURN_FORBIDDEN, type MetricTables } from './cost-tables.ts';
import { speedOf } from './speeds.ts';
import { BICYCLE_TYPE_PROFILES, DEFAULT_BICYCLE_TYPE, type BicycleType } from './bicycle-types.ts';
import type { RouteOverlay } from './overlay.ts';
import { COSTING_FINGERPRINT, DEAD_END_U_TURN_SECONDS } from './weights.ts';

/**
 * Costing: pure functions from edge attributes and the request's options to a cost in seconds of
 * riding (or walking) that the search minimises, and the answers to every question of mode or
 * time the search asks (as Valhalla's search asks its costing: may this edge be used, does this
 * turn break a restriction, at the departure). The search knows nothing of what an edge means or
 * when it departs; this module knows nothing of how the search works. As Valhalla's `sif` does
 * with `DynamicCost`, each mode is a costing of its own (cycling-costing.ts, walking-costing.ts),
 * chosen once by profile when one is made (create-costing.ts); `Costing` is what the search asks
 * and holds the answers every mode shares: turn restrictions, the stored tables, the hill
 * preference. Weights are documented in docs/routing.md.
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
  /**
   * Cycling only: a graded safety strictly between 0 (direct) and 1 (supersafe), safety.ts; every
   * edge and turn then costs (1 - safety) x direct + safety x supersafe (graded-costing.ts).
   * Absent: `supersafe` chooses one of the two.
   */
  safety?: number;
  /**
   * Cycling only: the bicycle type (bicycle-types.ts), `hybrid` when absent. Any other type's
   * costs are its own (its cost tables computed on first use per graph, never stored), bounded
   * by the metric's stored bounds scaled down (`CyclingCosting.metricShares`).
   */
  bicycleType?: BicycleType;
}

/** `cycling-graded`: a blend of the two cycling metrics (graded-costing.ts), which stores nothing of its own. */
export type CostMetric = 'cycling-supersafe' | 'cycling-direct' | 'cycling-graded' | 'walking';

/** One metric a costing's costs are made of, and its share of them (`Costing.metricShares`). */
export interface MetricShare {
  readonly metric: CostMetric;
  readonly share: number;
}

/**
 * The hill preference (`avoid_hills`): every metre an edge climbs adds seconds to its cost, more
 * the steeper its grade, HILL_SECONDS_PER_METRE at a gentle grade rising with the square of the
 * grade over HILL_STEEP_GRADE (at twice that grade a metre costs five times as much). Descents
 * add nothing and take nothing away, so the penalty only ever adds cost: search bounds computed
 * without it (landmarks, the straight line) stay admissible. Kept apart from the class factors
 * (weights.ts); it does not enter COSTING_FINGERPRINT, since the stored landmark tables never include it.
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

/** Per graph, per metric and bicycle type (`Costing.tableKey`): `Costing.tables()` (null for a metric without tables). */
const metricTables = new WeakMap<RoutingNetwork, Map<string, MetricTables | null>>();
/** Per graph, per cycling metric and bicycle type: `leastEdgeCost` with the hill preference on top (computed on first use, never stored). */
const hillyLeastCosts = new WeakMap<RoutingNetwork, Map<string, Float32Array>>();

/**
 * The edges whose cost a query may raise above the least cost (`Costing.mayCostMoreThanLeast`),
 * as bit sets (network/bits.ts) a search's inner loop reads directly: every edge, or those with
 * a closure rule (`RoutingNetwork.closureEdges`) or an accepted report (`RouteOverlay.marked`).
 */
export interface CostlierEdges {
  readonly every: boolean;
  readonly closures: Uint32Array | null;
  readonly reports: Uint32Array | null;
}

/** Raises no edge's cost above its least cost: a costing without time rules, reports or night. */
export const NO_COSTLIER_EDGES: CostlierEdges = { every: false, closures: null, reports: null };

/** What a mode's costing settles when it is made; the search reads these as plain fields. */
export interface ModeFacts {
  /** The edge flag of the edges the profile may use. */
  readonly usableFlag: number;
  readonly obeysRestrictions: boolean;
  readonly metric: CostMetric;
  readonly minSecondsPerMetre: number;
  readonly avoidsHills: boolean;
  readonly costlier: CostlierEdges;
  /**
   * The mode's `transitionSeconds` reads the turn's bearings and the junction's busiest road
   * (cycling's does; walking's, which only asks whether a barrier stops it, does not, so its turns
   * are costed without reading any geometry: most of a walking search's time otherwise).
   */
  readonly turnsReadGeometry: boolean;
}

/** The table `compute` makes for this graph and key, made on the first call and kept with the graph. */
function perGraphAndMetric<T>(cache: WeakMap<RoutingNetwork, Map<string, T>>, network: RoutingNetwork, metric: string, compute: () => T): T {
  let tables = cache.get(network);
  if (!tables) {
    tables = new Map();
    cache.set(network, tables);
  }
  if (!tables.has(metric)) tables.set(metric, compute());
  return tables.get(metric)!;
}

export abstract class Costing {
  /** Lower bound of cost per metre over every edge: the A* heuristic's scale. */
  readonly minSecondsPerMetre: number;
  /** Cycling obeys turn restrictions; walking does not (spec 1.2.10). */
  readonly obeysRestrictions: boolean;
  /**
   * Names the time-independent part of this costing (`leastEdgeCost` and `turnCost`): costings
   * with the same metric share precomputed search bounds whatever their departure or lighting.
   */
  readonly metric: CostMetric;
  /** Cycling with the hill preference: climbing adds `climbSeconds` to edge costs (never to the metric's bounds). */
  readonly avoidsHills: boolean;
  /** The edge flag of the edges the profile may use. */
  readonly usableFlag: number;
  /** Cycling: the bicycle type (bicycle-types.ts); `hybrid` for walking and when the request names none. */
  readonly bicycleType: BicycleType;
  /** The metric has cost tables, whose least costs are single precision: stored in the graph for `hybrid`, computed on first use for another type. */
  private readonly storesTables: boolean;
  /** What the tables of this costing are kept under with the graph: the metric, and the bicycle type unless `hybrid`. */
  private readonly tableKey: string;
  /** Multiplier on the hill preference's climbing cost (`BicycleTypeProfile.climbWeight`). */
  private readonly climbWeight: number;
  /** `leastCostTable()`, fetched on the first `edgeCost` (undefined until then). */
  private leastCosts: Float32Array | null | undefined = undefined;
  /** `turnTable()`, fetched on the first `turnCost` (undefined until then). */
  private turnCosts: Uint8Array | null | undefined = undefined;
  /** `ModeFacts.turnsReadGeometry`. */
  private readonly turnsReadGeometry: boolean;
  /** Which edges `edgeCost` may raise above `leastEdgeCost` (`mayCostMoreThanLeast`). */
  readonly costlier: CostlierEdges;

  protected constructor(
    readonly network: RoutingNetwork,
    readonly options: CostOptions,
    /** Effects of accepted road reports on this graph (core/routing/costing/overlay.ts); they only raise costs. */
    readonly overlay: RouteOverlay | null,
    /**
     * Cycling: edges a rented vehicle may not be ridden on (1), such as those through a bike-share
     * operator's no-ride zones. Like the overlay it only raises costs (to Infinity).
     */
    readonly noRide: Uint8Array | null,
    mode: ModeFacts,
  ) {
    this.usableFlag = mode.usableFlag;
    this.obeysRestrictions = mode.obeysRestrictions;
    this.metric = mode.metric;
    this.avoidsHills = mode.avoidsHills;
    this.storesTables = STORED_COST_METRICS.includes(mode.metric);
    this.bicycleType = options.bicycleType ?? DEFAULT_BICYCLE_TYPE;
    this.tableKey = this.bicycleType === DEFAULT_BICYCLE_TYPE ? mode.metric : `${mode.metric}:${this.bicycleType}`;
    this.climbWeight = BICYCLE_TYPE_PROFILES[this.bicycleType].climbWeight;
    this.minSecondsPerMetre = mode.minSecondsPerMetre;
    this.costlier = mode.costlier;
    this.turnsReadGeometry = mode.turnsReadGeometry;
  }

  usable(edge: number): boolean {
    return (this.network.graph.edgeFlags[edge]! & this.usableFlag) !== 0;
  }

  /**
   * The metrics whose edge and turn costs this costing's are the weighted sum of: its own metric
   * alone, or for the graded costing the two cycling metrics (graded-costing.ts). The search's
   * bounds combine each metric's bounds with the same shares, which keeps them lower bounds.
   */
  metricShares(): readonly MetricShare[] {
    return [{ metric: this.metric, share: 1 }];
  }

  /**
   * Metres per second the profile travels `edge` at in its own way (durations in answers): the
   * profile's speed (speeds.ts), for cycling the bicycle type's by surface and grade.
   */
  ridingSpeedOn(_edge: number): number {
    return speedOf(this.options.profile);
  }

  /** Can be travelled in the profile's own way: for cycling, ridden rather than pushed. */
  abstract travelsNormally(edge: number): boolean;

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
  abstract joinSeconds(metres: number): number;

  /**
   * The metric's cost tables (cost-tables.ts), shared by every costing of the metric on this graph:
   * the graph's own when it stores them under today's costing (COSTING_FINGERPRINT), else computed
   * on first use (`prepareCostTables` computes them when the router loads such a graph, so no
   * query does). Null for a metric that stores none (walking): the search then asks
   * `leastEdgeCost` and `turnCost`.
   */
  tables(): MetricTables | null {
    return perGraphAndMetric(metricTables, this.network, this.tableKey, () => {
      if (!this.storesTables) return null;
      const stored = this.bicycleType === DEFAULT_BICYCLE_TYPE ? storedMetricTables(this.network.graph, this.metric, COSTING_FINGERPRINT) : null;
      return stored ?? this.computeTables();
    });
  }

  /**
   * `leastEdgeCost` of every edge (`tables()`, or with the hill preference a table of its own per
   * graph and metric); where `mayCostMoreThanLeast` is false, an edge's `edgeCost` is its entry.
   */
  leastCostTable(): Float32Array | null {
    const flat = this.tables()?.leastCost ?? null;
    if (!this.avoidsHills || flat === null) return flat;
    return perGraphAndMetric(hillyLeastCosts, this.network, this.tableKey, () => {
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
    return every || (closures !== null && hasBit(closures, edge)) || (reports !== null && hasBit(reports, edge));
  }

  /** Seconds of cost to travel the whole edge, or Infinity where it may not be used now. */
  abstract edgeCost(edge: number): number;

  /** `leastEdgeCost`, read from `leastCostTable()` where the metric has one (fetched on the first call). */
  protected tabledLeastEdgeCost(edge: number): number {
    if (this.leastCosts === undefined) this.leastCosts = this.leastCostTable();
    return this.leastCosts ? this.leastCosts[edge]! : this.leastEdgeCost(edge);
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
  protected flatEdgeCost(edge: number): number {
    const graph = this.network.graph;
    const flags = graph.edgeFlags[edge]!;
    if (!(flags & this.usableFlag)) return Infinity;
    return this.travelSeconds(edge, flags, graph.edgeLength[edge]!);
  }

  /**
   * The mode's cost of `length` metres of usable `edge` (its edge flags `flags`), by day and with
   * every closure open (Infinity where the bicycle type never goes).
   */
  protected abstract travelSeconds(edge: number, flags: number, length: number): number;

  /** `climbSeconds` of the edge: its segment's climb in the edge's direction (the descent for a reversed edge). */
  private climbPenalty(edge: number): number {
    const graph = this.network.graph;
    const segment = graph.edgeSegment[edge]!;
    const ascent = (graph.edgeFlags[edge]! & EDGE_REVERSED ? graph.segmentDescent[segment]! : graph.segmentAscent[segment]!) / 10;
    return climbSeconds(ascent, graph.edgeLength[edge]!) * this.climbWeight;
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
   * Whether an accepted report removes the turn from `from` onto `to` (never a U-turn; walking
   * has no overlay). Only an edge the overlay marks (`RouteOverlay.marks`) can have its entry removed.
   */
  overlayForbidsTurn(from: number, to: number): boolean {
    if (this.overlay === null || !this.overlay.marks(to) || this.network.reverseOf(from) === to) return false;
    return this.overlay.forbidsEntry(to, this.network.graph.edgeHead[from]!, this.options.departureMinute);
  }

  /** Whether turn restrictions can begin at `edge`: cycling obeys them, walking does not (spec 1.2.10). */
  restrictsTurnsFrom(edge: number): boolean {
    return this.obeysRestrictions && hasBit(this.network.restrictionEdges(), edge);
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
    const stored = storedMetricTables(graph, this.metric, COSTING_FINGERPRINT)?.turnCost;
    const turnCost = (stored && this.turnTableFromHybrid(stored)) ?? this.computeTurnTable();
    return turnCost ? { leastCost, turnCost } : null;
  }

  /**
   * For a bicycle type other than `hybrid`, its turn table made from `hybrid`'s, which the graph
   * stores for the metric; null where the costing cannot, and every turn is costed afresh.
   */
  protected turnTableFromHybrid(_hybrid: Uint8Array): Uint8Array | null {
    return null;
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
    if (this.turnCosts === undefined) this.turnCosts = this.turnTable();
    const table = this.turnCosts;
    if (table !== null && this.usable(from)) {
      const entry = table[this.network.turnBase(from) + to]!;
      return entry === TURN_FORBIDDEN ? Infinity : entry * 0.5;
    }
    return this.turnCostByRules(from, to);
  }

  /** The turn's cost by the costing's rules, without the tables and the overlay: what the turn table holds. */
  turnCostByRules(from: number, to: number): number {
    const network = this.network;
    if (!this.turnsReadGeometry) return this.turnSeconds(from, to, 0, 0, CROSSES_NOTHING);
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
    return this.transitionSeconds(from, to, graph.edgeHead[from]!, arriving, leaving, busiest);
  }

  /**
   * The mode's cost of passing `node` from `from` onto `to`, a U-turn aside (as Valhalla's
   * `TransitionCost`): the arguments as `turnSeconds` has them.
   */
  protected abstract transitionSeconds(from: number, to: number, node: number, arriving: number, leaving: number, busiest: number): number;
}
