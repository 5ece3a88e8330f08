import { beforeAll, describe, expect, it } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import type { LonLat, Position } from '../../core/geo.ts';
import type { Costing } from '../../core/routing/costing/costing.ts';
import { PenaltyOverlay } from '../../core/routing/costing/penalty-overlay.ts';
import { RouteBudgetExceededError } from '../../core/routing/errors.ts';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { ALTERNATIVES, type AlternativeLeg } from '../../core/routing/planning/alternatives.ts';
import { RouteBudget } from '../../core/routing/planning/budget.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import type { PlannedLeg } from '../../core/routing/planning/leg.ts';
import { RoutePlanner } from '../../core/routing/planning/planner.ts';
import { routeBody } from '../../core/routing/planning/route-body.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { alternativesContext, plannerFor, seededPairs } from '../support/alternative-routes.ts';
import { sharedLengthFraction } from '../support/shared-length.ts';
import { referenceCost } from './reference-search.ts';

/**
 * Alternative routes (core/routing/planning/alternatives.ts) on the real graphs, judged by this
 * file's own measures: sharing from the answers' geometry, costs summed edge by edge from the
 * costing, and the T-test's windows searched again by the independent Dijkstra
 * (reference-search.ts). Every alternative is distinct from each route that costs less, bounded
 * in cost, locally optimal and routed by every rule of the costing, accepted reports included;
 * penalties stay in their request; the compute budget covers their searches.
 */

const CITIES: CityId[] = ['new-york', 'london'];
const PAIRS = 10;

interface Planned {
  pair: [LonLat, LonLat];
  costing: Costing;
  route: PlannedLeg;
  alternatives: AlternativeLeg[];
}

/** A leg's cost at the costing, edge by edge: each edge's cost for the part travelled and each turn's. */
function legCost(costing: Costing, leg: PlannedLeg): number {
  const edges = leg.path.edges;
  return edges.reduce((sum, edge, index) => sum + costing.edgeCost(edge.edge) * (edge.span[1] - edge.span[0]) + (index > 0 ? costing.turnCost(edges[index - 1]!.edge, edge.edge) : 0), 0);
}

const geometryOf = (leg: PlannedLeg): Position[] => routeBody(leg.steps, [leg.path]).geometry.coordinates;

function planAll(context: RoutingContext, supersafe: boolean): Planned[] {
  const variant = { profile: 'cycling' as const, supersafe };
  const runs: Planned[] = [];
  // London's extract has islands the seeded pairs fall on: as many pairs as route.
  for (const pair of seededPairs(context, PAIRS * 4, 35)) {
    if (runs.length === PAIRS) break;
    const planner = plannerFor(context, pair);
    const planned = planner.route(variant, pair);
    if (!planned.legs) continue;
    runs.push({ pair, costing: planned.costing, route: planned.legs[0]!, alternatives: planner.alternatives(variant, pair, planned, ALTERNATIVES.maxCount) });
  }
  return runs;
}

describe.each(CITIES)('alternative routes in %s', (city) => {
  let context: RoutingContext;
  const planned: Record<'supersafe' | 'direct', Planned[]> = { supersafe: [], direct: [] };

  beforeAll(() => {
    context = alternativesContext(city);
    planned.supersafe = planAll(context, true);
    planned.direct = planAll(context, false);
  });

  it('are found for a good share of the seeded pairs, each with its own steps ending in an arrival', () => {
    for (const runs of Object.values(planned)) {
      expect(runs.length).toBe(PAIRS);
      const withAlternatives = runs.filter((run) => run.alternatives.length > 0);
      expect(withAlternatives.length).toBeGreaterThanOrEqual(runs.length * 0.3);
      for (const { alternatives } of runs) {
        expect(alternatives.length).toBeLessThanOrEqual(ALTERNATIVES.maxCount);
        for (const { leg } of alternatives) {
          expect(leg.steps.length).toBeGreaterThan(1);
          expect(leg.steps.at(-1)!.maneuver.type).toBe('Arrive');
          expect(leg.path.distance).toBeGreaterThan(0);
        }
      }
    }
  });

  it('share at most 70 % of their length with every route that costs less, by their geometry', () => {
    for (const runs of Object.values(planned)) {
      for (const { route, alternatives } of runs) {
        alternatives.forEach(({ leg, sharedShare: reported }, index) => {
          const line = geometryOf(leg);
          const better = [route, ...alternatives.slice(0, index).map((alternative) => alternative.leg)].map(geometryOf);
          const measured = Math.max(...better.map((other) => sharedLengthFraction(line, other)));
          expect(measured).toBeLessThanOrEqual(ALTERNATIVES.maxSharedShare + 0.02);
          expect(Math.abs(measured - reported)).toBeLessThan(0.05);
        });
      }
    }
  });

  it('cost at most 1.4 times the route, cheapest first, over edges and turns every rule of the costing allows', () => {
    for (const runs of Object.values(planned)) {
      for (const { costing, route, alternatives } of runs) {
        const routeCost = legCost(costing, route);
        let previous = 0;
        for (const { leg, costRatio } of alternatives) {
          const cost = legCost(costing, leg);
          expect(Number.isFinite(cost)).toBe(true);
          expect(cost / routeCost).toBeLessThanOrEqual(ALTERNATIVES.maxCostRatio + 0.01);
          // The reported ratio also counts joining a way a few metres beyond the nearest (EdgePosition.cost).
          expect(Math.abs(cost / routeCost - costRatio)).toBeLessThan(0.03);
          expect(costRatio).toBeGreaterThanOrEqual(previous);
          previous = costRatio;
        }
      }
    }
  });

  it('are locally optimal by the T-test: around the middle of each detour, T either way is a best route within 5 %', () => {
    let windows = 0;
    for (const { costing, route, alternatives } of planned.supersafe) {
      const routeCost = legCost(costing, route);
      const onRoute = new Set(route.path.edges.map((edge) => edge.segment));
      for (const { leg } of alternatives) {
        const edges = leg.path.edges;
        const costs = edges.map((edge, index) => costing.edgeCost(edge.edge) * (edge.span[1] - edge.span[0]) + (index > 0 ? costing.turnCost(edges[index - 1]!.edge, edge.edge) : 0));
        const before = costs.map((_, index) => costs.slice(0, index).reduce((sum, seconds) => sum + seconds, 0));
        for (let start = 0; start < edges.length; start++) {
          if (onRoute.has(edges[start]!.segment)) continue;
          let end = start;
          while (end + 1 < edges.length && !onRoute.has(edges[end + 1]!.segment)) end++;
          const middle = (before[start]! + before[end]! + costs[end]!) / 2;
          const reach = ALTERNATIVES.localOptimalityShare * routeCost;
          let first = start;
          while (first > 0 && before[first]! > middle - reach) first--;
          let last = end;
          while (last < edges.length - 1 && before[last]! + costs[last]! < middle + reach) last++;
          start = end;
          if (first === last) continue;
          const windowCost = before[last]! + costs[last]! - before[first]! - costs[first]! + costing.edgeCost(edges[first]!.edge) * (edges[first]!.span[1] - edges[first]!.span[0]);
          const best = referenceCost(costing, [{ edge: edges[first]!.edge, fraction: edges[first]!.span[0] }], [{ edge: edges[last]!.edge, fraction: edges[last]!.span[1] }]);
          expect(windowCost).toBeLessThanOrEqual(best * (1 + ALTERNATIVES.localOptimalitySlack) + 1e-6);
          windows++;
        }
      }
    }
    expect(windows).toBeGreaterThan(0);
  });

  it('leave no penalty behind: the route planned again after them is the route planned before', () => {
    const [pair] = seededPairs(context, 1, 35);
    const variant = { profile: 'cycling' as const, supersafe: true };
    const before = plannerFor(context, pair!).route(variant, pair!);
    const planner = plannerFor(context, pair!);
    planner.alternatives(variant, pair!, planner.route(variant, pair!), ALTERNATIVES.maxCount);
    const after = plannerFor(context, pair!).route(variant, pair!);
    expect(after.legs![0]!.path.edges.map((edge) => edge.edge)).toEqual(before.legs![0]!.path.edges.map((edge) => edge.edge));
  });

  it("come from the search with the request's reports in force: a closure on an alternative's own street moves it off that street", () => {
    const run = planned.supersafe.find((entry) => entry.alternatives.length > 0)!;
    const graph = context.loaded.network.graph;
    const onRoute = new Set(run.route.path.edges.map((edge) => edge.segment));
    // The longest street the first alternative rides that the route does not.
    const own = run.alternatives[0]!.leg.path.edges.filter((edge) => !onRoute.has(edge.segment)).sort((a, b) => b.length - a.length)[0]!;
    const first = graph.segmentFirstPoint[own.segment]!;
    const network = context.loaded.network;
    const closure: AvoidanceItem = {
      city, report_id: 'alternatives-closure', effect: 'closed', issue_type: 'road_closed', issue_subtype: null,
      location: [(network.pointLon(first) + network.pointLon(first + 1)) / 2, (network.pointLat(first) + network.pointLat(first + 1)) / 2],
      way_id: graph.segmentWayId[own.segment]!, road_name: null, until: null, accepted_at: '2026-06-01T10:00:00Z',
    };
    const reports = buildOverlay(context.loaded, [closure]);
    const closed = new Set(reports.avoidances[0]!.edges);
    expect(closed.has(own.edge)).toBe(true);
    const withReports: RoutingContext = { ...context, reports };
    const variant = { profile: 'cycling' as const, supersafe: true };
    const planner = plannerFor(withReports, run.pair);
    const route = planner.route(variant, run.pair);
    const alternatives = planner.alternatives(variant, run.pair, route, ALTERNATIVES.maxCount);
    for (const leg of [route.legs![0]!, ...alternatives.map((alternative) => alternative.leg)]) {
      for (const edge of leg.path.edges) expect(closed.has(edge.edge)).toBe(false);
    }
    // The reports' overlay itself is left as it was: no penalty written into it.
    expect(reports.overlay.size).toBe(closed.size);
    for (const edge of run.route.path.edges) expect(reports.overlay.edgeFactor(edge.edge, context.departure.localMinute, true)).toBe(closed.has(edge.edge) ? Infinity : 1);
  });

  it("spend the request's compute budget: a request that has only the route's states left is refused", () => {
    const run = planned.supersafe.find((entry) => entry.alternatives.length > 0)!;
    const variant = { profile: 'cycling' as const, supersafe: true };
    const measuring = plannerFor(context, run.pair);
    measuring.route(variant, run.pair);
    const routeStates = measuring.budget.statesSettled - measuring.budget.allowance.states;
    const planner = new RoutePlanner(context, { language: 'en', avoidHills: false, nighttime: false }, run.pair[0], { budget: new RouteBudget(routeStates + 10) });
    const route = planner.route(variant, run.pair);
    expect(() => planner.alternatives(variant, run.pair, route, 1)).toThrow(RouteBudgetExceededError);
  });
});

describe('the penalty overlay', () => {
  it('only raises costs, on top of the reports it stands on', () => {
    const penalties = new PenaltyOverlay(10, null);
    expect(() => penalties.penalize(3, 0.9)).toThrow(RangeError);
    penalties.penalize(3, 1.5);
    penalties.penalize(3, 1.5);
    expect(penalties.edgeFactor(3, 0, true)).toBeCloseTo(2.25);
    expect(penalties.edgeFactor(4, 0, true)).toBe(1);
    expect(penalties.marks(3)).toBe(true);
    expect(penalties.marks(4)).toBe(false);
  });
});
