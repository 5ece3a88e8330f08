import type { Graph } from '../../graph/layout.ts';
import { TURN_FORBIDDEN, TURN_RESTRICTED, type Costing } from '../costing/costing.ts';
import { hasBit } from '../network/bits.ts';
import { CostStillToCome } from './heuristic.ts';
import { PARENT_NONE, PARENT_VIA, type EdgePosition, type SearchWorkspace } from './workspace.ts';

/**
 * Edge-based A*: a search state is a directed edge (arrived at its head), so turn costs and turn
 * restrictions, which live on pairs of edges, are exact. Via-way restrictions (a forbidden
 * sequence of three or more edges) add a few extra states that remember how much of the
 * sequence has been driven (via-way-states.ts). Every question of mode or time (may this edge be
 * used now, what does it cost, does this turn break a restriction in force) is the costing's; the
 * search only orders states. The heuristic (heuristic.ts) never overestimates, so the route is
 * optimal.
 */

export interface SearchResult {
  cost: number;
  /** Edges in travel order; the first is entered at `startFraction`, the last left at `endFraction`. */
  edges: number[];
  startFraction: number;
  endFraction: number;
}

export interface SearchStats {
  settled: number;
  /** The most states the search may settle: one more and it stops and throws `SearchLimitReached`. Unlimited when absent. */
  limit?: number;
}

/** A search stopped at its `SearchStats.limit` (a request's compute budget, planning/budget.ts) before finding its best route. */
export class SearchLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`The search reached its limit of ${limit} settled states`);
    this.name = 'SearchLimitReached';
  }
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
  workspace.startQuery(graph.nodeCount);
  if (stats) stats.settled = 0;
  const { cost, parent, heap, viaWays } = workspace;
  const { edgeHead, firstOut } = graph;
  const stillToCome = new CostStillToCome(costing, workspace, sources, targets, targetPoint);
  // Ends in two separate networks (regions of the landmark tables): no route, and nothing to search.
  if (stillToCome.separated) return null;
  const ends = new RouteEnds(costing, targets);
  const direct = seedSources(costing, workspace, sources, ends, stillToCome);
  let bestCost = direct.cost;
  let bestParent = -1;
  let bestEdge = direct.edge;

  // Most queries have one or two target edges: compared directly in the inner loop.
  const { first: firstTarget, second: secondTarget, more: moreTargets } = ends;
  // Turn costs from the metric's stored table (each node's turns a matrix, RoutingNetwork.turnBase,
  // inlined below); the overlay's removed turns checked apart.
  const turnTable = costing.turnTable();
  const { turnRowFirst } = graph;
  const arrivals = costing.network.arrivals();
  // The heuristic's per-node cache, read here on the hot path (stillToCome.afterEdge, inlined).
  const { nodeBound } = workspace;
  const { leaveHalfSeconds, leaveScale } = stillToCome;
  // Edge costs: the metric's least costs, except where the departure, night or a report can
  // raise them (costing.mayCostMoreThanLeast, inlined).
  const leastCosts = costing.leastCostTable();
  const { every: everyCostlier, closures, reports } = costing.costlier;
  // The edges turn restrictions begin at (costing.restrictsTurnsFrom, inlined).
  const restrictionEdges = costing.obeysRestrictions ? costing.network.restrictionEdges() : null;
  let { touched, touchedCount } = workspace;

  let settled = 0;
  const limit = stats?.limit ?? Infinity;
  let limitReached = false;
  while (heap.size > 0) {
    const key = heap.peekKey();
    if (key >= bestCost) break;
    const state = heap.pop();
    let edge: number;
    let reached: number;
    /** The via-way state's entry, or -1 for a plain edge. */
    let via = -1;
    if (state < edgeCount) {
      reached = cost[state]!;
      // An entry pushed before the state's cost last fell is stale: its key is not the state's
      // key now. (A state that settled is searched again if it is reached cheaper after all: the
      // landmark bound, quantized, is consistent only to within a unit.)
      const head = edgeHead[state]!;
      if (key !== reached + (leaveHalfSeconds !== null ? leaveHalfSeconds[state]! * leaveScale + nodeBound[head]! : nodeBound[head]!)) continue;
      edge = state;
    } else {
      via = state - edgeCount;
      if (viaWays.settled[via]) continue;
      viaWays.settled[via] = true;
      edge = viaWays.edge[via]!;
      reached = viaWays.cost[via]!;
    }
    if (settled === limit) {
      limitReached = true;
      break;
    }
    settled++;
    const node = edgeHead[edge]!;
    const restricts = restrictionEdges !== null && hasBit(restrictionEdges, edge);
    const firstNext = firstOut[node]!;
    const endNext = firstOut[node + 1]!;
    // The edge's place among the edges arriving at the node (the parent it gives the states it
    // reaches), and its row in the node's turn matrix: the arriving edges with a row before it.
    const place = arrivals[edge]!;
    const reachedFrom = via >= 0 ? PARENT_VIA : place & 0xff;
    const turnBase = turnTable !== null ? turnRowFirst[node]! + (place >> 8) * (endNext - firstNext) - firstNext : 0;

    for (let next = firstNext; next < endNext; next++) {
      const reported = reports !== null && hasBit(reports, next);
      const costlier = everyCostlier || reported || (closures !== null && hasBit(closures, next));
      const nextCost = costlier ? costing.edgeCost(next) : leastCosts !== null ? leastCosts[next]! : costing.leastEdgeCost(next);
      if (nextCost === Infinity) continue;
      let turn: number;
      if (turnTable !== null) {
        const halfSeconds = turnTable[turnBase + next]!;
        if (halfSeconds === TURN_FORBIDDEN) continue;
        turn = halfSeconds * 0.5;
      } else {
        turn = costing.turnCost(edge, next);
        if (turn === Infinity) continue;
      }
      // Only an edge a report marks can have its entry removed.
      if (reported && costing.overlayForbidsTurn(edge, next)) continue;

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
        const known = cost[nextState]!;
        if (total >= known) continue;
        if (known === Infinity) {
          if (touchedCount === touched.length) touched = workspace.growTouched();
          touched[touchedCount++] = nextState;
        }
        cost[nextState] = total;
        parent[nextState] = reachedFrom;
        if (reachedFrom === PARENT_VIA) workspace.viaParent.set(nextState, state);
        // A key at or above the best route found is never popped (the search stops first); bounds
        // are never negative, so a cost already there needs no bound (computing one is a climb of the hierarchy).
        if (total >= bestCost) continue;
        const nextHead = edgeHead[next]!;
        let bound = nodeBound[nextHead]!;
        if (bound < 0) bound = stillToCome.fromNode(nextHead);
        const nextKey = total + (leaveHalfSeconds !== null ? leaveHalfSeconds[next]! * leaveScale + bound : bound);
        if (nextKey < bestCost) heap.push(nextKey, nextState);
      } else if (viaWays.improve(nextState, total, state)) heap.push(total + stillToCome.afterEdge(next), nextState);
    }
  }
  // Kept before any throw: the next query's start resets the states this one touched.
  workspace.touchedCount = touchedCount;
  if (stats) stats.settled = settled;
  if (limitReached) throw new SearchLimitReached(limit);
  return bestEdge < 0 ? null : traceRoute(graph, workspace, sources, ends, { cost: bestCost, edge: bestEdge, parent: bestParent, startFraction: direct.startFraction });
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
function seedSources(costing: Costing, workspace: SearchWorkspace, sources: readonly EdgePosition[], ends: RouteEnds, stillToCome: CostStillToCome): Omit<BestRoute, 'parent'> {
  const { cost, parent, heap } = workspace;
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
    if (initial < cost[source.edge]!) {
      if (cost[source.edge] === Infinity) {
        if (workspace.touchedCount === workspace.touched.length) workspace.growTouched();
        workspace.touched[workspace.touchedCount++] = source.edge;
      }
      cost[source.edge] = initial;
      parent[source.edge] = PARENT_NONE;
      heap.push(initial + stillToCome.afterEdge(source.edge), source.edge);
    }
  }
  return best;
}

/** The route's edges in travel order, from the best route's last edge back along the parents. */
function traceRoute(graph: Graph, workspace: SearchWorkspace, sources: readonly EdgePosition[], ends: RouteEnds, best: BestRoute): SearchResult {
  const { parent, viaWays, viaParent, edgeCount } = workspace;
  const { firstIn, inEdges, edgeTail } = graph;
  const edgeOf = (state: number) => (state < edgeCount ? state : viaWays.edge[state - edgeCount]!);
  const parentOf = (state: number): number => {
    if (state >= edgeCount) return viaWays.parent[state - edgeCount]!;
    const from = parent[state]!;
    return from === PARENT_NONE ? -1 : from === PARENT_VIA ? viaParent.get(state)! : inEdges[firstIn[edgeTail[state]!]! + from]!;
  };
  const edges = [best.edge];
  let startFraction = best.startFraction;
  // Each state's parent read once: at metro scale a route is thousands of edges, each parent three reads apart in memory.
  for (let state = best.parent, before = -1; state >= 0; state = before) {
    edges.push(edgeOf(state));
    before = parentOf(state);
    if (before < 0) {
      // A source edge listed twice starts where its last listing says.
      startFraction = 0;
      for (const source of sources) if (source.edge === edgeOf(state)) startFraction = source.fraction;
    }
  }
  edges.reverse();
  return { cost: best.cost, edges, startFraction, endFraction: ends.fractionOf(best.edge)! };
}
