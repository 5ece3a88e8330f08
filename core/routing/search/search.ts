import { TURN_FORBIDDEN, TURN_RESTRICTED, type Costing } from '../costing/costing.ts';
import { MinHeap } from './heap.ts';
import { CostStillToCome } from './heuristic.ts';
import type { LandmarkSet } from './landmarks.ts';
import { ViaWayStates } from './via-way-states.ts';

/**
 * Edge-based A*: a search state is a directed edge (arrived at its head), so turn costs and turn
 * restrictions, which live on pairs of edges, are exact. Via-way restrictions (a forbidden
 * sequence of three or more edges) add a few extra states that remember how much of the
 * sequence has been driven (via-way-states.ts). Every question of mode or time (may this edge be
 * used now, what does it cost, does this turn break a restriction in force) is the costing's; the
 * search only orders states. The heuristic (heuristic.ts) never overestimates, so the route is
 * optimal.
 */

/** Where a route starts or ends on an edge: the fraction of the edge's length before the point. */
export interface EdgePosition {
  edge: number;
  /** 0 at the edge's tail, 1 at its head. */
  fraction: number;
  /**
   * Seconds of cost to reach this start from the request's coordinate, or the coordinate from this
   * end (a way a few metres beyond the nearest, joined on foot); none for the nearest way.
   */
  cost?: number;
}

export interface SearchResult {
  cost: number;
  /** Edges in travel order; the first is entered at `startFraction`, the last left at `endFraction`. */
  edges: number[];
  startFraction: number;
  endFraction: number;
}

/** Search buffers sized for one graph, reused by every query on it (queries never interleave). */
export class SearchWorkspace {
  readonly cost: Float64Array;
  readonly parent: Int32Array;
  /**
   * Per state, which query last touched it: 2g when query g reached it (its cost and parent are
   * current), 2g+1 once it settled. Anything older reads as unreached, so nothing is cleared.
   */
  readonly stamp: Uint32Array;
  readonly heap = new MinHeap(4096);
  generation = 0;
  /**
   * Per node, the heuristic's bound on the cost still to come from it (before the edge's own
   * share), computed once per query: a node is reached along several edges. Valid where
   * `nodeStamp` holds the query's reached stamp; allocated on the first search.
   */
  nodeBound = new Float64Array(0);
  nodeStamp = new Uint32Array(0);
  /**
   * Per edge, its cost under the query's costing, computed once per query (an edge is relaxed
   * from every edge settled at its tail); valid where `edgeCostStamp` holds the reached stamp.
   */
  readonly edgeCost: Float64Array;
  readonly edgeCostStamp: Uint32Array;
  /** States beyond the edges: via-way restrictions being followed. */
  readonly viaWays: ViaWayStates;

  constructor(
    readonly edgeCount: number,
    /** Precomputed bounds per costing metric; a metric without them falls back to the straight line. */
    readonly landmarks: LandmarkSet = {},
  ) {
    this.cost = new Float64Array(edgeCount);
    this.parent = new Int32Array(edgeCount);
    this.stamp = new Uint32Array(edgeCount);
    this.edgeCost = new Float64Array(edgeCount);
    this.edgeCostStamp = new Uint32Array(edgeCount);
    this.viaWays = new ViaWayStates(edgeCount);
  }

  /** Starts a query on a graph of `nodeCount` nodes: returns its reached stamp (settled is one more). */
  startQuery(nodeCount: number): number {
    if (this.nodeStamp.length !== nodeCount) {
      this.nodeBound = new Float64Array(nodeCount);
      this.nodeStamp = new Uint32Array(nodeCount);
    }
    if (++this.generation === 0x7fffffff) {
      this.stamp.fill(0);
      this.nodeStamp.fill(0);
      this.edgeCostStamp.fill(0);
      this.generation = 1;
    }
    this.heap.clear();
    this.viaWays.clear();
    return 2 * this.generation;
  }
}

export interface SearchStats {
  settled: number;
}

export function findRoute(
  costing: Costing,
  workspace: SearchWorkspace,
  sources: readonly EdgePosition[],
  targets: readonly EdgePosition[],
  /** The target point, [lon, lat]: the heuristic measures to it. */
  targetPoint: readonly [number, number],
  stats?: SearchStats,
): SearchResult | null {
  const graph = costing.network.graph;
  const edgeCount = graph.edgeCount;
  const reachedStamp = workspace.startQuery(graph.nodeCount);
  const settledStamp = reachedStamp + 1;
  const { cost, parent, stamp, heap, edgeCostStamp, viaWays } = workspace;
  const edgeCostCache = workspace.edgeCost;
  const { edgeHead, firstOut } = graph;
  const stillToCome = new CostStillToCome(costing, workspace, sources, targets, targetPoint, reachedStamp);
  const ends = new RouteEnds(costing, targets);
  const direct = seedSources(costing, workspace, sources, ends, stillToCome, reachedStamp);
  let bestCost = direct.cost;
  let bestParent = -1;
  let bestEdge = direct.edge;

  // Most queries have one or two target edges: compared directly in the inner loop.
  const { first: firstTarget, second: secondTarget, more: moreTargets } = ends;
  // Turn costs from the metric's shared table; the overlay's removed turns checked apart.
  const turnTable = costing.turnTable();
  const turnFirst = costing.network.turnFirst;
  const hasOverlay = costing.overlay !== null;
  // The heuristic's per-node cache, read here on the hot path (stillToCome.afterEdge, inlined).
  const { nodeBound, nodeStamp, leaveHalfSeconds } = stillToCome;
  // Edge costs: the metric's least costs, except where the departure, night or a report can
  // raise them (computed once per query there).
  const leastCosts = costing.leastCostTable();

  let settled = 0;
  while (heap.size > 0) {
    if (heap.peekKey() >= bestCost) break;
    const state = heap.pop();
    let edge: number;
    let reached: number;
    /** The via-way state's entry, or -1 for a plain edge. */
    let via = -1;
    if (state < edgeCount) {
      if (stamp[state] === settledStamp) continue;
      stamp[state] = settledStamp;
      edge = state;
      reached = cost[state]!;
    } else {
      via = state - edgeCount;
      if (viaWays.settled[via]) continue;
      viaWays.settled[via] = true;
      edge = viaWays.edge[via]!;
      reached = viaWays.cost[via]!;
    }
    settled++;
    const node = edgeHead[edge]!;
    const restricts = costing.restrictsTurnsFrom(edge);
    const turnBase = turnFirst[edge]! - firstOut[node]!;

    for (let next = firstOut[node]!, end = firstOut[node + 1]!; next < end; next++) {
      let nextCost: number;
      if (!costing.mayCostMoreThanLeast(next)) nextCost = leastCosts[next]!;
      else if (edgeCostStamp[next] === reachedStamp) nextCost = edgeCostCache[next]!;
      else {
        nextCost = costing.edgeCost(next);
        edgeCostCache[next] = nextCost;
        edgeCostStamp[next] = reachedStamp;
      }
      if (nextCost === Infinity) continue;
      let turn: number;
      if (turnTable) {
        const halfSeconds = turnTable[turnBase + next]!;
        if (halfSeconds === TURN_FORBIDDEN) continue;
        turn = halfSeconds * 0.5;
      } else {
        turn = costing.turnCost(edge, next);
        if (turn === Infinity) continue;
      }
      if (hasOverlay && costing.overlayForbidsTurn(edge, next)) continue;

      let nextState = next;
      if (via >= 0) {
        const step = costing.viaWayStep(viaWays.restriction[via]!, viaWays.matched[via]!, next);
        if (step === TURN_RESTRICTED) continue;
        if (step > 0) nextState = viaWays.stateFor(next, viaWays.restriction[via]!, step);
      }
      if (restricts) {
        const verdict = costing.turnRestriction(edge, next);
        if (verdict === TURN_RESTRICTED) continue;
        if (verdict >= 0 && nextState === next) nextState = viaWays.stateFor(next, verdict, 2);
      }

      const arrive = reached + turn;
      if (next === firstTarget || next === secondTarget || (moreTargets && ends.edges.includes(next))) {
        const total = arrive + ends.fractionOf(next)! * nextCost + ends.costOf(next);
        if (total < bestCost) {
          bestCost = total;
          bestParent = state;
          bestEdge = next;
        }
      }
      const total = arrive + nextCost;
      if (nextState < edgeCount) {
        if (stamp[nextState]! >= reachedStamp && total >= cost[nextState]!) continue;
        stamp[nextState] = reachedStamp;
        cost[nextState] = total;
        parent[nextState] = state;
        // A key at or above the best route found is never popped (the search stops first).
        const nextHead = edgeHead[next]!;
        const bound = nodeStamp[nextHead] === reachedStamp ? nodeBound[nextHead]! : stillToCome.fromNode(nextHead);
        const key = total + (leaveHalfSeconds !== null ? leaveHalfSeconds[next]! * 0.5 + bound : bound);
        if (key < bestCost) heap.push(key, nextState);
      } else if (viaWays.improve(nextState, total, state)) heap.push(total + stillToCome.afterEdge(next), nextState);
    }
  }
  if (stats) stats.settled = settled;
  return bestEdge < 0 ? null : traceRoute(workspace, sources, ends, { cost: bestCost, edge: bestEdge, parent: bestParent, startFraction: direct.startFraction });
}

/** The target edges of a query and where on them the route ends (a handful: scanned, not hashed). */
class RouteEnds {
  readonly edges: number[] = [];
  private readonly fractions: number[] = [];
  private readonly costs: number[] = [];
  readonly first: number;
  readonly second: number;
  readonly more: boolean;

  constructor(costing: Costing, targets: readonly EdgePosition[]) {
    for (const target of targets) {
      if (!costing.usable(target.edge)) continue;
      const known = this.edges.indexOf(target.edge);
      if (known >= 0) {
        this.fractions[known] = target.fraction;
        this.costs[known] = target.cost ?? 0;
      } else {
        this.edges.push(target.edge);
        this.fractions.push(target.fraction);
        this.costs.push(target.cost ?? 0);
      }
    }
    this.first = this.edges.length > 0 ? this.edges[0]! : -1;
    this.second = this.edges.length > 1 ? this.edges[1]! : -1;
    this.more = this.edges.length > 2;
  }

  fractionOf(edge: number): number | undefined {
    for (let i = 0; i < this.edges.length; i++) if (this.edges[i] === edge) return this.fractions[i];
    return undefined;
  }

  /** Seconds from where the route leaves a target edge to the coordinate (0 for the nearest way). */
  costOf(edge: number): number {
    for (let i = 0; i < this.edges.length; i++) if (this.edges[i] === edge) return this.costs[i]!;
    return 0;
  }
}

/** The best route found: its last edge, the state it was reached from (-1 for none), and where it starts when it lies on one edge. */
interface BestRoute {
  cost: number;
  edge: number;
  parent: number;
  startFraction: number;
}

/**
 * Puts each usable source edge, from the start point on, on the heap; answers the best route that
 * starts and ends on one edge ahead of the start, which needs no search (cost Infinity for none).
 */
function seedSources(costing: Costing, workspace: SearchWorkspace, sources: readonly EdgePosition[], ends: RouteEnds, stillToCome: CostStillToCome, reachedStamp: number): Omit<BestRoute, 'parent'> {
  const { cost, parent, stamp, heap } = workspace;
  const best = { cost: Infinity, edge: -1, startFraction: 0 };
  for (const source of sources) {
    const edgeCost = costing.edgeCost(source.edge);
    if (!Number.isFinite(edgeCost)) continue;
    const joining = source.cost ?? 0;
    const sameEdgeFraction = ends.fractionOf(source.edge);
    if (sameEdgeFraction !== undefined && sameEdgeFraction >= source.fraction) {
      const direct = joining + (sameEdgeFraction - source.fraction) * edgeCost + ends.costOf(source.edge);
      if (direct < best.cost) Object.assign(best, { cost: direct, edge: source.edge, startFraction: source.fraction });
    }
    const initial = joining + (1 - source.fraction) * edgeCost;
    if (stamp[source.edge]! < reachedStamp || initial < cost[source.edge]!) {
      stamp[source.edge] = reachedStamp;
      cost[source.edge] = initial;
      parent[source.edge] = -1;
      heap.push(initial + stillToCome.afterEdge(source.edge), source.edge);
    }
  }
  return best;
}

/** The route's edges in travel order, from the best route's last edge back along the parents. */
function traceRoute(workspace: SearchWorkspace, sources: readonly EdgePosition[], ends: RouteEnds, best: BestRoute): SearchResult {
  const { parent, viaWays, edgeCount } = workspace;
  const edgeOf = (state: number) => (state < edgeCount ? state : viaWays.edge[state - edgeCount]!);
  const parentOf = (state: number) => (state < edgeCount ? parent[state]! : viaWays.parent[state - edgeCount]!);
  const edges = [best.edge];
  let startFraction = best.startFraction;
  for (let state = best.parent; state >= 0; state = parentOf(state)) {
    edges.push(edgeOf(state));
    if (parentOf(state) < 0) {
      // A source edge listed twice starts where its last listing says.
      startFraction = 0;
      for (const source of sources) if (source.edge === edgeOf(state)) startFraction = source.fraction;
    }
  }
  edges.reverse();
  return { cost: best.cost, edges, startFraction, endFraction: ends.fractionOf(best.edge)! };
}
