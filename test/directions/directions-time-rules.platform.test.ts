import { describe, expect, it } from 'vitest';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { type Profile } from '../../core/graph/profiles.ts';
import { bearingDegrees, bearingDifference } from '../../core/geo.ts';
import { EDGE_CYCLING, EDGE_WALKING } from '../../core/graph/flags.ts';
import { isClosed, isWindowActive } from '../../core/graph/rules.ts';
import { localMinutes } from '../../core/local-time.ts';
import { edgeCoordinates, slicePolyline } from '../../core/routing/path/path.ts';
import { type Position } from '../../core/geo.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { call, newKey } from '../support/running-platform.ts';

/**
 * Time rules over HTTP on New York's real graph: a time-limited turn restriction and a dated
 * closure are honoured by the endpoint at departures inside their windows and ignored outside,
 * and walking ignores the cycling turn restrictions. The cases are found in the graph the
 * platform serves; the endpoint is asked with coordinates in the middle of the edges involved.
 */

const loaded = realGraph('new-york');
const { network } = loaded;
const graph = network.graph;
const enterprise = () => newKey({ name: 'time rules', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });

const weekStart = localMinutes(2026, 6, 15, 0, 0); // a Monday
const candidateMinutes = Array.from({ length: (14 * 24 * 60) / 15 }, (_, index) => weekStart + index * 15);
/** A local-minute value as the request's `departure_time`. */
const departureTime = (minute: number) => new Date(minute * 60_000).toISOString().slice(0, 16);

/** Where to ask for a route on an edge: its middle, and the bearing of travel there. */
function middleOf(edge: number): { coordinate: Position; bearing: number } {
  const points = edgeCoordinates(network, edge);
  const [before, after] = [slicePolyline(points, 0.45, 0.45)[0]!, slicePolyline(points, 0.55, 0.55)[0]!];
  return { coordinate: slicePolyline(points, 0.5, 0.5)[0]!, bearing: Math.round(bearingDegrees(before[0], before[1], after[0], after[1])) % 360 };
}

/** The in-process route between the middles of two edges. */
function edgesBetween(profile: Profile, departureMinute: number, from: number, to: number): number[] | null {
  const costing = createCosting(network, { profile, supersafe: false, night: false, departureMinute });
  const head = graph.edgeHead[to]!;
  const result = findRoute(costing, loaded.workspace, [{ edge: from, fraction: 0.5 }], [{ edge: to, fraction: 0.5 }], [network.nodeLon(head), network.nodeLat(head)]);
  return result?.edges ?? null;
}

const turnsFrom = (edges: number[] | null, from: number, to: number) => edges !== null && edges.some((edge, i) => edge === from && edges[i + 1] === to);

/** Whether a route's geometry makes the turn from one edge onto the next at their shared node. */
function geometryTurns(coordinates: Position[], from: number, to: number): boolean {
  const via = edgeCoordinates(network, from).at(-1)!;
  const arrive = network.endBearing(from);
  const leave = network.startBearing(to);
  return coordinates.some((point, i) => {
    if (i === 0 || i === coordinates.length - 1) return false;
    if (Math.abs(point[0] - via[0]) > 2e-6 || Math.abs(point[1] - via[1]) > 2e-6) return false;
    const previous = coordinates[i - 1]!;
    const next = coordinates[i + 1]!;
    return (
      bearingDifference(bearingDegrees(previous[0], previous[1], point[0], point[1]), arrive) < 15 &&
      bearingDifference(bearingDegrees(point[0], point[1], next[0], next[1]), leave) < 15
    );
  });
}

async function directions(body: Record<string, unknown>) {
  const response = await call('/directions/v2/', { key: await enterprise(), body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  // The same inputs and builder (the version's last part is the source hash): the same graph.
  if (response.body.graph_version) expect(response.body.graph_version.split('-').at(-1)).toBe(loaded.version.split('-').at(-1));
  return response.body;
}

describe('time rules through POST /directions/v2/ on New York', () => {
  it('forbids a time-limited turn inside its window and takes it outside', async () => {
    const cases: { from: number; to: number; active: number; inactive: number }[] = [];
    for (let restriction = 0; restriction < graph.restrictionFlags.length && cases.length < 3; restriction++) {
      const window = graph.restrictionWindow[restriction]!;
      const start = graph.restrictionFirst[restriction]!;
      if (window === 0 || graph.restrictionFirst[restriction + 1]! - start !== 2) continue;
      const from = graph.restrictionEdges[start]!;
      const to = graph.restrictionEdges[start + 1]!;
      const active = candidateMinutes.find((minute) => isWindowActive(graph, window - 1, minute) && !isWindowActive(graph, window - 1, minute - 60));
      const inactive = candidateMinutes.find((minute) => !isWindowActive(graph, window - 1, minute));
      if (active === undefined || inactive === undefined) continue;
      // Cases where the turn is the quickest way when it is allowed, so its absence shows.
      if (turnsFrom(edgesBetween('cycling', inactive, from, to), from, to)) cases.push({ from, to, active: active + 30, inactive });
    }
    expect(cases.length).toBeGreaterThanOrEqual(1);
    for (const { from, to, active, inactive } of cases) {
      const start = middleOf(from);
      const coordinates = [start.coordinate, middleOf(to).coordinate];
      const request = { coordinates, bearing: start.bearing, supersafe: false };
      const inside = await directions({ ...request, departure_time: departureTime(active) });
      const outside = await directions({ ...request, departure_time: departureTime(inactive) });
      expect(geometryTurns(outside.route.geometry.coordinates, from, to), `turn ${from}->${to} allowed`).toBe(true);
      if (inside.route) {
        expect(geometryTurns(inside.route.geometry.coordinates, from, to), `turn ${from}->${to} in force`).toBe(false);
        // How long the route inside is says nothing more: where the restricted turn is the only way
        // off the start's block, the start or end may join a way beside it (docs/routing.md, "Never
        // stranded", "A few metres farther"), which can be shorter than the turn it avoids.
      }
    }
  });

  it('avoids a dated closure while it is in force, says so in disruptions, and uses the street otherwise', async () => {
    let checked = 0;
    for (let edge = 0; edge < graph.edgeCount && checked < 2; edge++) {
      const closure = graph.edgeClosure[edge]! - 1;
      if (closure < 0 || !(graph.edgeFlags[edge]! & EDGE_CYCLING)) continue;
      const closed = candidateMinutes.find((minute) => isClosed(graph, closure, 'cycling', minute));
      const open = candidateMinutes.find((minute) => !isClosed(graph, closure, 'cycling', minute) && !isClosed(graph, closure, 'cycling', minute + 120));
      const tail = graph.edgeTail[edge]!;
      const head = graph.edgeHead[edge]!;
      if (closed === undefined || open === undefined) continue;
      // Neighbours that stay open meanwhile (a closure often takes the whole street).
      const rideable = (candidate: number) =>
        (graph.edgeFlags[candidate]! & EDGE_CYCLING) !== 0 &&
        (graph.edgeClosure[candidate] === 0 || !isClosed(graph, graph.edgeClosure[candidate]! - 1, 'cycling', closed));
      const before = Array.from(graph.inEdges.subarray(graph.firstIn[tail]!, graph.firstIn[tail + 1]!)).find(
        (candidate) => graph.edgeTail[candidate] !== head && rideable(candidate),
      );
      const after = Array.from({ length: graph.firstOut[head + 1]! - graph.firstOut[head]! }, (_, i) => graph.firstOut[head]! + i).find(
        (candidate) => graph.edgeHead[candidate] !== tail && rideable(candidate),
      );
      if (before === undefined || after === undefined) continue;
      // Cases where the street is the way when open and there is another way round when closed.
      if (!edgesBetween('cycling', open, before, after)?.includes(edge) || !edgesBetween('cycling', closed, before, after)) continue;

      const start = middleOf(before);
      const request = { coordinates: [start.coordinate, middleOf(after).coordinate], bearing: start.bearing, supersafe: false };
      const inForce = await directions({ ...request, departure_time: departureTime(closed) });
      const lifted = await directions({ ...request, departure_time: departureTime(open) });
      const passes = (coordinates: Position[]) => geometryTurns(coordinates, before, edge) || geometryTurns(coordinates, edge, after);
      expect(passes(lifted.route.geometry.coordinates), `edge ${edge} open`).toBe(true);
      expect(inForce.route, `a way around the closure of edge ${edge}`).not.toBeNull();
      expect(passes(inForce.route.geometry.coordinates), `edge ${edge} closed`).toBe(false);
      expect(inForce.disruptions?.some((disruption: { type: string; active_at_departure: boolean }) => disruption.type === 'closure' && disruption.active_at_departure)).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
  });

  it('walks through turns that cycling may not make', async () => {
    let checked = 0;
    for (let restriction = 0; restriction < graph.restrictionFlags.length && checked < 2; restriction++) {
      const start = graph.restrictionFirst[restriction]!;
      if (graph.restrictionWindow[restriction] !== 0 || graph.restrictionFirst[restriction + 1]! - start !== 2) continue;
      const from = graph.restrictionEdges[start]!;
      const to = graph.restrictionEdges[start + 1]!;
      if (!(graph.edgeFlags[from]! & EDGE_WALKING) || !(graph.edgeFlags[to]! & EDGE_WALKING)) continue;
      if (!turnsFrom(edgesBetween('walking', weekStart, from, to), from, to)) continue;

      const begin = middleOf(from);
      const request = { coordinates: [begin.coordinate, middleOf(to).coordinate], bearing: begin.bearing, departure_time: '2026-06-15T12:00' };
      const walking = await directions({ ...request, profile: 'walking' });
      const cycling = await directions({ ...request, profile: 'cycling', supersafe: false });
      expect(geometryTurns(walking.route.geometry.coordinates, from, to), `walking ${from}->${to}`).toBe(true);
      if (cycling.route) expect(geometryTurns(cycling.route.geometry.coordinates, from, to), `cycling ${from}->${to}`).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
  });
});
