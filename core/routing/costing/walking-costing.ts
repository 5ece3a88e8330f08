import { EDGE_WALKING, NODE_BARRIER_NO_WALKING, WALK_CARRIAGEWAY, walkKindOf } from '../../graph/flags.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { Costing, NO_COSTLIER_EDGES, type CostOptions } from './costing.ts';
import { WALKING_SPEED_MPS } from './speeds.ts';
import { WALK_CARRIAGEWAY_FACTOR } from './weights.ts';

/**
 * The walking costing (Valhalla's `PedestrianCost`): walking time, the carriageway weighed as the
 * fallback where no pavement is mapped, barriers that stop pedestrians. Walking does not obey turn
 * restrictions (spec 1.2.10), and neither the time of day nor accepted reports or no-ride zones,
 * which are about riding, change what it costs: its costs are never more than its least costs.
 */
export class WalkingCosting extends Costing {
  constructor(network: RoutingNetwork, options: CostOptions) {
    super(network, options, null, null, {
      usableFlag: EDGE_WALKING,
      obeysRestrictions: false,
      metric: 'walking',
      minSecondsPerMetre: 1 / WALKING_SPEED_MPS,
      avoidsHills: false,
      costlier: NO_COSTLIER_EDGES,
      turnsReadGeometry: false,
    });
  }

  override travelsNormally(edge: number): boolean {
    return this.usable(edge);
  }

  override joinSeconds(metres: number): number {
    return metres / WALKING_SPEED_MPS;
  }

  override edgeCost(edge: number): number {
    return this.tabledLeastEdgeCost(edge);
  }

  protected override travelSeconds(_edge: number, flags: number, length: number): number {
    return (length / WALKING_SPEED_MPS) * (walkKindOf(flags) === WALK_CARRIAGEWAY ? WALK_CARRIAGEWAY_FACTOR : 1);
  }

  /** Reads neither bearings nor the junction's roads (`ModeFacts.turnsReadGeometry` is false). */
  protected override transitionSeconds(_from: number, _to: number, node: number): number {
    return this.network.graph.nodeFlags[node]! & NODE_BARRIER_NO_WALKING ? Infinity : 0;
  }
}
