import { describe, expect, it } from 'vitest';
import { EDGE_CYCLING, EDGE_REVERSED } from '../../core/graph/flags.ts';
import { localMinutes } from '../../core/local-time.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import type { AvoidanceEffect, AvoidanceItem } from '../../core/report-avoidances.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { randomNodeLocation, realGraph, seededRandom } from './real-graphs.ts';
import { referenceCost } from './reference-search.ts';

/**
 * Accepted reports applied through the costing's overlay on New York's real graph: each effect
 * does what it says, and routes stay exact (A* with the graph's landmark bounds, computed without
 * the overlay, still equals an independent Dijkstra that sees the overlay), because the overlay
 * only ever raises costs.
 */

const departureMinute = localMinutes(2026, 6, 15, 12, 0);
const effects: AvoidanceEffect[] = ['closed', 'one_way', 'no_manoeuvre', 'unsafe'];

function randomItems(count: number, seed: number): AvoidanceItem[] {
  const { network } = realGraph('new-york');
  const graph = network.graph;
  const random = seededRandom(seed);
  const items: AvoidanceItem[] = [];
  while (items.length < count) {
    const edge = Math.floor(random() * graph.edgeCount);
    if (!(graph.edgeFlags[edge]! & EDGE_CYCLING)) continue;
    // A point inside the edge's segment, on the way itself.
    const first = graph.segmentFirstPoint[graph.edgeSegment[edge]!]!;
    items.push({
      city: 'new-york',
      report_id: `test-${items.length}`,
      effect: effects[items.length % effects.length]!,
      issue_type: 'road_closed',
      issue_subtype: null,
      location: [(network.pointLon(first) + network.pointLon(first + 1)) / 2, (network.pointLat(first) + network.pointLat(first + 1)) / 2],
      way_id: graph.segmentWayId[graph.edgeSegment[edge]!]!,
      road_name: null,
      until: null,
      accepted_at: '2026-06-15T10:00:00-04:00',
    });
  }
  return items;
}

describe('the report overlay on real routes', () => {
  it('locates every report and applies each effect as it says', () => {
    const loaded = realGraph('new-york');
    const graph = loaded.network.graph;
    const { overlay, avoidances } = buildOverlay(loaded, randomItems(40, 1));
    for (const { item, edges } of avoidances) {
      // A closure or hazard acts on the located road both ways; a one-way report only where the
      // graph still lets bicycles ride against the drawing, a removed turn only where the road is entered.
      if (item.effect === 'closed' || item.effect === 'unsafe') expect(edges.length).toBeGreaterThan(0);
      for (const edge of edges) expect(graph.segmentWayId[graph.edgeSegment[edge]!]).toBe(item.way_id);
      if (item.effect === 'closed') for (const edge of edges) expect(overlay.edgeFactor(edge, departureMinute, true)).toBe(Infinity);
      if (item.effect === 'unsafe') for (const edge of edges) expect(overlay.edgeFactor(edge, departureMinute, true)).toBeGreaterThan(1);
      if (item.effect === 'one_way') for (const edge of edges) expect(graph.edgeFlags[edge]! & EDGE_REVERSED).toBeTruthy();
      if (item.effect === 'no_manoeuvre') {
        for (const edge of edges) expect(overlay.forbidsEntry(edge, graph.edgeTail[edge]!, departureMinute)).toBe(true);
      }
    }
  });

  it('keeps routes exact: A* with landmarks equals a plain Dijkstra on the overlaid costs', () => {
    const loaded = realGraph('new-york');
    const { network } = loaded;
    const random = seededRandom(4242);
    let compared = 0;
    for (let attempt = 0; compared < 30 && attempt < 120; attempt++) {
      // Reports on the roads near the pair, so routes meet them.
      const from = snap(network, (edge) => network.graph.edgeFlags[edge]! & EDGE_CYCLING ? true : false, randomNodeLocation(network, random));
      const to = snap(network, (edge) => network.graph.edgeFlags[edge]! & EDGE_CYCLING ? true : false, randomNodeLocation(network, random));
      if (!from || !to) continue;
      const { overlay } = buildOverlay(loaded, randomItems(300, attempt));
      const costing = createCosting(network, { profile: 'cycling', supersafe: attempt % 2 === 0, night: false, departureMinute }, overlay);
      const usable = (edge: number) => costing.usable(edge);
      const sources = positionsAt(network, usable, from);
      const targets = positionsAt(network, usable, to);
      const found = findRoute(costing, loaded.workspace, sources, targets, to.location);
      const expected = referenceCost(costing, sources, targets);
      if (expected === Infinity) expect(found).toBeNull();
      else expect(found!.cost).toBeCloseTo(expected, 6);
      compared++;
    }
    expect(compared).toBe(30);
  });
});
