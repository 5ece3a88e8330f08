import type { RoutingNetwork } from '../network/network.ts';
import { Costing, type CostOptions, type MetricShare } from './costing.ts';
import { CyclingCosting } from './cycling-costing.ts';
import type { RouteOverlay } from './overlay.ts';
import { isGradedSafety } from './safety.ts';

/**
 * The graded safety costing (`CostOptions.safety`, safety.ts): every cost is the convex
 * combination (1 - s) x direct + s x supersafe of the two cycling costings' answers for the same
 * request, edge by edge and turn by turn, each with its own rules at the departure (closures,
 * night, reports, no-ride zones). Nothing new is stored: the edge and turn costs are read from
 * both metrics' stored tables, and since each metric's search bounds are lower bounds of its own
 * costs, the same combination of them (`metricShares`, read by the heuristic) is a lower bound
 * of the combined cost, so A* stays exact. As s rises, a route's supersafe cost can only fall and
 * its direct cost only rise (the optimum of a weighted sum moves along the two costs' trade-off),
 * which is what makes the grades monotone (docs/routing.md, "Graded safety").
 */
export class GradedSafetyCosting extends Costing {
  private readonly direct: CyclingCosting;
  private readonly supersafe: CyclingCosting;
  /** 1 - s and s. */
  private readonly directShare: number;
  private readonly supersafeShare: number;
  /** Both metrics' least costs (`leastCostTable`), fetched on the first `leastEdgeCost`. */
  private metricLeastCosts: { direct: Float32Array | null; supersafe: Float32Array | null } | undefined;

  constructor(network: RoutingNetwork, options: CostOptions, overlay: RouteOverlay | null = null, noRide: Uint8Array | null = null) {
    const safety = options.safety;
    if (safety === undefined || !isGradedSafety(safety)) throw new RangeError(`A graded safety lies strictly between 0 and 1, not ${safety}`);
    const direct = new CyclingCosting(network, { ...options, supersafe: false, safety: undefined }, overlay, noRide);
    const supersafe = new CyclingCosting(network, { ...options, supersafe: true, safety: undefined }, overlay, noRide);
    super(network, { ...options, supersafe: false }, overlay, noRide, {
      usableFlag: direct.usableFlag,
      obeysRestrictions: direct.obeysRestrictions,
      metric: 'cycling-graded',
      minSecondsPerMetre: (1 - safety) * direct.minSecondsPerMetre + safety * supersafe.minSecondsPerMetre,
      avoidsHills: direct.avoidsHills,
      costlier: direct.costlier,
      turnsReadGeometry: true,
    });
    this.direct = direct;
    this.supersafe = supersafe;
    this.directShare = 1 - safety;
    this.supersafeShare = safety;
  }

  /** Each metric's own shares (scaled for a bicycle type other than `hybrid`) times its part of the blend. */
  override metricShares(): readonly MetricShare[] {
    return [
      ...this.direct.metricShares().map(({ metric, share }) => ({ metric, share: share * this.directShare })),
      ...this.supersafe.metricShares().map(({ metric, share }) => ({ metric, share: share * this.supersafeShare })),
    ];
  }

  /** The bicycle type's speed on the edge (both metrics ride one bicycle). */
  override ridingSpeedOn(edge: number): number {
    return this.direct.ridingSpeedOn(edge);
  }

  override travelsNormally(edge: number): boolean {
    return this.direct.travelsNormally(edge);
  }

  override joinSeconds(metres: number): number {
    return this.directShare * this.direct.joinSeconds(metres) + this.supersafeShare * this.supersafe.joinSeconds(metres);
  }

  override edgeCost(edge: number): number {
    return this.directShare * this.direct.edgeCost(edge) + this.supersafeShare * this.supersafe.edgeCost(edge);
  }

  /** Combined from both metrics' stored least costs (the graded costing has no table of its own). */
  override leastEdgeCost(edge: number): number {
    this.metricLeastCosts ??= { direct: this.direct.leastCostTable(), supersafe: this.supersafe.leastCostTable() };
    const { direct, supersafe } = this.metricLeastCosts;
    const directCost = direct ? direct[edge]! : this.direct.leastEdgeCost(edge);
    const supersafeCost = supersafe ? supersafe[edge]! : this.supersafe.leastEdgeCost(edge);
    return this.directShare * directCost + this.supersafeShare * supersafeCost;
  }

  /** Combined from both metrics' turn costs (their stored tables), each with the overlay's removed turns. */
  override turnCost(from: number, to: number): number {
    return this.directShare * this.direct.turnCost(from, to) + this.supersafeShare * this.supersafe.turnCost(from, to);
  }

  protected override travelSeconds(edge: number, flags: number, length: number): number {
    return this.directShare * this.direct.travelSeconds(edge, flags, length) + this.supersafeShare * this.supersafe.travelSeconds(edge, flags, length);
  }

  protected override transitionSeconds(from: number, to: number, node: number, arriving: number, leaving: number, busiest: number): number {
    return (
      this.directShare * this.direct.transitionSeconds(from, to, node, arriving, leaving, busiest) +
      this.supersafeShare * this.supersafe.transitionSeconds(from, to, node, arriving, leaving, busiest)
    );
  }
}
