import type { CityId } from '../../core/cities/index.ts';
import { bikeShareOf, type BikeShareView } from '../bikeshare/loader.ts';
import { getCustomRoute, type CustomRouteItem } from '../customroutes/records.ts';
import { batchGet, destinationView, getDestination } from '../events/catalogue.ts';
import type { CategoryItem, Destination } from '../events/model.ts';
import type { RoutingLoaders } from '../graphs/context-loader.ts';
import { citySpots, type SpotIndex, type SpotKind } from './parking/spots.ts';

/**
 * What the multi-modal planner reads besides the routing graph: live bike share (the snapshots
 * in S3, functions/bikeshare/loader.ts), parking spots, saved custom routes and event
 * destinations. One interface, so tests can plan on the real graphs with hand-made bike-share
 * systems, zones or bays next to the recorded ones.
 */
export interface PlannerSources {
  bikeShare(city: CityId): Promise<BikeShareView>;
  spots(city: CityId, kind: SpotKind): Promise<SpotIndex | null>;
  customRoute(routeId: string): Promise<CustomRouteItem | null>;
  destination(id: number): Promise<Destination | null>;
  /** The graph and report overlay; S3 and DynamoDB when absent (functions/graphs/context-loader.ts). */
  routing?: RoutingLoaders;
}

async function destinationRecord(id: number): Promise<Destination | null> {
  const item = await getDestination(id);
  if (!item) return null;
  const categories = await batchGet<CategoryItem>('categories', 'category_id', item.category_ids.map(String));
  return destinationView(item, new Map(categories.map((category) => [category.id, category])));
}

export const platformSources: PlannerSources = {
  bikeShare: (city) => bikeShareOf([city]),
  spots: citySpots,
  customRoute: getCustomRoute,
  destination: destinationRecord,
};
