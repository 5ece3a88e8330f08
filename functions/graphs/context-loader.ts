import type { City, CityId } from '../../core/cities/index.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { cityGraph } from './graph-store.ts';
import { cityOverlay, type CityOverlay } from './report-overlay.ts';

/**
 * The routing context of a request (core/routing/planning/context.ts) as the endpoints that plan
 * routes (directions, multi-modal, explain-supersafe) load it: the city's graph from S3, its
 * accepted reports from DynamoDB, the departure read in the city's zone. The routes themselves are
 * planned by the route planner made from it (./planner.ts, core/routing/planning/planner.ts).
 */

/** Where a request's graph and report overlay come from: S3 and DynamoDB, or a benchmark's own. */
export interface RoutingLoaders {
  graph(city: CityId): Promise<LoadedGraph>;
  overlay(loaded: LoadedGraph): Promise<CityOverlay>;
}

export const platformLoaders: RoutingLoaders = { graph: (city) => cityGraph(city), overlay: (loaded) => cityOverlay(loaded) };

/** Loads what a request routes on: the city's graph, its departure, and (for cycling) the report overlay. */
export async function routingContext(
  city: City,
  departureTime: string | undefined,
  now: Date,
  options: { cycling: boolean; loaders?: RoutingLoaders },
): Promise<RoutingContext> {
  const loaders = options.loaders ?? platformLoaders;
  const departure = departureIn(city.timeZone, departureTime, now);
  const loaded = await loaders.graph(city.id);
  // Accepted road reports (closures, one-way, removed turns, hazards) bend cycling routes only.
  const reports = options.cycling ? await loaders.overlay(loaded) : null;
  return { city, loaded, departure, reports };
}
