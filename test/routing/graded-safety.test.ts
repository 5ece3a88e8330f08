import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { GradedSafetyCosting } from '../../core/routing/costing/graded-costing.ts';
import { gradesUpTo, plannedSafety, SAFETY_TIE_METRES } from '../../core/routing/costing/safety.ts';
import { localMinutes } from '../../core/local-time.ts';
import { costingFor } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { monotonicityViolations, splitViolations, sweepPairs, SWEPT_GRADES } from '../bench/graded-safety.ts';
import { benchContext } from '../bench/route-quality.ts';
import { realGraph, seededRandom } from './real-graphs.ts';
import { expectSearchMatchesReference } from './reference-search.ts';

/**
 * The graded safety preference (core/routing/costing/safety.ts, graded-costing.ts) on the real
 * graphs: its costs are the convex combination of direct's and supersafe's, its search is exact
 * against a plain Dijkstra, its ends are the spec's two routes, and on seeded pairs (seeds other
 * than the benchmark's) every step up the grades is monotone in busy + shared metres and length.
 */

const departureMinute = localMinutes(2026, 6, 15, 8, 30);

describe('the graded costing', () => {
  it('costs every edge and turn (1 - s) x direct + s x supersafe, day and night', () => {
    const network = realGraph('london').network;
    for (const night of [false, true]) {
      const options = { profile: 'cycling' as const, night, departureMinute };
      const direct = createCosting(network, { ...options, supersafe: false });
      const supersafe = createCosting(network, { ...options, supersafe: true });
      const graded = createCosting(network, { ...options, supersafe: false, safety: 0.25 });
      expect(graded).toBeInstanceOf(GradedSafetyCosting);
      const { edgeCount, edgeHead, firstOut } = network.graph;
      let compared = 0;
      for (let edge = 0; edge < edgeCount; edge += 23) {
        const expected = 0.75 * direct.edgeCost(edge) + 0.25 * supersafe.edgeCost(edge);
        if (expected === Infinity) expect(graded.edgeCost(edge)).toBe(Infinity);
        else expect(graded.edgeCost(edge)).toBeCloseTo(expected, 9);
        const node = edgeHead[edge]!;
        for (let next = firstOut[node]!; next < firstOut[node + 1]!; next++) {
          const turn = 0.75 * direct.turnCost(edge, next) + 0.25 * supersafe.turnCost(edge, next);
          if (turn === Infinity) expect(graded.turnCost(edge, next)).toBe(Infinity);
          else expect(graded.turnCost(edge, next)).toBeCloseTo(turn, 9);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(1000);
    }
  });

  it('refuses a grade that is one of the spec\'s two costings or beyond them', () => {
    const network = realGraph('sf-bay').network;
    for (const safety of [0, 1, -0.1, 1.5, Number.NaN]) {
      expect(() => new GradedSafetyCosting(network, { profile: 'cycling', supersafe: false, night: false, departureMinute, safety })).toThrow(RangeError);
    }
  });

  for (const city of cityIds) {
    it(`finds routes of the same cost as a plain Dijkstra in ${city}`, () => {
      const loaded = realGraph(city);
      const network = loaded.network;
      const random = seededRandom(city.length * 104_729);
      let compared = 0;
      for (let attempt = 0; compared < 24 && attempt < 100; attempt++) {
        const costing = createCosting(network, { profile: 'cycling', supersafe: false, night: attempt % 2 === 1, departureMinute, safety: [0.25, 0.5, 0.75, 0.3][attempt % 4]! });
        if (expectSearchMatchesReference(costing, loaded, random, `${city} ${attempt}`)) compared++;
      }
      expect(compared).toBe(24);
    });
  }
});

describe('the grades', () => {
  it('are read to the quarter at or below', () => {
    expect([0, 0.1, 0.25, 0.3, 0.5, 0.74, 0.75, 0.99, 1].map(plannedSafety)).toEqual([0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1]);
    expect(gradesUpTo(0.6)).toEqual([0.25, 0.5]);
    expect(gradesUpTo(1)).toEqual([0.25, 0.5, 0.75]);
  });

  it('end at the spec\'s two routes: safety 1 is supersafe and 0 is direct', () => {
    const loaded = realGraph('new-york');
    const context = benchContext('new-york', loaded);
    const coordinates: [number, number][] = [[-74.006, 40.7128], [-73.9899, 40.6955]];
    const geometry = (choice: Parameters<typeof costingFor>[1]) =>
      JSON.stringify(planWaypoints(costingFor(context, choice), context, coordinates, { language: 'en' }).legs!.map((leg) => leg.path.coordinates));
    const base = { profile: 'cycling' as const, night: false };
    expect(geometry({ ...base, supersafe: false, safety: 1 })).toBe(geometry({ ...base, supersafe: true }));
    expect(geometry({ ...base, supersafe: true, safety: 0 })).toBe(geometry({ ...base, supersafe: false }));
    expect(geometry({ ...base, supersafe: true })).not.toBe(geometry({ ...base, supersafe: false }));
  });

  it.each(cityIds.map((city) => [city]))('are monotone on seeded %s pairs: busy + shared never rise, length never falls', (city) => {
    const pairs = sweepPairs(city, realGraph(city), { count: 40, seed: 25 });
    expect(pairs.length).toBeGreaterThan(30);
    const violations = monotonicityViolations(pairs);
    // Only where the spec's supersafe route itself has more busy + shared metres than direct can a
    // step (into supersafe) go back: safety 1 must answer that route.
    expect(splitViolations(pairs, violations).between, JSON.stringify(violations)).toBe(0);
    // And the grades between do differ from the ends: they are routes of their own.
    const between = pairs.filter((pair) => pair.routes.slice(1, -1).some((route) => Math.abs(route.metres - pair.routes[0]!.metres) > SAFETY_TIE_METRES && Math.abs(route.metres - pair.routes.at(-1)!.metres) > SAFETY_TIE_METRES));
    expect(between.length).toBeGreaterThan(0);
    expect(SWEPT_GRADES).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
});
