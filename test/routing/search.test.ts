import { describe, expect, it, vi } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { TURN_FORBIDDEN, type CostOptions } from '../../core/routing/costing/costing.ts';
import { DEAD_END_U_TURN_SECONDS } from '../../core/routing/costing/weights.ts';
import { NODE_BARRIER_NO_WALKING } from '../../core/graph/flags.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { localMinutes } from '../../core/local-time.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { randomNodeLocation, realGraph, seededRandom } from './real-graphs.ts';
import { referenceCost } from './reference-search.ts';

const departureMinute = localMinutes(2026, 6, 15, 8, 30);

describe('edge-based A* against a plain Dijkstra on the real graphs', () => {
  for (const city of cityIds) {
    it(`finds routes of equal cost in ${city}`, () => {
      const loaded = realGraph(city);
      const network = loaded.network;
      const random = seededRandom(city.length * 7919);
      const variants: Omit<CostOptions, 'departureMinute'>[] = [
        { profile: 'cycling', supersafe: true, night: false },
        { profile: 'cycling', supersafe: false, night: true },
        { profile: 'walking', supersafe: false, night: false },
      ];
      let compared = 0;
      for (let attempt = 0; compared < 60 && attempt < 200; attempt++) {
        const costing = createCosting(network, { ...variants[attempt % variants.length]!, departureMinute });
        const usable = (edge: number) => costing.usable(edge);
        // A random node, nudged off it by up to about 20 m.
        const point = () => {
          const [lon, lat] = randomNodeLocation(network, random);
          return [lon + (random() - 0.5) * 4e-4, lat + (random() - 0.5) * 4e-4] as const;
        };
        const from = snap(network, usable, point());
        const to = snap(network, usable, point());
        if (!from || !to) continue;
        const sources = positionsAt(network, usable, from);
        const targets = positionsAt(network, usable, to);
        const found = findRoute(costing, loaded.workspace, sources, targets, to.location);
        const expected = referenceCost(costing, sources, targets);
        if (expected === Infinity) {
          expect(found).toBeNull();
        } else {
          expect(found, `${city} ${attempt}`).not.toBeNull();
          expect(found!.cost).toBeCloseTo(expected, 6);
        }
        compared++;
      }
      expect(compared).toBe(60);
    });
  }
});

describe('where each edge arrives at its head', () => {
  it('is, for every edge of New York, its place among the edges arriving there and the count of those before it with a turn row', () => {
    const network = realGraph('new-york').network;
    const { nodeCount, firstIn, inEdges, edgeFlags } = network.graph;
    const arrivals = network.arrivals();
    let wrong = 0;
    let laterRows = 0;
    for (let node = 0; node < nodeCount; node++) {
      const arriving = Array.from(inEdges.subarray(firstIn[node]!, firstIn[node + 1]!));
      arriving.forEach((edge, place) => {
        const row = arriving.slice(0, place).filter((before) => edgeFlags[before]! & network.turnRowFlags).length;
        if (arrivals[edge] !== (place | (row << 8))) wrong++;
        if (row > 0) laterRows++;
      });
    }
    expect(wrong).toBe(0);
    expect(laterRows).toBeGreaterThan(10_000);
  });
});

describe('the cost tables the graph stores', () => {
  it('hold for every turn of New York what the costing\'s rules say, per profile and mode', () => {
    const network = realGraph('new-york').network;
    const { edgeCount, edgeHead, firstOut } = network.graph;
    const variants: Omit<CostOptions, 'departureMinute'>[] = [
      { profile: 'cycling', supersafe: true, night: false },
      { profile: 'cycling', supersafe: false, night: true },
    ];
    for (const variant of variants) {
      const costing = createCosting(network, { ...variant, departureMinute });
      const table = costing.turnTable()!;
      // Read in place from the file, not computed.
      expect(table.buffer).toBe(network.graph.turnCost.buffer);
      let mismatches = 0;
      let finite = 0;
      for (let edge = 0; edge < edgeCount; edge++) {
        if (!costing.usable(edge)) continue;
        const head = edgeHead[edge]!;
        for (let next = firstOut[head]!; next < firstOut[head + 1]!; next++) {
          const expected = costing.turnCostByRules(edge, next);
          const entry = table[network.turnBase(edge) + next]!;
          if ((entry === TURN_FORBIDDEN ? Infinity : entry * 0.5) !== expected || costing.turnCost(edge, next) !== expected) mismatches++;
          if (expected !== Infinity && expected > 0) finite++;
        }
      }
      expect(mismatches).toBe(0);
      expect(finite).toBeGreaterThan(1000);
    }
    // Walking stores none: its turns are asked of the rules.
    expect(createCosting(network, { profile: 'walking', supersafe: false, night: false, departureMinute }).turnTable()).toBeNull();
  });

  it('cost walking turns by barriers and U-turns alone, without reading any geometry', () => {
    const network = realGraph('new-york').network;
    const { edgeCount, edgeHead, firstOut, nodeFlags } = network.graph;
    const walking = createCosting(network, { profile: 'walking', supersafe: false, night: false, departureMinute });
    const geometry = [vi.spyOn(network, 'startBearing'), vi.spyOn(network, 'endBearing'), vi.spyOn(network, 'busiestRoadAt')];
    let turns = 0;
    let mismatches = 0;
    const barriers = new Set<number>();
    for (let edge = 0; edge < edgeCount; edge++) {
      if (!walking.usable(edge)) continue;
      const head = edgeHead[edge]!;
      const exits = firstOut[head + 1]! - firstOut[head]!;
      for (let next = firstOut[head]!; next < firstOut[head + 1]!; next++) {
        const expected = network.reverseOf(edge) === next
          ? (exits <= 1 ? DEAD_END_U_TURN_SECONDS : Infinity)
          : nodeFlags[head]! & NODE_BARRIER_NO_WALKING ? Infinity : 0;
        if (nodeFlags[head]! & NODE_BARRIER_NO_WALKING) barriers.add(head);
        if (walking.turnCost(edge, next) !== expected) mismatches++;
        turns++;
      }
    }
    expect(mismatches).toBe(0);
    expect(turns).toBeGreaterThan(100_000);
    expect(barriers.size).toBeGreaterThan(0);
    for (const spy of geometry) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });

  it('hold each edge\'s least cost, which is its cost wherever nothing can raise it', () => {
    const network = realGraph('new-york').network;
    for (const variant of [
      { profile: 'cycling', supersafe: true, night: false },
      { profile: 'cycling', supersafe: false, night: false },
    ] as const) {
      const costing = createCosting(network, { ...variant, departureMinute });
      const table = costing.leastCostTable()!;
      expect(table.buffer).toBe(network.graph.leastCost.buffer);
      let mismatches = 0;
      let plain = 0;
      for (let edge = 0; edge < network.graph.edgeCount; edge++) {
        if (table[edge] !== costing.leastEdgeCost(edge)) mismatches++;
        if (!costing.mayCostMoreThanLeast(edge)) {
          plain++;
          if (costing.edgeCost(edge) !== table[edge]) mismatches++;
        }
      }
      expect(mismatches).toBe(0);
      expect(plain).toBeGreaterThan(network.graph.edgeCount / 2);
    }
    const walking = createCosting(network, { profile: 'walking', supersafe: false, night: false, departureMinute });
    expect(walking.leastCostTable()).toBeNull();
    expect(walking.edgeCost(0)).toBe(walking.leastEdgeCost(0));
  });
});
