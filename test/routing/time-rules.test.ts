import { describe, expect, it } from 'vitest';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { EDGE_CYCLING } from '../../core/graph/flags.ts';
import { isClosed, isWindowActive } from '../../core/graph/rules.ts';
import { localMinutes } from '../../core/local-time.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import type { LoadedGraph } from '../../functions/graphs/graph-store.ts';
import { realGraph } from './real-graphs.ts';

/**
 * Time-limited turn restrictions and dated or weekly closures from New York's real OSM tags,
 * honoured at departures inside their windows and ignored outside them.
 */

const weekStart = localMinutes(2026, 6, 15, 0, 0); // a Monday
const candidateMinutes = Array.from({ length: (14 * 24 * 60) / 15 }, (_, index) => weekStart + index * 15);

function route(loaded: LoadedGraph, departureMinute: number, fromEdge: number, toEdge: number): number[] | null {
  const network = loaded.network;
  const costing = createCosting(network, { profile: 'cycling', supersafe: false, night: false, departureMinute });
  const target = network.graph.edgeHead[toEdge]!;
  const result = findRoute(costing, loaded.workspace, [{ edge: fromEdge, fraction: 0.5 }], [{ edge: toEdge, fraction: 0.5 }], [network.nodeLon(target), network.nodeLat(target)]);
  return result?.edges ?? null;
}

const turnsFrom = (edges: number[] | null, from: number, to: number) =>
  edges !== null && edges.some((edge, index) => edge === from && edges[index + 1] === to);

describe('time-dependent rules on the real New York graph', () => {
  const loaded = realGraph('new-york');
  const graph = loaded.network.graph;

  it('forbids a time-limited turn inside its window only', () => {
    let checked = 0;
    let takenWhenAllowed = 0;
    for (let restriction = 0; restriction < graph.restrictionFlags.length; restriction++) {
      const window = graph.restrictionWindow[restriction]!;
      const start = graph.restrictionFirst[restriction]!;
      if (window === 0 || graph.restrictionFirst[restriction + 1]! - start !== 2) continue;
      const from = graph.restrictionEdges[start]!;
      const to = graph.restrictionEdges[start + 1]!;
      const active = candidateMinutes.find((minute) => isWindowActive(graph, window - 1, minute));
      const inactive = candidateMinutes.find((minute) => !isWindowActive(graph, window - 1, minute));
      if (active === undefined || inactive === undefined) continue;
      expect(turnsFrom(route(loaded, active, from, to), from, to), `restriction ${restriction} in force`).toBe(false);
      if (turnsFrom(route(loaded, inactive, from, to), from, to)) takenWhenAllowed++;
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    // Outside the window the direct turn is the quickest way for most of them.
    expect(takenWhenAllowed).toBeGreaterThan(checked / 2);
  });

  it('avoids a closure while it is in force and uses the street otherwise', () => {
    let checked = 0;
    let usedWhenOpen = 0;
    for (let edge = 0; edge < graph.edgeCount; edge++) {
      const closure = graph.edgeClosure[edge]! - 1;
      if (closure < 0 || !(graph.edgeFlags[edge]! & EDGE_CYCLING)) continue;
      const closed = candidateMinutes.find((minute) => isClosed(graph, closure, 'cycling', minute));
      const open = candidateMinutes.find((minute) => !isClosed(graph, closure, 'cycling', minute));
      const tail = graph.edgeTail[edge]!;
      const head = graph.edgeHead[edge]!;
      const before = graph.inEdges.slice(graph.firstIn[tail]!, graph.firstIn[tail + 1]!).find((candidate) => graph.edgeTail[candidate] !== head && (graph.edgeFlags[candidate]! & EDGE_CYCLING) !== 0);
      const after = Array.from({ length: graph.firstOut[head + 1]! - graph.firstOut[head]! }, (_, i) => graph.firstOut[head]! + i).find((candidate) => graph.edgeHead[candidate] !== tail && (graph.edgeFlags[candidate]! & EDGE_CYCLING) !== 0);
      if (closed === undefined || open === undefined || before === undefined || after === undefined) continue;
      expect(route(loaded, closed, before, after)?.includes(edge) ?? false, `closure ${closure} in force`).toBe(false);
      if (route(loaded, open, before, after)?.includes(edge)) usedWhenOpen++;
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(usedWhenOpen).toBeGreaterThanOrEqual(1);
  });
});
