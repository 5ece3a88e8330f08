import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import type { CostOptions } from '../../core/routing/costing/costing.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { isWindowActive } from '../../core/graph/rules.ts';
import { localMinutes } from '../../core/local-time.ts';
import type { WeightedArcs } from '../../core/routing/search/contraction.ts';
import { MinHeap } from '../../core/routing/search/heap.ts';
import type { ContractedArcs } from '../../core/routing/search/contraction.ts';
import {
  computeHierarchies, HIERARCHY_METRICS, HierarchyPotential, metricLowerBoundArcs, PotentialBuffers, storedHierarchies,
} from '../../core/routing/search/hierarchy.ts';
import { loadGraph } from '../../core/routing/planning/loaded-graph.ts';
import { CostStillToCome } from '../../core/routing/search/heuristic.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { SearchWorkspace, type EdgePosition } from '../../core/routing/search/workspace.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { seededReports } from '../bench/routino.ts';
import { randomNodeLocation, realGraph, realGraphBytes, seededRandom, settledSideBySide } from './real-graphs.ts';
import { referenceCost } from './reference-search.ts';

const MORNING = localMinutes(2026, 6, 15, 8, 30);
const NIGHT = localMinutes(2026, 6, 15, 22, 30);
/** Pairs compared per city: each is also searched by a plain Dijkstra, the slow part of the test. */
const PAIRS_PER_CITY = 40;

/** Least cost from every node to `target` over the arcs, by a plain Dijkstra on the reversed arcs. */
function costsTo(arcs: WeightedArcs, target: number): Float64Array {
  const nodeCount = arcs.first.length - 1;
  const reverse: { tail: number; weight: number }[][] = Array.from({ length: nodeCount }, () => []);
  for (let tail = 0; tail < nodeCount; tail++) {
    for (let i = arcs.first[tail]!; i < arcs.first[tail + 1]!; i++) reverse[arcs.head[i]!]!.push({ tail, weight: arcs.weight[i]! });
  }
  const distance = new Float64Array(nodeCount).fill(Infinity);
  const heap = new MinHeap();
  distance[target] = 0;
  heap.push(0, target);
  while (heap.size > 0) {
    const key = heap.peekKey();
    const node = heap.pop();
    if (key > distance[node]!) continue;
    for (const { tail, weight } of reverse[node]!) {
      if (key + weight < distance[tail]!) {
        distance[tail] = key + weight;
        heap.push(key + weight, tail);
      }
    }
  }
  return distance;
}

const ARRAYS: readonly (keyof ContractedArcs)[] = ['upFirst', 'upHead', 'upWeight', 'downFirst', 'downTail', 'downWeight'];

describe('contraction hierarchies in the graph file', () => {
  it('hold exactly what the router would compute today, read in place', () => {
    const { network } = realGraph('sf-bay');
    const stored = storedHierarchies(network.graph);
    expect(Object.keys(stored).sort()).toEqual([...HIERARCHY_METRICS].sort());
    const fresh = computeHierarchies(network);
    const bytes = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    for (const metric of HIERARCHY_METRICS) {
      for (const array of ARRAYS) {
        expect(bytes(stored[metric]![array]).equals(bytes(fresh[metric]![array])), `${metric} ${array}`).toBe(true);
        // Views on the file's bytes, not copies.
        expect(stored[metric]![array].buffer).toBe(network.graph.nodeCoords.buffer);
      }
      expect(stored[metric]!.upHead.length).toBeGreaterThan(0);
    }
  });

  it('are left out when the graph was built under other costing weights, and the landmarks bound the search', () => {
    const bytes = Buffer.from(realGraphBytes('sf-bay'));
    const fingerprint = realGraph('sf-bay').network.graph.header.hierarchies.costing;
    const at = bytes.indexOf(`"hierarchies":{"costing":"${fingerprint}"`);
    expect(at).toBeGreaterThan(0);
    bytes.write('0'.repeat(fingerprint.length), at + '"hierarchies":{"costing":"'.length, 'latin1');
    const loaded = loadGraph('sf-bay', bytes);
    expect(loaded.workspace.hierarchies).toEqual({});
    expect(Object.keys(loaded.workspace.landmarks).length).toBeGreaterThan(0);
  });
});

describe('contraction hierarchy potentials on New York', () => {
  const { network } = realGraph('new-york');
  const hierarchies = storedHierarchies(network.graph);

  for (const metric of HIERARCHY_METRICS) {
    it(`equal a plain Dijkstra's least cost to the target in the ${metric} lower-bound graph`, () => {
      const arcs = metricLowerBoundArcs(network, metric);
      const buffers = new PotentialBuffers(network.graph.nodeCount);
      const random = seededRandom(metric.length * 31);
      let finite = 0;
      for (let targets = 0; targets < 6; ) {
        const target = Math.floor(random() * network.graph.nodeCount);
        if (arcs.first[target + 1] === arcs.first[target]) continue;
        targets++;
        const exact = costsTo(arcs, target);
        const potential = new HierarchyPotential(hierarchies[metric]!, buffers, [{ node: target, cost: 0 }]);
        for (let sample = 0; sample < 300; sample++) {
          const node = Math.floor(random() * network.graph.nodeCount);
          const bound = potential.at(node);
          if (exact[node] === Infinity) {
            expect(bound, `${metric} ${node} -> ${target}`).toBe(Infinity);
            continue;
          }
          finite++;
          // Exact but for the weights' rounding down to single precision, never above.
          expect(bound, `${metric} ${node} -> ${target}`).toBeLessThanOrEqual(exact[node]!);
          expect(bound, `${metric} ${node} -> ${target}`).toBeGreaterThanOrEqual(exact[node]! * (1 - 1e-6) - 1e-6);
        }
      }
      expect(finite).toBeGreaterThan(500);
    });
  }
});

/** Each city's conditional turn restrictions of two edges, with a departure at which each is in force. */
function conditionalRestrictions(loaded: ReturnType<typeof realGraph>): { from: number; departureMinute: number }[] {
  const graph = loaded.network.graph;
  const found: { from: number; departureMinute: number }[] = [];
  for (let restriction = 0; restriction < graph.restrictionFlags.length; restriction++) {
    const window = graph.restrictionWindow[restriction]!;
    if (window === 0) continue;
    for (let minute = MORNING - 8 * 60; minute < MORNING + 7 * 24 * 60; minute += 30) {
      if (!isWindowActive(graph, window - 1, minute)) continue;
      found.push({ from: graph.restrictionEdges[graph.restrictionFirst[restriction]!]!, departureMinute: minute });
      break;
    }
  }
  return found;
}

describe('the bound after arriving along an edge, from the hierarchy', () => {
  const loaded = realGraph('new-york');
  const { network } = loaded;
  const graph = network.graph;
  const variants: CostOptions[] = [
    { profile: 'cycling', supersafe: true, night: false, departureMinute: MORNING },
    { profile: 'cycling', supersafe: false, night: false, departureMinute: MORNING },
    { profile: 'cycling', supersafe: true, night: false, departureMinute: MORNING, bicycleType: 'cargo' },
    { profile: 'walking', supersafe: false, night: false, departureMinute: MORNING },
    // At night the night hierarchies bound the search.
    { profile: 'cycling', supersafe: true, night: true, departureMinute: NIGHT },
    { profile: 'cycling', supersafe: false, night: true, departureMinute: NIGHT },
  ];
  for (const variant of variants) {
    it(`is consistent for ${variant.profile}${variant.supersafe ? ' supersafe' : ''}${variant.night ? ' at night' : ''}${variant.bicycleType ? ` (${variant.bicycleType})` : ''}: never more than a turn and the next edge and the bound after it`, () => {
      const costing = createCosting(network, variant);
      const random = seededRandom(variant.profile.length * 7 + (variant.supersafe ? 1 : 0) + (variant.bicycleType ? 2 : 0) + (variant.night ? 4 : 0));
      let checked = 0;
      for (let query = 0; query < 6; query++) {
        const to = snap(network, (edge) => costing.usable(edge), randomNodeLocation(network, random));
        if (!to) continue;
        const targets = positionsAt(network, (edge) => costing.usable(edge), to);
        const workspace = new SearchWorkspace(graph.edgeCount, loaded.workspace.landmarks, loaded.workspace.hierarchies);
        workspace.startQuery(graph.nodeCount);
        const bound = new CostStillToCome(costing, workspace, [], targets, to.location);
        const targetEdges = new Set(targets.map((target) => target.edge));
        for (let sample = 0; sample < 400; sample++) {
          const edge = Math.floor(random() * graph.edgeCount);
          if (!costing.usable(edge)) continue;
          const after = bound.afterEdge(edge);
          const head = graph.edgeHead[edge]!;
          for (let next = graph.firstOut[head]!; next < graph.firstOut[head + 1]!; next++) {
            // A target edge ends the route part way along it: the search costs it apart.
            if (targetEdges.has(next)) continue;
            const step = costing.turnCost(edge, next) + costing.edgeCost(next);
            if (step === Infinity) continue;
            const onward = bound.afterEdge(next);
            if (onward === Infinity) continue;
            // The hierarchy's weights are single precision: a few millionths of slack.
            expect(after, `${edge} -> ${next}`).toBeLessThanOrEqual(step + onward + 1e-3);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(500);
    });
  }
});

describe('night searches', () => {
  it('are bounded by the night hierarchies where the graph has them, settling fewer states than with the day\'s at the same cost', () => {
    const loaded = realGraph('new-york');
    const { network } = loaded;
    const { hierarchies } = loaded.workspace;
    expect(hierarchies['cycling-supersafe-night']).toBeDefined();
    const dayOnly = Object.fromEntries(Object.entries(hierarchies).filter(([metric]) => !metric.endsWith('-night')));
    const withNight = new SearchWorkspace(network.graph.edgeCount, loaded.workspace.landmarks, hierarchies);
    const withDay = new SearchWorkspace(network.graph.edgeCount, loaded.workspace.landmarks, dayOnly);
    const costing = createCosting(network, { profile: 'cycling', supersafe: true, night: true, departureMinute: NIGHT });
    const [night, day] = settledSideBySide(network, () => costing, [withNight, withDay], seededRandom(2207), 30);
    expect(night).toBeLessThan(day);
  });
});

describe('routes with the hierarchy potential', () => {
  for (const city of cityIds) {
    it(`cost exactly what they cost with landmarks and by a plain Dijkstra in ${city}, with reports, closures, night, hills and time-limited turns in force`, () => {
      const loaded = realGraph(city);
      const { network } = loaded;
      // The graph's own hierarchies (the loaded workspace's), and a workspace with its landmarks alone.
      const withHierarchy = loaded.workspace;
      expect(Object.keys(withHierarchy.hierarchies).sort()).toEqual([...HIERARCHY_METRICS].sort());
      const withLandmarks = new SearchWorkspace(network.graph.edgeCount, loaded.workspace.landmarks);
      const { overlay } = buildOverlay(loaded, seededReports(loaded, 60, city.length * 13));
      const restrictions = conditionalRestrictions(loaded);
      const variants: (Omit<CostOptions, 'departureMinute'> & { departureMinute?: number })[] = [
        { profile: 'cycling', supersafe: true, night: false },
        { profile: 'cycling', supersafe: false, night: false },
        { profile: 'walking', supersafe: false, night: false },
        { profile: 'cycling', supersafe: true, night: true, departureMinute: NIGHT },
        { profile: 'cycling', supersafe: true, night: false, avoidHills: true },
        { profile: 'cycling', supersafe: false, night: true, departureMinute: NIGHT },
        // A bicycle type other than hybrid takes the hierarchy at a share (its leaving costs too).
        { profile: 'cycling', supersafe: true, night: false, bicycleType: 'cargo' },
      ];
      const random = seededRandom(city.length * 104_729);
      let compared = 0;
      let viaRestriction = 0;
      for (let attempt = 0; compared < PAIRS_PER_CITY && attempt < 400; attempt++) {
        // Every fifth pair starts on the first edge of a time-limited turn restriction, at a departure it is in force.
        const restricted = attempt % 5 === 4 && restrictions.length > 0 ? restrictions[attempt % restrictions.length]! : null;
        const variant = restricted ? { profile: 'cycling' as const, supersafe: false, night: false } : variants[attempt % variants.length]!;
        const departureMinute = restricted?.departureMinute ?? variant.departureMinute ?? MORNING;
        const costing = createCosting(network, { ...variant, departureMinute }, variant.profile === 'cycling' ? overlay : null);
        const usable = (edge: number) => costing.usable(edge);
        const to = snap(network, usable, randomNodeLocation(network, random));
        if (!to) continue;
        let sources: EdgePosition[];
        if (restricted) {
          sources = [{ edge: restricted.from, fraction: 0.5 }];
        } else {
          const from = snap(network, usable, randomNodeLocation(network, random));
          if (!from) continue;
          sources = positionsAt(network, usable, from);
        }
        const targets = positionsAt(network, usable, to);
        const fast = findRoute(costing, withHierarchy, sources, targets, to.location);
        const landmarks = findRoute(costing, withLandmarks, sources, targets, to.location);
        const expected = referenceCost(costing, sources, targets);
        expect(fast === null, `${city} ${attempt}`).toBe(expected === Infinity);
        expect(landmarks === null).toBe(expected === Infinity);
        if (fast && landmarks) {
          expect(fast.cost, `${city} ${attempt}`).toBeCloseTo(expected, 6);
          expect(fast.cost, `${city} ${attempt}`).toBeCloseTo(landmarks.cost, 6);
        }
        if (restricted) viaRestriction++;
        compared++;
      }
      expect(compared).toBe(PAIRS_PER_CITY);
      if (restrictions.length > 0) expect(viaRestriction).toBeGreaterThan(0);
    }, 180_000);
  }
});
