import type { RoutingNetwork } from '../network/network.ts';
import type { CostMetric, CostOptions, Costing } from './costing.ts';
import { CyclingCosting } from './cycling-costing.ts';
import { GradedSafetyCosting } from './graded-costing.ts';
import type { RouteOverlay } from './overlay.ts';
import { WalkingCosting } from './walking-costing.ts';

/**
 * The one place a profile chooses its costing (as Valhalla's cost factory does): every other
 * module asks the `Costing` it gets and never the profile.
 */
export function createCosting(
  network: RoutingNetwork,
  options: CostOptions,
  /** Effects of accepted road reports on this graph (overlay.ts): cycling only. */
  overlay: RouteOverlay | null = null,
  /** Edges a rented vehicle may not be ridden on (1): cycling only. */
  noRide: Uint8Array | null = null,
): Costing {
  if (options.profile !== 'cycling') return new WalkingCosting(network, options);
  return options.safety !== undefined ? new GradedSafetyCosting(network, options, overlay, noRide) : new CyclingCosting(network, options, overlay, noRide);
}

/** The costing whose least costs and turn costs define a metric (departure and lighting do not enter them). */
export function metricCosting(network: RoutingNetwork, metric: CostMetric): Costing {
  return createCosting(network, {
    profile: metric === 'walking' ? 'walking' : 'cycling',
    supersafe: metric === 'cycling-supersafe',
    night: false,
    departureMinute: 0,
  });
}
