import { beforeAll, describe, expect, it } from 'vitest';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import type { Profile } from '../../core/graph/profiles.ts';
import { localMinutes } from '../../core/local-time.ts';
import { buildPath } from '../../core/routing/path/path.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snapForCosting } from '../../core/routing/snap/snap.ts';
import { costingFor } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { randomPairs } from '../bench/measure.ts';
import { benchContext, EVENING_DEPARTURE } from '../bench/route-quality.ts';
import { OsmChecker, type Violation } from './osm-checker.ts';
import { realGraph } from './real-graphs.ts';

/**
 * Random real New York routes judged by an independent checker (osm-checker.ts) that reads the
 * raw OpenStreetMap tags itself: no way or barrier the tags close to the profile, no pavement or
 * crosswalk used by a cycling route, no foot-only way presented as ridden, and no turn
 * restriction broken (spec 1.2.4). The routes are planned as the directions endpoint plans them
 * (snapping, the search, direct held to supersafe's length), on a weekday morning and evening.
 */

const PAIRS = 150;
const departureMinute = localMinutes(2026, 6, 15, 8, 0);
const DEPARTURES = ['2026-06-15T08:00', EVENING_DEPARTURE];
let checker: OsmChecker;

beforeAll(async () => {
  checker = await OsmChecker.load('new-york');
}, 120_000);

describe('New York routes against the raw OpenStreetMap tags', () => {
  const cases: { mode: string; profile: Profile; supersafe: boolean; departure: string }[] = DEPARTURES.flatMap((departure) => [
    { mode: 'supersafe cycling', profile: 'cycling' as const, supersafe: true, departure },
    { mode: 'direct cycling', profile: 'cycling' as const, supersafe: false, departure },
    { mode: 'walking', profile: 'walking' as const, supersafe: false, departure },
  ]);
  it.each(cases)('$mode breaks no rule, departing $departure', ({ profile, supersafe, departure }) => {
    const loaded = realGraph('new-york');
    const { network } = loaded;
    const context = benchContext('new-york', loaded, departure);
    const costing = costingFor(context, { profile, supersafe, night: false });
    const violations: Violation[] = [];
    let routed = 0;
    for (const [a, b] of randomPairs(network, profile === 'walking' ? PAIRS / 3 : PAIRS, 1000, 4000, 7573898)) {
      const planned = planWaypoints(costing, context, [[network.nodeLon(a), network.nodeLat(a)], [network.nodeLon(b), network.nodeLat(b)]], { language: 'en' });
      if (!planned.legs) continue;
      routed++;
      violations.push(...checker.judge(network, planned.legs[0]!.path, profile));
    }
    expect(routed).toBeGreaterThan((profile === 'walking' ? PAIRS / 3 : PAIRS) * 0.9);
    expect(violations).toEqual([]);
  });

  it('never passes a closed gate, even between its two sides', () => {
    const { network, workspace } = realGraph('new-york');
    const graph = network.graph;
    const costing = createCosting(network, { profile: 'cycling', supersafe: false, night: false, departureMinute });
    const open = (edge: number) => costing.openAtDeparture(edge);
    const closed = new Set(checker.closedBarriers('cycling'));
    const violations: Violation[] = [];
    let tried = 0;
    for (let node = 0; node < graph.nodeCount; node++) {
      if (!closed.has(`${graph.nodeCoords[2 * node]},${graph.nodeCoords[2 * node + 1]}`)) continue;
      // A gate on a rideable way: from the node before it to a node after it, where the way goes on.
      const before = [...graph.inEdges.subarray(graph.firstIn[node]!, graph.firstIn[node + 1]!)].filter((edge) => costing.usable(edge)).map((edge) => graph.edgeTail[edge]!);
      const after: number[] = [];
      for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) if (costing.usable(edge)) after.push(graph.edgeHead[edge]!);
      const a = before[0];
      const b = after.find((candidate) => candidate !== a);
      if (a === undefined || b === undefined) continue;
      const from = snapForCosting(costing, [network.nodeLon(a), network.nodeLat(a)]);
      const to = snapForCosting(costing, [network.nodeLon(b), network.nodeLat(b)], 'to');
      if (!from || !to) continue;
      const result = findRoute(costing, workspace, positionsAt(network, open, from), positionsAt(network, open, to), to.location);
      if (!result) continue;
      tried++;
      violations.push(...checker.judge(network, buildPath(network, result, 'cycling'), 'cycling').filter((violation) => violation.rule === 'barrier'));
    }
    // Private and locked gates stand on rideable ways across the extract (the two among them).
    expect(tried).toBeGreaterThan(5);
    expect(violations).toEqual([]);
  });
});

