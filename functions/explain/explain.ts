import { randomUUID } from 'node:crypto';
import { cityForCoordinates } from '../../core/cities/index.ts';
import { costingFor, nightFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { planWaypoints, type PlannedLeg } from '../../core/routing/planning/leg.ts';
import { routingContext, type RoutingLoaders } from '../graphs/context-loader.ts';
import { measureRoute, roundedFigures, type RouteFigures } from './figures.ts';
import type { ExplainRequest } from './request.ts';
import { explain, type Cost, type Template } from './sentence.ts';

/**
 * POST /explain-supersafe/ as domain logic (spec 4.3): plans the supersafe and the direct cycling
 * route for the request exactly as /directions/v2/ plans them (core/routing/planning/leg.ts, with
 * the same snapping, night and departure), measures both (figures.ts) and says in one sentence
 * what the safer route does differently (sentence.ts).
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
  metadata: { nighttime: boolean; waypoint_count: number; avoid_hills: boolean };
}

export type ExplainOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'explained'; body: ExplainBody };

/** The legs of one variant, as planDirections plans them; null when a coordinate cannot be reached. */
function planVariant(context: RoutingContext, request: ExplainRequest, supersafe: boolean, night: boolean, avoidHills = request.avoid_hills): PlannedLeg[] | null {
  const costing = costingFor(context, { profile: 'cycling', supersafe, night, avoidHills });
  return planWaypoints(costing, context, request.coordinates, { language: request.language, bearing: request.bearing }).legs;
}

const geometryOf = (legs: readonly PlannedLeg[]) => JSON.stringify(legs.map((leg) => leg.path.coordinates));

/**
 * Whether the two routes would be one without the hill preference: then the preference is what
 * sets them apart, and the sentence says how much each climbs.
 */
function sameWithoutHills(context: RoutingContext, request: ExplainRequest, night: boolean): boolean {
  const safe = planVariant(context, request, true, night, false);
  const direct = planVariant(context, request, false, night, false);
  return safe !== null && direct !== null && geometryOf(safe) === geometryOf(direct);
}

export async function explainSupersafe(request: ExplainRequest, now: Date, loaders?: RoutingLoaders): Promise<ExplainOutcome> {
  const searchId = randomUUID();
  const city = cityForCoordinates(request.coordinates);
  if (!city) return { kind: 'cross-city', searchId };
  const context = await routingContext(city, request.departure_time, now, { cycling: true, loaders });
  const night = nightFor(context, request.coordinates[0]!, request.nighttime);
  const body: ExplainBody = {
    explanation: null,
    search_id: searchId,
    same_route: null,
    template: null,
    cost: null,
    figures: null,
    graph_version: context.loaded.version,
    metadata: { nighttime: night, waypoint_count: request.coordinates.length, avoid_hills: request.avoid_hills },
  };
  const safe = planVariant(context, request, true, night);
  const direct = planVariant(context, request, false, night);
  if (!safe || !direct) return { kind: 'explained', body };

  const network = context.loaded.network;
  const figures = {
    supersafe: measureRoute(network, safe.map((leg) => leg.path)),
    direct: measureRoute(network, direct.map((leg) => leg.path)),
  };
  const same = geometryOf(safe) === geometryOf(direct);
  const explanation = explain(request.language, figures.supersafe, figures.direct, { same, night, hillsParted: !same && request.avoid_hills && sameWithoutHills(context, request, night) });
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
