import { EDGE_RESTRICTION_FROM, RESTRICTION_SAME_CYCLEWAY } from '../../graph/flags.ts';
import { isWindowActive, restrictionsFrom } from '../../graph/rules.ts';
import { MinHeap } from './heap.ts';
import { TURN_FORBIDDEN, type Costing } from '../costing/costing.ts';
import { LandmarkBound, type LandmarkSet } from './landmarks.ts';

/**
 * Edge-based A*: a search state is a directed edge (arrived at its head), so turn costs and turn
 * restrictions, which live on pairs of edges, are exact. Via-way restrictions (a forbidden
 * sequence of three or more edges) add a few extra states that remember how much of the
 * sequence has been driven. The heuristic is the larger of two lower bounds on the cost still to
 * come: the straight-line distance to the target at the cheapest cost per metre any edge can have,
 * and, where the graph carries them for the costing's metric, landmark bounds (landmarks.ts),
 * which also count the waits at junctions. Neither overestimates, so the route is optimal.
 */

/** Where a route starts or ends on an edge: the fraction of the edge's length before the point. */
export interface EdgePosition {
  edge: number;
  /** 0 at the edge's tail, 1 at its head. */
  fraction: number;
}

export interface SearchResult {
  cost: number;
  /** Edges in travel order; the first is entered at `startFraction`, the last left at `endFraction`. */
  edges: number[];
  startFraction: number;
  endFraction: number;
}

interface TrackedRestriction {
  edge: number;
  restriction: number;
  /** Index in the restriction's edge sequence that the next edge must match to stay on it. */
  next: number;
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
  const network = costing.network;
  const graph = network.graph;
  const edgeCount = graph.edgeCount;
  if (workspace.nodeStamp.length !== graph.nodeCount) {
    workspace.nodeBound = new Float64Array(graph.nodeCount);
    workspace.nodeStamp = new Uint32Array(graph.nodeCount);
  }
  if (++workspace.generation === 0x7fffffff) {
    workspace.stamp.fill(0);
    workspace.nodeStamp.fill(0);
    workspace.edgeCostStamp.fill(0);
    workspace.generation = 1;
  }
  const reachedStamp = 2 * workspace.generation;
  const settledStamp = reachedStamp + 1;
  const { cost, parent, stamp, heap, nodeBound, nodeStamp, edgeCostStamp } = workspace;
  const edgeCostCache = workspace.edgeCost;
  const edgeHead = graph.edgeHead;
  heap.clear();

  // States beyond edgeCount track a via-way restriction in progress; they are rare, so maps do.
  const extraStates: TrackedRestriction[] = [];
  const extraIndex = new Map<string, number>();
  const extraCost: number[] = [];
  const extraParent: number[] = [];
  const extraSettled: boolean[] = [];
  const edgeOf = (state: number) => (state < edgeCount ? state : extraStates[state - edgeCount]!.edge);
  const costOf = (state: number) => (state < edgeCount ? (stamp[state]! >= reachedStamp ? cost[state]! : Infinity) : extraCost[state - edgeCount]!);
  const setCost = (state: number, value: number, from: number) => {
    if (state < edgeCount) {
      stamp[state] = reachedStamp;
      cost[state] = value;
      parent[state] = from;
    } else {
      extraCost[state - edgeCount] = value;
      extraParent[state - edgeCount] = from;
    }
  };
  const parentOf = (state: number) => (state < edgeCount ? parent[state]! : extraParent[state - edgeCount]!);
  const trackingState = (edge: number, restriction: number, next: number) => {
    const key = `${edge}:${restriction}:${next}`;
    let state = extraIndex.get(key);
    if (state === undefined) {
      state = edgeCount + extraStates.length;
      extraStates.push({ edge, restriction, next });
      extraCost.push(Infinity);
      extraParent.push(-1);
      extraSettled.push(false);
      extraIndex.set(key, state);
    }
    return state;
  };

  const [targetLon, targetLat] = targetPoint;
  const cosLat = Math.cos((targetLat * Math.PI) / 180);
  const metresPerDegree = 111_194.9;
  // 0.98 absorbs the flat-earth approximation so the bound stays below the true distance.
  const heuristicScale = costing.minSecondsPerMetre * metresPerDegree * 0.98;
  const landmarks = workspace.landmarks[costing.metric];
  const landmarkBound = landmarks
    ? new LandmarkBound(
        landmarks,
        graph.nodeCount,
        targets.map((target) => graph.edgeTail[target.edge]!),
        sources.map((source) => graph.edgeHead[source.edge]!),
      )
    : null;
  const leaveHalfSeconds = landmarkBound ? landmarks!.leaveHalfSeconds : null;
  /** The heuristic's bound from a node (before the arriving edge's leave share), cached per query. */
  const nodeBoundAt = (head: number): number => {
    if (nodeStamp[head] === reachedStamp) return nodeBound[head]!;
    const dx = (network.nodeLon(head) - targetLon) * cosLat;
    const dy = network.nodeLat(head) - targetLat;
    const straightLine = Math.sqrt(dx * dx + dy * dy) * heuristicScale;
    const bound = landmarkBound ? landmarkBound.fromNode(head, straightLine) : straightLine;
    nodeBound[head] = bound;
    nodeStamp[head] = reachedStamp;
    return bound;
  };
  const heuristic = (edge: number): number => {
    const bound = nodeBoundAt(edgeHead[edge]!);
    return leaveHalfSeconds ? leaveHalfSeconds[edge]! * 0.5 + bound : bound;
  };

  // The target edges and where on them the route ends (a handful: scanned, not hashed).
  const targetEdges: number[] = [];
  const targetFractions: number[] = [];
  for (const target of targets) {
    if (!costing.usable(target.edge)) continue;
    const known = targetEdges.indexOf(target.edge);
    if (known >= 0) targetFractions[known] = target.fraction;
    else {
      targetEdges.push(target.edge);
      targetFractions.push(target.fraction);
    }
  }
  const targetFraction = (edge: number): number | undefined => {
    for (let i = 0; i < targetEdges.length; i++) if (targetEdges[i] === edge) return targetFractions[i];
    return undefined;
  };

  let bestCost = Infinity;
  let bestParent = -1;
  let bestEdge = -1;
  let bestStartFraction = 0;

  for (const source of sources) {
    const edgeCost = costing.edgeCost(source.edge);
    if (!Number.isFinite(edgeCost)) continue;
    // Start and end on the same edge, ahead of the start: no search needed for that candidate.
    const sameEdgeFraction = targetFraction(source.edge);
    if (sameEdgeFraction !== undefined && sameEdgeFraction >= source.fraction) {
      const direct = (sameEdgeFraction - source.fraction) * edgeCost;
      if (direct < bestCost) {
        bestCost = direct;
        bestParent = -1;
        bestEdge = source.edge;
        bestStartFraction = source.fraction;
      }
    }
    const initial = (1 - source.fraction) * edgeCost;
    if (initial < costOf(source.edge)) {
      setCost(source.edge, initial, -1);
      heap.push(initial + heuristic(source.edge), source.edge);
    }
  }
  const sourceFraction = new Map(sources.map((source) => [source.edge, source.fraction]));

  // Most queries have one or two target edges: compared directly in the inner loop.
  const firstTarget = targetEdges.length > 0 ? targetEdges[0]! : -1;
  const secondTarget = targetEdges.length > 1 ? targetEdges[1]! : -1;
  const moreTargets = targetEdges.length > 2;
  const obeysRestrictions = costing.obeysRestrictions;
  const { firstOut, edgeFlags } = graph;
  // Turn costs from the metric's shared table; the overlay's removed turns checked apart, only
  // onto the few edges it marks.
  const turnTable = costing.turnTable();
  const turnFirst = network.turnFirst;
  const overlay = costing.overlay;
  // Edge costs: the metric's least costs, except where the departure, night or a report can
  // raise them (computed once per query there).
  const leastCosts = costing.leastCostTable();

  let settled = 0;
  while (heap.size > 0) {
    if (heap.peekKey() >= bestCost) break;
    const state = heap.pop();
    let edge: number;
    let reached: number;
    let tracked: TrackedRestriction | null = null;
    if (state < edgeCount) {
      if (stamp[state] === settledStamp) continue;
      stamp[state] = settledStamp;
      edge = state;
      reached = cost[state]!;
    } else {
      const extra = state - edgeCount;
      if (extraSettled[extra]) continue;
      extraSettled[extra] = true;
      tracked = extraStates[extra]!;
      edge = tracked.edge;
      reached = extraCost[extra]!;
    }
    settled++;
    const node = edgeHead[edge]!;
    const startsRestrictions = obeysRestrictions && (edgeFlags[edge]! & EDGE_RESTRICTION_FROM) !== 0;
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
      if (overlay !== null && overlay.marks(next) && costing.overlayForbidsTurn(edge, next)) continue;

      let nextState = next;
      if (obeysRestrictions) {
        if (tracked) {
          const sequenceStart = graph.restrictionFirst[tracked.restriction]!;
          const sequenceEnd = graph.restrictionFirst[tracked.restriction + 1]!;
          if (graph.restrictionEdges[sequenceStart + tracked.next] === next) {
            if (sequenceStart + tracked.next === sequenceEnd - 1) continue;
            nextState = trackingState(next, tracked.restriction, tracked.next + 1);
          }
        }
        if (startsRestrictions) {
          const verdict = restrictionVerdict(costing, edge, next);
          if (verdict === FORBIDDEN) continue;
          if (verdict >= 0 && nextState === next) nextState = trackingState(next, verdict, 2);
        }
      }

      const arrive = reached + turn;
      if (next === firstTarget || next === secondTarget || (moreTargets && targetEdges.includes(next))) {
        const total = arrive + targetFraction(next)! * nextCost;
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
        const bound = nodeStamp[nextHead] === reachedStamp ? nodeBound[nextHead]! : nodeBoundAt(nextHead);
        const key = total + (leaveHalfSeconds ? leaveHalfSeconds[next]! * 0.5 + bound : bound);
        if (key < bestCost) heap.push(key, nextState);
      } else if (total < extraCost[nextState - edgeCount]!) {
        setCost(nextState, total, state);
        heap.push(total + heuristic(next), nextState);
      }
    }
  }
  if (stats) stats.settled = settled;
  if (bestEdge < 0) return null;

  const edges = [bestEdge];
  let startFraction = bestStartFraction;
  for (let state = bestParent; state >= 0; state = parentOf(state)) {
    edges.push(edgeOf(state));
    if (parentOf(state) < 0) startFraction = sourceFraction.get(edgeOf(state)) ?? 0;
  }
  edges.reverse();
  return { cost: bestCost, edges, startFraction, endFraction: targetFraction(bestEdge)! };
}

const FORBIDDEN = -2;
const ALLOWED = -1;

/**
 * Whether turning from `from` onto `to` breaks a turn restriction in force at departure: FORBIDDEN,
 * ALLOWED, or the index of a via-way restriction whose sequence this turn begins.
 */
function restrictionVerdict(costing: Costing, from: number, to: number): number {
  const graph = costing.network.graph;
  const [first, last] = restrictionsFrom(graph, from);
  let verdict = ALLOWED;
  for (let restriction = first; restriction < last; restriction++) {
    const start = graph.restrictionFirst[restriction]!;
    if (graph.restrictionEdges[start + 1] !== to) continue;
    if (graph.restrictionFlags[restriction]! & RESTRICTION_SAME_CYCLEWAY) continue;
    const window = graph.restrictionWindow[restriction]!;
    if (window !== 0 && !isWindowActive(graph, window - 1, costing.options.departureMinute)) continue;
    if (graph.restrictionFirst[restriction + 1]! - start === 2) return FORBIDDEN;
    verdict = restriction;
  }
  return verdict;
}
