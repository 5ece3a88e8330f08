import { describe, expect, it } from 'vitest';
import { Costing } from '../../core/routing/costing/costing.ts';
import { haversineMetres } from '../../core/geo.ts';
import { localMinutes } from '../../core/local-time.ts';
import { loadGraphBytes } from '../../functions/routing/graph-store.ts';
import {
  computeLandmarks, LandmarkBound, LANDMARK_METRICS, metricCosting, storedLandmarks,
} from '../../core/routing/search/landmarks.ts';
import { findRoute, SearchWorkspace } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { randomNodeLocation, realGraph, realGraphBytes, seededRandom } from './real-graphs.ts';

const departureMinute = localMinutes(2026, 6, 15, 8, 30);

describe('landmark bounds on the real graphs', () => {
  it('stores in the graph exactly what the router would compute today', () => {
    const { network } = realGraph('london');
    const stored = storedLandmarks(network.graph)!;
    expect(Object.keys(stored).sort()).toEqual([...LANDMARK_METRICS].sort());
    for (const metric of LANDMARK_METRICS) {
      const fresh = computeLandmarks(metricCosting(network, metric));
      const kept = stored[metric]!;
      expect(kept.unit).toBe(fresh.unit);
      expect(Array.from(kept.nodes)).toEqual(Array.from(fresh.nodes));
      expect(Buffer.from(kept.leaveHalfSeconds).equals(Buffer.from(fresh.leaveHalfSeconds))).toBe(true);
      expect(Buffer.from(kept.fromLandmark.buffer, kept.fromLandmark.byteOffset, kept.fromLandmark.byteLength)
        .equals(Buffer.from(fresh.fromLandmark.buffer))).toBe(true);
      expect(Buffer.from(kept.toLandmark.buffer, kept.toLandmark.byteOffset, kept.toLandmark.byteLength)
        .equals(Buffer.from(fresh.toLandmark.buffer))).toBe(true);
    }
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
      const costing = new Costing(network, { profile: 'cycling', departureMinute, ...options });
      const ratios: number[] = [];
      const straightRatios: number[] = [];
      while (ratios.length < 150) {
        const edge = Math.floor(random() * network.graph.edgeCount);
        const target = Math.floor(random() * network.graph.edgeCount);
        if (!costing.usable(edge) || !costing.usable(target)) continue;
        const head = network.graph.edgeHead[edge]!;
        const exact = findRoute(costing, plain, [{ edge, fraction: 1 }], [{ edge: target, fraction: 0 }], [network.nodeLon(head), network.nodeLat(head)]);
        if (!exact || exact.edges.length < 2) continue;
        const bound = new LandmarkBound(stored[metric]!, network.graph.nodeCount, [network.graph.edgeTail[target]!], [head]).remaining(edge, head, 0);
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

  it('recomputes the bounds on load when the graph was built under other costing weights', () => {
    const bytes = Buffer.from(realGraphBytes('sf-bay'));
    const fingerprint = realGraph('sf-bay').network.graph.header.landmarks.costing;
    const at = bytes.indexOf(`"costing":"${fingerprint}"`);
    expect(at).toBeGreaterThan(0);
    bytes.write('0'.repeat(fingerprint.length), at + '"costing":"'.length, 'latin1');
    const loaded = loadGraphBytes('sf-bay', bytes);
    expect(storedLandmarks(loaded.network.graph)).toBeNull();
    const recomputed = loaded.workspace.landmarks['cycling-supersafe']!;
    const stored = realGraph('sf-bay').workspace.landmarks['cycling-supersafe']!;
    expect(Array.from(recomputed.toLandmark)).toEqual(Array.from(stored.toLandmark));
  });

  it('settles a fraction of the states a straight-line bound does on New York', () => {
    const loaded = realGraph('new-york');
    const network = loaded.network;
    const plain = new SearchWorkspace(network.graph.edgeCount);
    const random = seededRandom(99);
    let withLandmarks = 0;
    let withoutLandmarks = 0;
    for (let pair = 0; pair < 40; ) {
      const costing = new Costing(network, { profile: 'cycling', supersafe: pair % 2 === 0, night: false, departureMinute });
      const usable = (edge: number) => costing.usable(edge);
      const from = snap(network, usable, randomNodeLocation(network, random));
      const to = snap(network, usable, randomNodeLocation(network, random));
      if (!from || !to) continue;
      const sources = positionsAt(network, usable, from);
      const targets = positionsAt(network, usable, to);
      const fast = { settled: 0 };
      const slow = { settled: 0 };
      const a = findRoute(costing, loaded.workspace, sources, targets, to.location, fast);
      const b = findRoute(costing, plain, sources, targets, to.location, slow);
      // A node behind a closed gate has no route either way.
      expect(a === null).toBe(b === null);
      if (!a || !b) continue;
      expect(a.cost).toBeCloseTo(b.cost, 6);
      withLandmarks += fast.settled;
      withoutLandmarks += slow.settled;
      pair++;
    }
    expect(withLandmarks).toBeLessThan(withoutLandmarks / 3);
  });
});
