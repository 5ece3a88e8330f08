import { cities, type CityId } from '../../core/cities/index.ts';
import { SAFETY_BUSY, SAFETY_SHARED, safetyClassOf, trafficStressOf } from '../../core/graph/flags.ts';
import type { Costing } from '../../core/routing/costing/costing.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';
import { costingFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { legPositions, planWaypoints } from '../../core/routing/planning/leg.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { boundToTargets, constrainedBest, shortestMetres, type EdgeWeight } from './frontier.ts';
import { cyclingNodes, cyclingRegions, percentile, randomPairs } from './measure.ts';

/**
 * Route quality on seeded real pairs, as an outside checker judges it: how long each mode's route
 * is, how much of it is busy or shared (spec 1.1) and of Level of Traffic Stress 3 or 4, how much
 * pushes the bike, and how far the supersafe route is from what the map allows: the fewest busy
 * and shared metres (and the fewest LTS 3-4 metres) of any route within 1.05 and 1.3 times the
 * shortest (frontier.ts, an exact search on the router's own graph). `npm run bench` reports it
 * per city (docs/benchmarks.md); test/routing/route-quality.test.ts holds the acceptance figures on
 * other seeds.
 */

/** A weekday evening: Wednesday 17 June 2026, 18:00 in each city (daylight everywhere). */
export const EVENING_DEPARTURE = '2026-06-17T18:00';
/** The detour budgets the frontier is measured at: 1.3 is the Bicycle Network Analysis' "low-stress connected". */
export const FRONTIER_BUDGETS = [1.05, 1.3] as const;

/** Metres of one route. Busy and shared count pushed metres by the class of the way pushed along (footways are shared). */
export interface RouteMetres {
  metres: number;
  busyShared: number;
  /** Busy and shared metres ridden (pushed ones left out). */
  busySharedRidden: number;
  stress34: number;
  pushed: number;
}

export interface FrontierPoint {
  stressful: number;
  metres: number;
}

export interface PairQuality {
  from: [number, number];
  to: [number, number];
  supersafe: RouteMetres;
  direct: RouteMetres;
  /**
   * The shortest route's metres and, per budget, the route with the fewest busy + shared (and LTS
   * 3-4) metres within it: those metres and its length (null: not measured; Infinity: none fits).
   */
  frontier: { shortest: number; busyShared: FrontierPoint[]; stress34: FrontierPoint[] } | null;
}

const isBusyShared = (flags: number) => safetyClassOf(flags) === SAFETY_BUSY || safetyClassOf(flags) === SAFETY_SHARED;
const isStress34 = (flags: number) => trafficStressOf(flags) >= 3;

export function routeMetres(path: RoutedPath): RouteMetres {
  const metres = { metres: path.distance, busyShared: 0, busySharedRidden: 0, stress34: 0, pushed: 0 };
  for (const edge of path.edges) {
    if (isBusyShared(edge.flags)) {
      metres.busyShared += edge.length;
      if (!edge.pushed) metres.busySharedRidden += edge.length;
    }
    if (isStress34(edge.flags)) metres.stress34 += edge.length;
    if (edge.pushed) metres.pushed += edge.length;
  }
  return metres;
}

/** A routing context for a benchmark: the graph, a departure in the city's zone, no reports. */
export function benchContext(city: CityId, loaded: LoadedGraph, departureTime = EVENING_DEPARTURE): RoutingContext {
  const where = cities[city];
  return { city: where, loaded, departure: departureIn(where.timeZone, departureTime, new Date(0)), reports: null };
}

/** Both modes' routes between two points as the directions endpoint plans them; null when either is missing. */
export function planBoth(context: RoutingContext, from: [number, number], to: [number, number]): { supersafe: RoutedPath; direct: RoutedPath } | null {
  const plan = (supersafe: boolean) => planWaypoints(costingFor(context, { profile: 'cycling', supersafe, night: false }), context, [from, to], { language: 'en' });
  const supersafe = plan(true).legs?.[0]?.path;
  const direct = plan(false).legs?.[0]?.path;
  return supersafe && direct ? { supersafe, direct } : null;
}

/** The frontier of one pair at the positions the planner snapped them to. */
export function pairFrontier(costing: Costing, context: RoutingContext, from: [number, number], to: [number, number]): PairQuality['frontier'] {
  const snaps = planWaypoints(costing, context, [from, to], { language: 'en' }).snaps;
  if (!snaps[0] || !snaps[1]) return null;
  const { sources, targets } = legPositions(costing, snaps[0], snaps[1]);
  const shortest = shortestMetres(costing, sources, targets);
  if (shortest === null) return null;
  const graph = costing.network.graph;
  const length: EdgeWeight = (edge) => graph.edgeLength[edge]!;
  const lengthBound = boundToTargets(costing, targets, length);
  const fewest = (stressful: (flags: number) => boolean) => {
    const weight: EdgeWeight = (edge) => (stressful(graph.edgeFlags[edge]!) ? graph.edgeLength[edge]! : 0);
    const bound = boundToTargets(costing, targets, weight);
    // A hair over the budget absorbs the float sums of the shortest route itself.
    return FRONTIER_BUDGETS.map((budget): FrontierPoint => {
      const best = constrainedBest(costing, sources, targets, weight, length, bound, lengthBound, budget * shortest + 1e-6);
      return best ? { stressful: best.primary, metres: best.secondary } : { stressful: Infinity, metres: Infinity };
    });
  };
  return { shortest, busyShared: fewest(isBusyShared), stress34: fewest(isStress34) };
}

/** Seeded pairs of cycling-network nodes `minMetres` to `maxMetres` apart, measured; with `frontier`, against what the map allows. */
export function measurePairs(city: CityId, loaded: LoadedGraph, options: { count: number; seed: number; minMetres?: number; maxMetres?: number; frontier?: boolean; departureTime?: string }): PairQuality[] {
  const context = benchContext(city, loaded, options.departureTime);
  const network = loaded.network;
  const direct = costingFor(context, { profile: 'cycling', supersafe: false, night: false });
  const pairs: PairQuality[] = [];
  for (const [a, b] of randomPairs(network, options.count, options.minMetres ?? 1000, options.maxMetres ?? 4000, options.seed, cyclingNodes(network), cyclingRegions(network))) {
    const from: [number, number] = [network.nodeLon(a), network.nodeLat(a)];
    const to: [number, number] = [network.nodeLon(b), network.nodeLat(b)];
    const routes = planBoth(context, from, to);
    if (!routes) continue;
    pairs.push({
      from,
      to,
      supersafe: routeMetres(routes.supersafe),
      direct: routeMetres(routes.direct),
      frontier: options.frontier ? pairFrontier(direct, context, from, to) : null,
    });
  }
  return pairs;
}

export interface QualitySummary {
  pairs: number;
  /** Pairs where the direct route is longer than the supersafe one (by more than a centimetre). */
  directLonger: number;
  /** Supersafe length over direct, per pair: median and 90th percentile. */
  lengthRatioMedian: number;
  lengthRatioP90: number;
  /** Shares of all route metres (summed over the pairs). */
  busySharedShare: { supersafe: number; direct: number };
  stress34Share: { supersafe: number; direct: number };
  pushedShare: { supersafe: number; direct: number };
  /** Supersafe busy + shared metres over direct's, summed over the pairs (ridden only, and with pushed metres). */
  busySharedKept: number;
  busySharedKeptWithPushed: number;
  /** Per budget: the frontier routes' busy + shared and LTS 3-4 shares of their metres, summed over the pairs, and the mean of each pair's share. */
  frontier: { budget: number; pairs: number; busyShared: number; busySharedMean: number; stress34: number; stress34Mean: number }[];
  /** Supersafe length over the shortest route's, median. */
  supersafeOverShortestMedian: number;
  directOverShortestMedian: number;
}

export function summarise(pairs: readonly PairQuality[]): QualitySummary {
  const sum = (pick: (pair: PairQuality) => number) => pairs.reduce((total, pair) => total + pick(pair), 0);
  const share = (part: (metres: RouteMetres) => number, mode: 'supersafe' | 'direct') => sum((pair) => part(pair[mode])) / Math.max(1, sum((pair) => pair[mode].metres));
  const ratios = pairs.map((pair) => pair.supersafe.metres / Math.max(1e-9, pair.direct.metres));
  const measured = pairs.filter((pair) => pair.frontier !== null);
  const frontier = FRONTIER_BUDGETS.map((budget, index) => {
    const points = (pick: (pair: PairQuality) => FrontierPoint[]) => measured.map((pair) => pick(pair)[index]!).filter((point) => Number.isFinite(point.metres));
    const aggregate = (list: FrontierPoint[]) => list.reduce((total, point) => total + point.stressful, 0) / Math.max(1, list.reduce((total, point) => total + point.metres, 0));
    const mean = (list: FrontierPoint[]) => list.reduce((total, point) => total + point.stressful / Math.max(1e-9, point.metres), 0) / Math.max(1, list.length);
    const busyShared = points((pair) => pair.frontier!.busyShared);
    const stress34 = points((pair) => pair.frontier!.stress34);
    return { budget, pairs: busyShared.length, busyShared: aggregate(busyShared), busySharedMean: mean(busyShared), stress34: aggregate(stress34), stress34Mean: mean(stress34) };
  });
  return {
    pairs: pairs.length,
    directLonger: pairs.filter((pair) => pair.direct.metres > pair.supersafe.metres + 0.01).length,
    lengthRatioMedian: ratios.length ? percentile(ratios, 50) : 1,
    lengthRatioP90: ratios.length ? percentile(ratios, 90) : 1,
    busySharedShare: { supersafe: share((m) => m.busyShared, 'supersafe'), direct: share((m) => m.busyShared, 'direct') },
    stress34Share: { supersafe: share((m) => m.stress34, 'supersafe'), direct: share((m) => m.stress34, 'direct') },
    pushedShare: { supersafe: share((m) => m.pushed, 'supersafe'), direct: share((m) => m.pushed, 'direct') },
    busySharedKept: sum((pair) => pair.supersafe.busySharedRidden) / Math.max(1e-9, sum((pair) => pair.direct.busySharedRidden)),
    busySharedKeptWithPushed: sum((pair) => pair.supersafe.busyShared) / Math.max(1e-9, sum((pair) => pair.direct.busyShared)),
    frontier,
    supersafeOverShortestMedian: measured.length ? percentile(measured.map((pair) => pair.supersafe.metres / pair.frontier!.shortest), 50) : 1,
    directOverShortestMedian: measured.length ? percentile(measured.map((pair) => pair.direct.metres / pair.frontier!.shortest), 50) : 1,
  };
}
