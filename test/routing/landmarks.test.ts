import { describe, expect, it } from 'vitest';
import { createCosting, metricCosting } from '../../core/routing/costing/create-costing.ts';
import { haversineMetres } from '../../core/geo.ts';
import { localMinutes } from '../../core/local-time.ts';
import { loadGraph } from '../../core/routing/planning/loaded-graph.ts';
import {
  computeLandmarkSections, LandmarkBound, LANDMARK_COUNT, LANDMARK_METRICS, landmarkSet, NO_LANDMARK, storedLandmarks,
} from '../../core/routing/search/landmarks.ts';
import { referenceCost } from './reference-search.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { SearchWorkspace } from '../../core/routing/search/workspace.ts';
import { realGraph, realGraphBytes, seededRandom, settledSideBySide } from './real-graphs.ts';

const departureMinute = localMinutes(2026, 6, 15, 8, 30);

describe('landmark bounds on the real graphs', () => {
  it('stores in the graph exactly what the router would compute today', () => {
    const { network } = realGraph('london');
    const stored = storedLandmarks(network.graph)!;
    expect(Object.keys(stored).sort()).toEqual([...LANDMARK_METRICS].sort());
    const fresh = landmarkSet(computeLandmarkSections(network), network.graph.edgeCount);
    const bytes = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    for (const metric of LANDMARK_METRICS) {
      const kept = stored[metric]!;
      const computed = fresh[metric]!;
      expect(kept.unit).toBe(computed.unit);
      expect(Array.from(kept.nodes)).toEqual(Array.from(computed.nodes));
      for (const table of ['leaveHalfSeconds', 'distances'] as const) expect(bytes(kept[table]).equals(bytes(computed[table])), table).toBe(true);
      expect(bytes(kept.rows.region).equals(bytes(computed.rows.region))).toBe(true);
    }
  });

  it('gives every region of a city of separate extracts landmarks of its own', () => {
    const { network } = realGraph('london');
    const graph = network.graph;
    const { regions, count } = graph.header.landmarks;
    // London is six extracts that do not touch.
    expect(regions).toBeGreaterThanOrEqual(4);
    for (const metric of LANDMARK_METRICS) {
      const landmarks = storedLandmarks(graph)![metric]!;
      for (let region = 0; region < regions; region++) {
        const nodes = Array.from(landmarks.nodes.subarray(region * count, (region + 1) * count)).filter((node) => node !== NO_LANDMARK);
        expect(nodes.length, `${metric} region ${region}`).toBeGreaterThan(0);
        for (const node of nodes) expect(landmarks.rows.region[landmarks.rows.rowOf(node)]).toBe(region);
        // Each landmark's own row reads 0 both ways in its slot.
        nodes.forEach((node, slot) => {
          const row = landmarks.rows.rowOf(node);
          expect(landmarks.distances[landmarks.at(row, slot)]).toBe(0);
          expect(landmarks.distances[landmarks.at(row, slot) + 1]).toBe(0);
        });
      }
    }
    expect(count).toBe(LANDMARK_COUNT);
  });

  it('answers ends in two regions at once, as a plain Dijkstra finds no route between them', () => {
    const loaded = realGraph('london');
    const network = loaded.network;
    const graph = network.graph;
    const costing = createCosting(network, { profile: 'cycling', supersafe: true, night: false, departureMinute });
    const rows = storedLandmarks(graph)!['cycling-supersafe']!.rows;
    const regionOfEdge = (edge: number) => rows.region[rows.rowOf(graph.edgeTail[edge]!)]!;
    const random = seededRandom(77);
    let separated = 0;
    for (let attempt = 0; separated < 20 && attempt < 5000; attempt++) {
      const from = Math.floor(random() * graph.edgeCount);
      const to = Math.floor(random() * graph.edgeCount);
      if (!costing.usable(from) || !costing.usable(to) || regionOfEdge(from) === regionOfEdge(to)) continue;
      const stats = { settled: -1 };
      const sources = [{ edge: from, fraction: 0.5 }];
      const targets = [{ edge: to, fraction: 0.5 }];
      expect(findRoute(costing, new SearchWorkspace(graph.edgeCount, loaded.workspace.landmarks), sources, targets, [network.nodeLon(graph.edgeTail[to]!), network.nodeLat(graph.edgeTail[to]!)], stats)).toBeNull();
      expect(stats.settled).toBe(0);
      expect(referenceCost(costing, sources, targets)).toBe(Infinity);
      separated++;
    }
    expect(separated).toBe(20);
  });

  it('never overestimates the cost still to come, and is tighter than a straight line', () => {
    const { network } = realGraph('london');
    const stored = storedLandmarks(network.graph)!;
    // Exact remaining costs from a search without landmarks (straight-line A*).
    const plain = new SearchWorkspace(network.graph.edgeCount);
    const random = seededRandom(4242);
    for (const [metric, options] of [
      ['cycling-supersafe', { supersafe: true, night: false }],
      ['cycling-direct', { supersafe: false, night: true }],
    ] as const) {
      const costing = createCosting(network, { profile: 'cycling', departureMinute, ...options });
      const ratios: number[] = [];
      const straightRatios: number[] = [];
      while (ratios.length < 150) {
        const edge = Math.floor(random() * network.graph.edgeCount);
        const target = Math.floor(random() * network.graph.edgeCount);
        if (!costing.usable(edge) || !costing.usable(target)) continue;
        const head = network.graph.edgeHead[edge]!;
        const exact = findRoute(costing, plain, [{ edge, fraction: 1 }], [{ edge: target, fraction: 0 }], [network.nodeLon(head), network.nodeLat(head)]);
        if (!exact || exact.edges.length < 2) continue;
        const bound = new LandmarkBound(stored[metric]!, [network.graph.edgeTail[target]!], [head]).remaining(edge, head, 0);
        expect(bound, `${metric} ${edge} -> ${target}`).toBeLessThanOrEqual(exact.cost + 1e-9);
        ratios.push(bound / exact.cost);
        const tail = network.graph.edgeTail[target]!;
        const straight = haversineMetres(network.nodeLon(head), network.nodeLat(head), network.nodeLon(tail), network.nodeLat(tail)) * costing.minSecondsPerMetre;
        straightRatios.push(straight / exact.cost);
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      expect(median(ratios), metric).toBeGreaterThan(median(straightRatios));
    }
  });

  it('recomputes the bounds and the cost tables on load when the graph was built under other costing weights', () => {
    const bytes = Buffer.from(realGraphBytes('sf-bay'));
    const fingerprint = realGraph('sf-bay').network.graph.header.landmarks.costing;
    let replaced = 0;
    for (let at = bytes.indexOf(`"costing":"${fingerprint}"`); at > 0; at = bytes.indexOf(`"costing":"${fingerprint}"`, at + 1)) {
      bytes.write('0'.repeat(fingerprint.length), at + '"costing":"'.length, 'latin1');
      replaced++;
    }
    // The cost tables' and the landmarks' fingerprints (the hierarchies' is HIERARCHY_FINGERPRINT, of the costing and the lower-bound graph).
    expect(replaced).toBe(2);
    const stale: string[] = [];
    const loaded = loadGraph('sf-bay', bytes, { onStaleTables: (_version, what) => stale.push(what) });
    expect(stale).toEqual(['cost tables', 'landmarks']);
    expect(storedLandmarks(loaded.network.graph)).toBeNull();
    const current = realGraph('sf-bay');
    for (const metric of LANDMARK_METRICS) {
      const recomputed = loaded.workspace.landmarks[metric]!;
      const stored = current.workspace.landmarks[metric]!;
      expect(Array.from(recomputed.distances)).toEqual(Array.from(stored.distances));
      const tables = metricCosting(loaded.network, metric).tables()!;
      const kept = metricCosting(current.network, metric).tables()!;
      // Computed anew, not views on the file.
      expect(tables.leastCost.buffer).not.toBe(loaded.network.graph.leastCost.buffer);
      expect(Array.from(tables.leastCost)).toEqual(Array.from(kept.leastCost));
      expect(Array.from(tables.turnCost)).toEqual(Array.from(kept.turnCost));
    }
  });

  it('settles a fraction of the states a straight-line bound does on New York', () => {
    const loaded = realGraph('new-york');
    const network = loaded.network;
    const plain = new SearchWorkspace(network.graph.edgeCount);
    // The landmarks alone: the loaded workspace bounds by the graph's hierarchies where it has them.
    const landmarksAlone = new SearchWorkspace(network.graph.edgeCount, loaded.workspace.landmarks);
    const costingFor = (pair: number) => createCosting(network, { profile: 'cycling', supersafe: pair % 2 === 0, night: false, departureMinute });
    const [withLandmarks, withoutLandmarks] = settledSideBySide(network, costingFor, [landmarksAlone, plain], seededRandom(99), 40);
    expect(withLandmarks).toBeLessThan(withoutLandmarks / 3);
  });
});
