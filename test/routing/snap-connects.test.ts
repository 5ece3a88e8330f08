import { describe, expect, it } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import { OPEN_CORE_CYCLING } from '../../core/routing/network/open-core.ts';
import { costingFor } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { snapForCosting } from '../../core/routing/snap/snap.ts';
import { cyclingRegions } from '../bench/measure.ts';
import { benchContext } from '../bench/route-quality.ts';
import { realGraph, seededRandom } from './real-graphs.ts';

/**
 * Snapping yields a routable pair whenever one exists nearby (core/routing/snap/snap.ts): each end
 * tries its candidates in order, each direction of a way on its own under the departure's one-way
 * rules and turn restrictions, so a candidate that cannot be left or reached never makes the answer
 * null; a start may leave either way along a two-way street, or along a way a few metres beyond.
 */

const MIDDAY = '2026-06-15T12:00';

describe('a snapped pair routes', () => {
  it('routes New York between Spring Street and Duane Street at noon, where the nearest end is a block entered only through a turn forbidden then', () => {
    const loaded = realGraph('new-york');
    const context = benchContext('new-york', loaded, MIDDAY);
    for (const supersafe of [true, false]) {
      const costing = costingFor(context, { profile: 'cycling', supersafe, night: false });
      const planned = planWaypoints(costing, context, [[-73.999609, 40.723423], [-74.0036862, 40.7143201]], { language: 'en' });
      expect(planned.legs, `supersafe ${supersafe}`).not.toBeNull();
      // The Duane Street stub west of Lafayette Street cannot be reached at noon: the route ends on a way that can.
      expect(planned.legs![0]!.path.distance).toBeGreaterThan(1000);
    }
  });

  it('routes through a stop whose way is reached in one direction and left in the other (London, Bedford Square)', () => {
    const loaded = realGraph('london');
    const context = benchContext('london', loaded, MIDDAY);
    const stops: [number, number][] = [[-0.1316, 51.525], [-0.1303, 51.5187], [-0.1249, 51.5228]];
    for (const supersafe of [true, false]) {
      const costing = costingFor(context, { profile: 'cycling', supersafe, night: false });
      // As a start the stop's block may only be left one way; the leg arriving must reach it the other.
      expect(snapForCosting(costing, stops[1]!, 'from')!.edges).not.toEqual(snapForCosting(costing, stops[1]!, 'to')!.edges);
      const planned = planWaypoints(costing, context, stops, { language: 'en' });
      expect(planned.legs, `supersafe ${supersafe}`).toHaveLength(2);
    }
  });

  const cases: { city: CityId; pairs: number }[] = [
    { city: 'new-york', pairs: 1500 },
    { city: 'london', pairs: 600 },
    { city: 'los-angeles', pairs: 300 },
  ];
  it.each(cases)('routes every seeded pair of points of one region in $city at noon ($pairs pairs, both modes)', ({ city, pairs }) => {
    const loaded = realGraph(city);
    const network = loaded.network;
    const regionOf = cyclingRegions(network);
    const context = benchContext(city, loaded, MIDDAY);
    const random = seededRandom(city.length * 1009);
    const unrouted: string[] = [];
    let tried = 0;
    for (let i = 0; i < pairs; i++) {
      // Both ends in one region: London's extracts do not all touch, and a pair across two has no route.
      const a = Math.floor(random() * network.graph.nodeCount);
      let b = Math.floor(random() * network.graph.nodeCount);
      for (let retry = 0; retry < 100 && regionOf(b) !== regionOf(a); retry++) b = Math.floor(random() * network.graph.nodeCount);
      // Up to about 20 m off a node: on ways, at junctions, beside them.
      const jitter = () => (random() - 0.5) * 0.0004;
      const from: [number, number] = [network.nodeLon(a) + jitter(), network.nodeLat(a) + jitter()];
      const to: [number, number] = [network.nodeLon(b) + jitter(), network.nodeLat(b) + jitter()];
      for (const supersafe of [true, false]) {
        const costing = costingFor(context, { profile: 'cycling', supersafe, night: false });
        const planned = planWaypoints(costing, context, [from, to], { language: 'en' });
        const [start, end] = planned.snaps;
        if (!start || !end) continue;
        const graph = network.graph;
        if (regionOf(graph.edgeTail[graph.segmentForwardEdge[start.segment]! >= 0 ? graph.segmentForwardEdge[start.segment]! : graph.segmentBackwardEdge[start.segment]!]!) !==
          regionOf(graph.edgeTail[graph.segmentForwardEdge[end.segment]! >= 0 ? graph.segmentForwardEdge[end.segment]! : graph.segmentBackwardEdge[end.segment]!]!)) continue;
        tried++;
        if (!planned.legs) unrouted.push(`${supersafe ? 'supersafe' : 'direct'} ${from} to ${to}`);
      }
    }
    // Ends snapped (up to 20 m off their nodes) onto another region are left out: few of them.
    expect(tried).toBeGreaterThan(pairs * 2 * 0.8);
    expect(unrouted).toEqual([]);
  });
});

describe('a start sets off the right way', () => {
  it('leaves Royce Drive southwards, along the service road beside it, rather than north and back round a loop', () => {
    const loaded = realGraph('los-angeles');
    const context = benchContext('los-angeles', loaded, MIDDAY);
    const costing = costingFor(context, { profile: 'cycling', supersafe: true, night: false });
    const planned = planWaypoints(costing, context, [[-118.4426, 34.0739], [-118.434, 34.0622]], { language: 'en' });
    const steps = planned.legs![0]!.steps;
    expect(steps.some((step) => step.maneuver.modifier === 'uturn')).toBe(false);
    // South is 180 degrees: the first step heads between south-east and south-west.
    expect(Math.abs(steps[0]!.maneuver.bearing_after - 180)).toBeLessThanOrEqual(45);
    // Where the route started is what the response reports as the waypoint: a way a few metres off the coordinate.
    expect(planned.snaps[0]!.distanceMetres).toBeLessThan(15);
  });

  it('may leave a two-way street either way: both directions are offered where both lead on', () => {
    const loaded = realGraph('new-york');
    const network = loaded.network;
    const graph = network.graph;
    const costing = costingFor(benchContext('new-york', loaded, MIDDAY), { profile: 'cycling', supersafe: true, night: false });
    const random = seededRandom(42);
    let twoWay = 0;
    for (let i = 0; i < 300; i++) {
      const edge = Math.floor(random() * graph.edgeCount);
      const segment = graph.edgeSegment[edge]!;
      const forward = graph.segmentForwardEdge[segment]!;
      const backward = graph.segmentBackwardEdge[segment]!;
      // The middle of a rideable two-way segment in the open core: both directions lead on.
      if (forward < 0 || backward < 0 || !costing.travelsNormally(forward) || !costing.travelsNormally(backward) || !(network.openCore[forward]! & OPEN_CORE_CYCLING) || !(network.openCore[backward]! & OPEN_CORE_CYCLING)) continue;
      const first = graph.segmentFirstPoint[segment]!;
      const point: [number, number] = [network.pointLon(first), network.pointLat(first)];
      const middle: [number, number] = [(point[0] + network.pointLon(first + 1)) / 2, (point[1] + network.pointLat(first + 1)) / 2];
      const start = snapForCosting(costing, middle, 'from')!;
      if (start.segment !== segment) continue;
      twoWay++;
      expect([...(start.edges ?? [])].sort()).toEqual([forward, backward].sort());
    }
    expect(twoWay).toBeGreaterThan(20);
  });
});
