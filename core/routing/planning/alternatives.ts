import type { Costing } from '../costing/costing.ts';
import { createCosting } from '../costing/create-costing.ts';
import { PenaltyOverlay } from '../costing/penalty-overlay.ts';
import type { SearchResult } from '../search/search.ts';
import type { EdgePosition, SearchWorkspace } from '../search/workspace.ts';
import type { Snap } from '../snap/snap.ts';
import { legOfResult, legPositions, searchWithin, type LegOptions, type PlannedLeg } from './leg.ts';

/**
 * Alternative routes between two snapped points (directions' `alternatives`, docs/routing.md
 * "Alternative routes"). Candidates come from the penalty method (Bader, Dees, Geisberger and
 * Sanders, "Alternative Route Graphs in Road Networks", TAPAS 2011): after each search the edges
 * of the route it found cost more (a per-request PenaltyOverlay, so every rule of the costing
 * still holds: turn restrictions, closures, reports, night), and the next search finds the best
 * route under those raised costs. A candidate is offered when it passes the admissibility tests
 * of Abraham, Delling, Goldberg and Werneck ("Alternative routes in road networks", ACM JEA 18,
 * 2013), judged at the request's own costs, without penalties:
 *
 * - limited sharing: it shares at most `maxSharedShare` of its length with every route already
 *   offered, and they share at most that of theirs with it;
 * - bounded stretch: it costs at most `maxCostRatio` times the route;
 * - local optimality, by their T-test: around the middle of each stretch where it leaves the
 *   route, the subpath reaching T = `localOptimalityShare` of the route's cost either way costs at
 *   most 1 + `localOptimalitySlack` times the best route between its ends (their "uniformly
 *   bounded stretch" in a window, so no detour is a mere zig-zag the penalties forced).
 */

export const ALTERNATIVES = {
  /** The most alternatives a request may ask for (as Mapbox, OSRM and GraphHopper answer). */
  maxCount: 3,
  /** A candidate's length shared with a route already offered, at most (and theirs with it). */
  maxSharedShare: 0.7,
  /** A candidate's cost at the request's costs over the route's, at most. */
  maxCostRatio: 1.4,
  /** α of the T-test: T is this share of the route's cost, walked either way from the detour's middle. */
  localOptimalityShare: 0.25,
  /**
   * ε of the T-test: the window may cost up to this share more than the best route between its
   * ends. Exact local optimality (ε = 0) turns down most candidates in a street grid, where many
   * ways between two corners cost within a few per cent of each other; 5 % keeps the zig-zags
   * out (measured in docs/benchmarks.md, "Alternative routes").
   */
  localOptimalitySlack: 0.05,
  /** What the penalty method multiplies an edge's cost by each time a search finds a route along it. */
  penaltyFactor: 1.5,
  /**
   * Penalized searches beyond the count asked for, for candidates that fail a test. Three found a
   * third alternative for a few more New York pairs at nearly twice the states settled.
   */
  extraSearches: 1,
} as const;


/** An alternative route: its leg, its cost over the route's and its greatest share with a route that costs less. */
export interface AlternativeLeg {
  leg: PlannedLeg;
  /** Cost at the request's costs over the route's (over 1, except where a direct route was held to supersafe's length). */
  costRatio: number;
  /** The most of its length it shares with the route or an alternative that costs less (0 to `maxSharedShare`). */
  sharedShare: number;
}

/** A route as a search result with what the tests read: its cost without penalties, edge by edge and in all, and its metres per way segment. */
interface Candidate {
  result: SearchResult;
  costs: number[];
  cost: number;
  metres: number;
  segmentMetres: Map<number, number>;
}

/** The search result a planned leg was built from: its path's edges and where it enters the first and leaves the last. */
function resultOfLeg(leg: PlannedLeg): Omit<SearchResult, 'cost'> {
  const edges = leg.path.edges;
  return { edges: edges.map((edge) => edge.edge), startFraction: edges[0]!.span[0], endFraction: edges[edges.length - 1]!.span[1] };
}

/** The part of the route's `index`th edge travelled: from where it enters to where it leaves. */
function travelledShare(result: Omit<SearchResult, 'cost'>, index: number): number {
  const last = result.edges.length - 1;
  return Math.max(0, (index === last ? result.endFraction : 1) - (index === 0 ? result.startFraction : 0));
}

/**
 * The seconds of cost of each edge of a route as the search adds them up (findRoute): the turn
 * onto it and the part of it travelled, the first edge's with the cost of joining its start and
 * the last edge's with the cost of leaving its end (`EdgePosition.cost`).
 */
function edgeCostsAlong(costing: Costing, result: Omit<SearchResult, 'cost'>, sources: readonly EdgePosition[], targets: readonly EdgePosition[]): number[] {
  const { edges } = result;
  return edges.map((edge, index) => {
    let seconds = costing.edgeCost(edge) * travelledShare(result, index);
    if (index > 0) seconds += costing.turnCost(edges[index - 1]!, edge);
    if (index === 0) seconds += sources.find((source) => source.edge === edge)?.cost ?? 0;
    if (index === edges.length - 1) seconds += targets.find((target) => target.edge === edge)?.cost ?? 0;
    return seconds;
  });
}

function candidateOf(costing: Costing, result: Omit<SearchResult, 'cost'>, sources: readonly EdgePosition[], targets: readonly EdgePosition[]): Candidate {
  const graph = costing.network.graph;
  const segmentMetres = new Map<number, number>();
  let metres = 0;
  result.edges.forEach((edge, index) => {
    const length = graph.edgeLength[edge]! * travelledShare(result, index);
    const segment = graph.edgeSegment[edge]!;
    segmentMetres.set(segment, (segmentMetres.get(segment) ?? 0) + length);
    metres += length;
  });
  const costs = edgeCostsAlong(costing, result, sources, targets);
  const cost = costs.reduce((sum, seconds) => sum + seconds, 0);
  return { result: { ...result, cost }, costs, cost, metres, segmentMetres };
}

/** Metres two routes ride along the same way segments (either direction). */
function sharedMetres(a: Candidate, b: Candidate): number {
  let shared = 0;
  for (const [segment, metres] of a.segmentMetres) shared += Math.min(metres, b.segmentMetres.get(segment) ?? 0);
  return shared;
}

/** Whether two routes each share at most `maxSharedShare` of their length with the other. */
function distinct(a: Candidate, b: Candidate): boolean {
  const shared = sharedMetres(a, b);
  return shared <= ALTERNATIVES.maxSharedShare * a.metres && shared <= ALTERNATIVES.maxSharedShare * b.metres;
}

/**
 * The subpaths the T-test checks: for each stretch of the candidate off the route's way segments,
 * the edges from T before its middle to T after (by cost, T = `localOptimalityShare` of the
 * route's cost), as [first, last] edge indices.
 */
function tTestWindows(candidate: Candidate, route: Candidate, graph: Costing['network']['graph']): [number, number][] {
  const { edges } = candidate.result;
  const { costs } = candidate;
  const reach = ALTERNATIVES.localOptimalityShare * route.cost;
  const before: number[] = [];
  let total = 0;
  for (const seconds of costs) {
    before.push(total);
    total += seconds;
  }
  const windows: [number, number][] = [];
  for (let start = 0; start < edges.length; start++) {
    if (route.segmentMetres.has(graph.edgeSegment[edges[start]!]!)) continue;
    let end = start;
    while (end + 1 < edges.length && !route.segmentMetres.has(graph.edgeSegment[edges[end + 1]!]!)) end++;
    const middle = (before[start]! + before[end]! + costs[end]!) / 2;
    let first = start;
    while (first > 0 && before[first]! > middle - reach) first--;
    let last = end;
    while (last < edges.length - 1 && before[last]! + costs[last]! < middle + reach) last++;
    windows.push([first, last]);
    start = end;
  }
  return windows;
}

/**
 * The T-test (Abraham et al.): whether each window of the candidate (`tTestWindows`) costs at
 * most 1 + `localOptimalitySlack` times the best route between its ends at the request's costs.
 * Each check is a search of its own, within the request's budget.
 */
function locallyOptimal(costing: Costing, workspace: SearchWorkspace, candidate: Candidate, route: Candidate, options: LegOptions): boolean {
  const network = costing.network;
  const { edges, startFraction, endFraction } = candidate.result;
  for (const [first, last] of tTestWindows(candidate, route, network.graph)) {
    if (first === last) continue;
    const firstEdge = edges[first]!;
    const lastEdge = edges[last]!;
    const sources = [{ edge: firstEdge, fraction: first === 0 ? startFraction : 0 }];
    const targets = [{ edge: lastEdge, fraction: last === edges.length - 1 ? endFraction : 1 }];
    // Edge costs only: where the window reaches the route's ends, joining them is not part of it.
    const along = edgeCostsAlong(costing, { edges: edges.slice(first, last + 1), startFraction: sources[0]!.fraction, endFraction: targets[0]!.fraction }, [], []);
    const subpathCost = along.reduce((sum, seconds) => sum + seconds, 0);
    // The straight-line bound measures to the last edge's tail, which every way to it passes.
    const tail = network.graph.edgeTail[lastEdge]!;
    const best = searchWithin(costing, workspace, sources, targets, [network.nodeLon(tail), network.nodeLat(tail)], undefined, options.allowance);
    if (best && subpathCost > best.cost * (1 + ALTERNATIVES.localOptimalitySlack)) return false;
  }
  return true;
}

/**
 * Up to `count` alternatives to `route` (a leg planned between `from` and `to` under `costing`),
 * cheapest first; fewer, or none, where the network offers no route that passes the tests. Every
 * search (the penalized ones and the T-tests) spends the request's allowance (`options.allowance`)
 * and throws `SearchLimitReached` when it reaches it.
 */
export function planAlternatives(costing: Costing, workspace: SearchWorkspace, from: Snap, to: Snap, route: PlannedLeg, count: number, options: LegOptions): AlternativeLeg[] {
  const { sources, targets } = legPositions(costing, from, to, options.bearing);
  const best = candidateOf(costing, resultOfLeg(route), sources, targets);
  const penalties = new PenaltyOverlay(costing.network.graph.edgeCount, costing.overlay);
  const penalized = createCosting(costing.network, costing.options, penalties, costing.noRide);
  const penalize = (result: SearchResult | Candidate['result']) => {
    for (const edge of new Set(result.edges)) penalties.penalize(edge, ALTERNATIVES.penaltyFactor);
  };
  penalize(best.result);

  const offered: Candidate[] = [best];
  const found: { candidate: Candidate; effort: number }[] = [];
  for (let search = 0; search < count + ALTERNATIVES.extraSearches && found.length < count; search++) {
    const effort = { settled: 0 };
    const result = searchWithin(penalized, workspace, sources, targets, to.location, effort, options.allowance);
    if (!result) break;
    penalize(result);
    const candidate = candidateOf(costing, result, sources, targets);
    if (candidate.cost > ALTERNATIVES.maxCostRatio * best.cost) continue;
    if (!offered.every((other) => distinct(candidate, other))) continue;
    if (!locallyOptimal(costing, workspace, candidate, best, options)) continue;
    offered.push(candidate);
    found.push({ candidate, effort: effort.settled });
  }

  found.sort((a, b) => a.candidate.cost - b.candidate.cost);
  return found.map(({ candidate, effort }, index) => {
    const better = [best, ...found.slice(0, index).map((entry) => entry.candidate)];
    const sharedShare = Math.max(...better.map((other) => sharedMetres(candidate, other) / candidate.metres));
    return { leg: legOfResult(costing, from, to, candidate.result, options, effort), costRatio: candidate.cost / best.cost, sharedShare };
  });
}
