import { describe, expect, it } from 'vitest';
import type { LonLat } from '../../core/geo.ts';
import { locateReports } from '../../core/routing/avoidances/locate-avoidances.ts';
import { costingFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { chooseRoad, nearbyRoads } from '../../functions/reports/locate-report.ts';
import { benchContext } from '../bench/route-quality.ts';
import { realGraph } from './real-graphs.ts';

/**
 * The README's report walk-through on the real London graph: its route rides the Byng Place
 * cycle track, and a `road_closed` report filed there is located on that track (the way a bike
 * rides), never on the pedestrian area of the same name beside it, so accepting it moves the route
 * onto the carriageway. Both the point the walk-through files now, on the track, and the point it
 * first filed, 0.4 m from the pedestrian area, must do it.
 */

const README_ROUTE: LonLat[] = [[-0.1328, 51.5212], [-0.124, 51.5255]];
const REPORT_POINTS: LonLat[] = [[-0.13106, 51.52338], [-0.131, 51.5234]];

const byngPlace = (context: RoutingContext) => {
  const costing = costingFor(context, { profile: 'cycling', supersafe: true, night: false });
  const planned = planWaypoints(costing, context, README_ROUTE, { language: 'en' });
  const path = planned.legs![0]!.path;
  return {
    steps: planned.legs![0]!.steps.filter((step) => step.name === 'Byng Place').map((step) => step.safety_classification),
    ways: new Set(path.edges.map((edge) => context.loaded.network.graph.segmentWayId[edge.segment]!)),
    edges: new Set(path.edges.map((edge) => edge.edge)),
  };
};

describe('the README report walk-through', () => {
  it('routes along the Byng Place cycle track before any report, without pushing the bike', () => {
    const context = benchContext('london', realGraph('london'), '2026-06-15T08:30');
    expect(byngPlace(context).steps).toEqual(['cycleway']);
    const costing = costingFor(context, { profile: 'cycling', supersafe: true, night: false });
    const path = planWaypoints(costing, context, README_ROUTE, { language: 'en' }).legs![0]!.path;
    expect(path.edges.filter((edge) => edge.pushed)).toEqual([]);
  });

  it.each(REPORT_POINTS.map((point) => [point]))('locates a closure filed at %j on the track the route rides, and the route then keeps off it', (point) => {
    const loaded = realGraph('london');
    const before = byngPlace(benchContext('london', loaded, '2026-06-15T08:30'));
    for (const roadName of ['Byng Place', null]) {
      const { road } = chooseRoad(nearbyRoads(loaded.network, point), roadName, 'road_closed');
      expect(road?.safety_class, `named ${roadName}`).toBe('cycleway');
      expect(before.ways.has(road!.way_id), `named ${roadName}`).toBe(true);
      const context = benchContext('london', loaded, '2026-06-15T08:30');
      context.reports = locateReports(loaded.network, [{
        city: 'london', report_id: 'walk-through', effect: 'closed', issue_type: 'road_closed', issue_subtype: 'barrier_gate',
        location: point, way_id: road!.way_id, road_name: road!.name, until: null, accepted_at: '2026-06-15T07:00:00.000Z',
      }]);
      const closed = context.reports.avoidances[0]!.edges;
      expect(closed.some((edge) => before.edges.has(edge))).toBe(true);
      const after = byngPlace(context);
      expect(closed.some((edge) => after.edges.has(edge))).toBe(false);
      expect(after.steps).toEqual(['moderate']);
    }
  });
});
