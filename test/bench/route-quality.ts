import type { CityId } from '../../core/cities/index.ts';
import { Costing } from '../../core/routing/costing/costing.ts';
import type { LoadedGraph } from '../../functions/routing/graph-store.ts';
import { buildPath, type RoutedPath } from '../../core/routing/path/path.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snapForCosting } from '../../core/routing/snap/snap.ts';
import { percentile, randomPairs } from './measure.ts';
import { localMinutes } from '../../core/local-time.ts';

/**
 * Route quality on random real pairs, as an outside checker would judge it: how much of each
 * route pushes the bike, and how much of the direct route's busy and shared metres the supersafe
 * route keeps, at what detour. `npm run bench` reports it per city (docs/benchmarks.md).
 */

export interface RouteQuality {
  city: CityId;
  pairs: number;
  /** Per costing: routes with any pushed metre, and the pushed share of all route metres. */
  pushed: Record<'supersafe' | 'direct', { routes: number; metres: number; totalMetres: number }>;
  /** Supersafe busy + shared metres ridden over direct busy + shared metres ridden, summed over the pairs. */
  busySharedKept: number;
  /** The same with pushed metres counted by the class of the way pushed along (footways are shared). */
  busySharedKeptWithPushed: number;
  detourMedian: number;
}

const departureMinute = localMinutes(2026, 6, 15, 8, 0);

function routeBetween(loaded: LoadedGraph, costing: Costing, a: number, b: number): RoutedPath | null {
  const { network, workspace } = loaded;
  const usable = (edge: number) => costing.usable(edge);
  const from = snapForCosting(costing, [network.nodeLon(a), network.nodeLat(a)]);
  const to = snapForCosting(costing, [network.nodeLon(b), network.nodeLat(b)], 'to');
  if (!from || !to) return null;
  const result = findRoute(costing, workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
  return result ? buildPath(network, result, 'cycling') : null;
}

export function routeQuality(city: CityId, loaded: LoadedGraph, count = 300, minMetres = 1000, maxMetres = 4000, seed = 2026): RouteQuality {
  const { network } = loaded;
  const costings = {
    supersafe: new Costing(network, { profile: 'cycling', supersafe: true, night: false, departureMinute }),
    direct: new Costing(network, { profile: 'cycling', supersafe: false, night: false, departureMinute }),
  };
  const quality: RouteQuality = {
    city,
    pairs: 0,
    pushed: { supersafe: { routes: 0, metres: 0, totalMetres: 0 }, direct: { routes: 0, metres: 0, totalMetres: 0 } },
    busySharedKept: 0,
    busySharedKeptWithPushed: 0,
    detourMedian: 0,
  };
  let busySharedSafe = 0;
  let busySharedDirect = 0;
  let withPushedSafe = 0;
  let withPushedDirect = 0;
  const detours: number[] = [];
  for (const [a, b] of randomPairs(network, count, minMetres, maxMetres, seed)) {
    const safe = routeBetween(loaded, costings.supersafe, a, b);
    const direct = routeBetween(loaded, costings.direct, a, b);
    if (!safe || !direct || direct.distance === 0) continue;
    quality.pairs++;
    for (const [name, path] of [['supersafe', safe], ['direct', direct]] as const) {
      const pushed = path.edges.filter((edge) => edge.pushed).reduce((sum, edge) => sum + edge.length, 0);
      quality.pushed[name].metres += pushed;
      quality.pushed[name].totalMetres += path.distance;
      if (pushed > 0) quality.pushed[name].routes++;
    }
    const busyShared = (path: RoutedPath, countPushed: boolean) =>
      path.edges.filter((edge) => (countPushed || !edge.pushed) && (edge.safety === 'busy' || edge.safety === 'shared')).reduce((sum, edge) => sum + edge.length, 0);
    busySharedSafe += busyShared(safe, false);
    busySharedDirect += busyShared(direct, false);
    withPushedSafe += busyShared(safe, true);
    withPushedDirect += busyShared(direct, true);
    detours.push(safe.distance / direct.distance);
  }
  quality.busySharedKept = busySharedDirect > 0 ? busySharedSafe / busySharedDirect : 0;
  quality.busySharedKeptWithPushed = withPushedDirect > 0 ? withPushedSafe / withPushedDirect : 0;
  quality.detourMedian = detours.length ? percentile(detours, 50) : 1;
  return quality;
}
