import { randomUUID } from 'node:crypto';
import { cityForCoordinates } from '../../core/cities/index.ts';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import type { PlannedLeg } from '../../core/routing/planning/leg.ts';
import type { RoutePlanner } from '../../core/routing/planning/planner.ts';
import { routingContext, type RoutingLoaders } from '../graphs/context-loader.ts';
import { routePlanner } from '../directions/route-planner.ts';
import { routePreferencesOf } from '../directions/request.ts';
import { measureRoute, roundedFigures, type RouteFigures } from './figures.ts';
import type { ExplainRequest } from './request.ts';
import { explain, type Cost, type Template } from './sentence.ts';

/**
 * POST /explain-supersafe/ as domain logic (spec 4.3): plans the supersafe and the direct cycling
 * route for the request with the route planner directions uses (core/routing/planning/planner.ts,
 * so the same snapping, night, departure and preferences), measures both (figures.ts) and says in
 * one sentence what the safer route does differently (sentence.ts).
 */

export interface ExplainBody {
  /** The sentence, in the request's language; null when no route joins the coordinates. */
  explanation: string | null;
  search_id: string;
  /** Whether the two routes are the same; null when there is no route. */
  same_route: boolean | null;
  /** Which sentence was chosen and which cost clause ended it (docs/explain.md). */
  template: Template | null;
  cost: Cost | null;
  /** The measured figures of both routes the sentence was chosen from. */
  figures: { supersafe: RouteFigures; direct: RouteFigures } | null;
  graph_version: string;
  /** `alternative`, beyond the spec: which of the direct route's alternatives `direct` is (absent: the direct route). */
  metadata: { nighttime: boolean; waypoint_count: number; avoid_hills: boolean; alternative?: number };
}

export type ExplainOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'explained'; body: ExplainBody };

/** The legs of one variant, as directions plans them; null when a coordinate cannot be reached. */
function planVariant(planner: RoutePlanner, request: ExplainRequest, supersafe: boolean): PlannedLeg[] | null {
  return planner.route({ profile: 'cycling', supersafe }, request.coordinates).legs;
}

/**
 * The direct route's alternative number `index` (1 the first), as directions lists them for
 * `supersafe: false, alternatives: true`; null where there is no route or fewer alternatives.
 */
function planDirectAlternative(planner: RoutePlanner, request: ExplainRequest, index: number): PlannedLeg[] | null {
  const variant = { profile: 'cycling' as const, supersafe: false };
  const [from, to] = request.coordinates;
  const route = planner.route(variant, request.coordinates);
  const alternative = planner.alternatives(variant, [from!, to!], route, ALTERNATIVES.maxCount)[index - 1];
  return alternative ? [alternative.leg] : null;
}

const geometryOf = (legs: readonly PlannedLeg[]) => JSON.stringify(legs.map((leg) => leg.path.coordinates));

/**
 * Whether the two routes would be one without the hill preference: then the preference is what
 * sets them apart, and the sentence says how much each climbs.
 */
function sameWithoutHills(planner: RoutePlanner, request: ExplainRequest): boolean {
  const withoutHills = planner.withPreferences({ ...planner.preferences, avoidHills: false });
  const safe = planVariant(withoutHills, request, true);
  const direct = planVariant(withoutHills, request, false);
  return safe !== null && direct !== null && geometryOf(safe) === geometryOf(direct);
}

export async function explainSupersafe(request: ExplainRequest, now: Date, loaders?: RoutingLoaders): Promise<ExplainOutcome> {
  const searchId = randomUUID();
  const city = cityForCoordinates(request.coordinates);
  if (!city) return { kind: 'cross-city', searchId };
  const context = await routingContext(city, request.departure_time, now, { cycling: true, loaders });
  const preferences = routePreferencesOf(request);
  const planner = routePlanner(context, preferences, request.coordinates[0]!);
  const night = planner.night;
  const body: ExplainBody = {
    explanation: null,
    search_id: searchId,
    same_route: null,
    template: null,
    cost: null,
    figures: null,
    graph_version: context.loaded.version,
    metadata: { nighttime: night, waypoint_count: request.coordinates.length, avoid_hills: preferences.avoidHills },
  };
  if (request.alternative !== undefined) body.metadata.alternative = request.alternative;
  const safe = planVariant(planner, request, true);
  const direct = request.alternative === undefined ? planVariant(planner, request, false) : planDirectAlternative(planner, request, request.alternative);
  if (!safe || !direct) return { kind: 'explained', body };

  const network = context.loaded.network;
  const figures = {
    supersafe: measureRoute(network, safe.map((leg) => leg.path)),
    direct: measureRoute(network, direct.map((leg) => leg.path)),
  };
  const same = geometryOf(safe) === geometryOf(direct);
  const explanation = explain(preferences.language, figures.supersafe, figures.direct, { same, night, hillsParted: !same && preferences.avoidHills && request.alternative === undefined && sameWithoutHills(planner, request) });
  return {
    kind: 'explained',
    body: {
      ...body,
      explanation: explanation.sentence,
      same_route: same,
      template: explanation.template,
      cost: explanation.cost,
      figures: { supersafe: roundedFigures(figures.supersafe), direct: roundedFigures(figures.direct) },
    },
  };
}
