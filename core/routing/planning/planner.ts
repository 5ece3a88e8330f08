import type { LonLat, Position } from '../../geo.ts';
import type { Profile } from '../../graph/profiles.ts';
import type { Language } from '../../language.ts';
import type { Costing } from '../costing/costing.ts';
import { DEFAULT_BICYCLE_TYPE, type BicycleType } from '../costing/bicycle-types.ts';
import { DIRECT_SAFETY, SUPERSAFE_SAFETY } from '../costing/safety.ts';
import type { Disruption } from '../disruptions/disruptions.ts';
import type { Snap } from '../snap/snap.ts';
import { checkRouteLength, RouteBudget } from './budget.ts';
import { costingFor, disruptionsAlong, nightFor, type RoutingContext } from './context.ts';
import { planAlternatives, type AlternativeLeg } from './alternatives.ts';
import { planWaypoints, snapPoint, type LegOptions, type PlannedWaypoints } from './leg.ts';

/**
 * The one way to plan a route, for every endpoint that plans them (directions, explain-supersafe,
 * each multi-modal option): a planner per request, made from its routing context (context.ts),
 * the rider's route preferences and where the trip starts. It decides night once for the trip,
 * makes each costing once and snaps each coordinate once per costing, so a request that plans
 * many routes (explain's two variants, multi-modal's options and their walks) shares them; each
 * route is planned by the engine's leg planning (leg.ts), within the request's compute budget
 * (budget.ts: each route's straight-line length checked before its searches, and the states all
 * of the request's searches settle counted against one limit). What a route took (its planning time;
 * each leg's states settled) comes back with it and is told to `onPlanned`, where the endpoints
 * record it (functions/directions/route-planner.ts): the engine measures, it does not publish.
 */

/**
 * The rider's route preferences: every field of a request that shapes its routes beyond where
 * they go and which variant is asked. A validated request's are read by one function,
 * `routePreferencesOf` (functions/directions/request.ts); the planner is the only reader of this type.
 */
export interface RoutePreferences {
  /** The language of the steps' instructions. */
  language: Language;
  /** The hill preference (`avoid_hills`, docs/routing.md "Hills"): cycling routes avoid climbing. */
  avoidHills: boolean;
  /** Night routing forced on or off (spec 4.1 `nighttime`); when absent the sun at the trip's start decides. */
  nighttime?: boolean;
  /** Cycling: only leave the trip's start within 45 degrees of this bearing (spec 4.1). */
  bearing?: number;
  /**
   * Beyond the spec: the graded safety (`safety`, costing/safety.ts) of the routes asked as
   * supersafe (`RouteVariant.supersafe`), from 0 (then they are the direct route) to 1; the
   * supersafe route itself when absent. Direct routes stay direct.
   */
  safety?: number;
  /**
   * Beyond the spec: the bicycle type (`bicycle_type`, costing/bicycle-types.ts) every cycling
   * route of the request is planned for; `hybrid`, the spec's rider, when absent.
   */
  bicycleType?: BicycleType;
}

/** Which of a request's routes: the mode and, cycling, supersafe or direct, on a rented bike its no-ride zones and speed. */
export interface RouteVariant {
  profile: Profile;
  /** Cycling: the supersafe route; else the direct one. Ignored for walking. */
  supersafe: boolean;
  /** Edges a rented vehicle may not ride (an operator's no-ride zones); cycling only. */
  noRide?: Uint8Array | null;
  /** Metres per second of the ridden edges (an e-bike's 22 km/h); the profile's own speed by default. */
  ridingSpeed?: number;
}

/** A route through a request's coordinates as planned, with the costing it was planned under and what it took. */
export interface PlannedRoute extends PlannedWaypoints {
  costing: Costing;
  /** Milliseconds spent snapping, searching and guiding its legs (their search effort: each leg's `statesSettled`). */
  milliseconds: number;
}

export interface PlannerOptions {
  /** Told of every route the planner plans, routed or null. */
  onPlanned?: (route: PlannedRoute) => void;
  /** The request's compute budget, shared by every route the request plans; the documented one by default. */
  budget?: RouteBudget;
}

export class RoutePlanner {
  /** Whether the trip's cycling routes are planned as at night (spec 1.2.2), judged once at its start. */
  readonly night: boolean;
  private readonly costings = new Map<string, Costing>();
  private readonly snaps = new Map<Costing, Map<string, Snap | null>>();
  private readonly masks = new Map<Uint8Array, number>();
  /** The states the request's searches may still settle, whichever of its planners plans them. */
  readonly budget: RouteBudget;

  constructor(
    readonly context: RoutingContext,
    readonly preferences: RoutePreferences,
    /** Where the trip starts: night is judged there, and `bearing` holds for routes leaving it. */
    readonly start: LonLat,
    private readonly options: PlannerOptions = {},
  ) {
    this.night = nightFor(context, start, preferences.nighttime);
    this.budget = options.budget ?? new RouteBudget();
  }

  /**
   * A planner for the same request with other preferences (explain's routes without the hill
   * preference): its own costings and snaps, the same budget and the same `onPlanned`.
   */
  withPreferences(preferences: RoutePreferences): RoutePlanner {
    return new RoutePlanner(this.context, preferences, this.start, { ...this.options, budget: this.budget });
  }

  /** The costing of a variant, made once per request (per no-ride mask for rented bikes). */
  costing(variant: RouteVariant): Costing {
    const safety = variant.supersafe ? (this.preferences.safety ?? SUPERSAFE_SAFETY) : DIRECT_SAFETY;
    const bicycleType = this.preferences.bicycleType ?? DEFAULT_BICYCLE_TYPE;
    const kind = variant.profile === 'walking' ? 'walking' : `safety ${safety} ${bicycleType}`;
    const noRide = variant.noRide ?? null;
    const key = `${kind}:${noRide ? this.maskId(noRide) : ''}`;
    let costing = this.costings.get(key);
    if (!costing) {
      costing = costingFor(this.context, { profile: variant.profile, supersafe: variant.supersafe, safety, night: this.night, noRide, avoidHills: this.preferences.avoidHills, bicycleType });
      this.costings.set(key, costing);
    }
    return costing;
  }

  private maskId(mask: Uint8Array): number {
    if (!this.masks.has(mask)) this.masks.set(mask, this.masks.size + 1);
    return this.masks.get(mask)!;
  }

  /** Where a coordinate joins the network for a costing, as a leg's start (`from`) or end (`to`); snapped once per request. */
  snap(costing: Costing, point: LonLat, end: 'from' | 'to'): Snap | null {
    let perCosting = this.snaps.get(costing);
    if (!perCosting) this.snaps.set(costing, (perCosting = new Map()));
    const key = `${end}:${point[0]},${point[1]}`;
    if (!perCosting.has(key)) perCosting.set(key, snapPoint(costing, point, end));
    return perCosting.get(key)!;
  }

  /**
   * The route of a variant through `coordinates` in order (leg.ts `planWaypoints`), told to
   * `onPlanned`. Throws `RouteBudgetExceededError` when the route is longer than the budget allows
   * (before any search) or its searches reach the request's limit of settled states.
   */
  route(variant: RouteVariant, coordinates: readonly LonLat[]): PlannedRoute {
    checkRouteLength(variant.profile, coordinates);
    const costing = this.costing(variant);
    const started = performance.now();
    const options = this.legOptions(variant, coordinates);
    const planned = this.budget.within(() => planWaypoints(costing, this.context, coordinates, options, (point, end) => this.snap(costing, point, end)));
    const route: PlannedRoute = { ...planned, costing, milliseconds: performance.now() - started };
    this.options.onPlanned?.(route);
    return route;
  }

  /** What a variant's legs through `coordinates` are planned with: the request's language and budget, and the bearing leaving its start. */
  private legOptions(variant: RouteVariant, coordinates: readonly LonLat[]): LegOptions {
    const fromStart = coordinates[0]![0] === this.start[0] && coordinates[0]![1] === this.start[1];
    // `bearing` is how the rider sets off (spec 4.1: cycling only), so it holds for a route leaving the trip's start.
    const bearing = variant.profile === 'cycling' && fromStart ? this.preferences.bearing : undefined;
    return { language: this.preferences.language, bearing, ridingSpeed: variant.ridingSpeed, allowance: this.budget.allowance };
  }

  /**
   * Up to `count` alternatives to a variant's `route` between two coordinates (alternatives.ts),
   * cheapest first, their searches within the request's budget (a search that reaches it throws
   * `RouteBudgetExceededError`, as the route's do). None where the route was not found.
   */
  alternatives(variant: RouteVariant, coordinates: readonly [LonLat, LonLat], route: PlannedRoute, count: number): AlternativeLeg[] {
    const costing = this.costing(variant);
    const from = this.snap(costing, coordinates[0], 'from');
    const to = this.snap(costing, coordinates[1], 'to');
    const leg = route.legs?.[0];
    if (!leg || !from || !to) return [];
    const options = this.legOptions(variant, coordinates);
    return this.budget.within(() => planAlternatives(costing, this.context.loaded.workspace, from, to, leg, count, options));
  }

  /** Closures, roadworks and accepted reports near a cycling geometry at the departure. */
  disruptionsAlong(coordinates: Position[]): Disruption[] {
    return disruptionsAlong(this.context, coordinates);
  }
}
