import type { CityId } from '../../core/cities/index.ts';
import { BikeShareView, LoadedSystem } from '../../functions/bikeshare/loader.ts';
import type { BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import type { CustomRouteItem } from '../../functions/customroutes/records.ts';
import type { Destination } from '../../functions/events/model.ts';
import type { PlannerSources } from '../../functions/multimodal/sources.ts';
import { SpotIndex, type SpotDataset } from '../../functions/multimodal/parking/spots.ts';

/**
 * What the multi-modal planner reads, held in memory for tests that plan in process on the real
 * graphs: bike-share snapshots (the recorded ones, or hand-made systems, zones and vehicles),
 * parking datasets, custom routes and destinations.
 */
export function memorySources(input: {
  systems?: readonly BikeShareSnapshot[];
  spots?: readonly SpotDataset[];
  routes?: readonly CustomRouteItem[];
  destinations?: readonly Destination[];
}): PlannerSources {
  const loaded = (input.systems ?? []).map((snapshot) => new LoadedSystem(snapshot));
  const indexes = (input.spots ?? []).map((dataset) => new SpotIndex(dataset));
  return {
    bikeShare: async (city: CityId) => new BikeShareView(loaded.filter((system) => system.snapshot.city === city)),
    spots: async (city, kind) => indexes.find((index) => index.dataset.city === city && index.dataset.kind === kind) ?? null,
    customRoute: async (id) => input.routes?.find((route) => route.route_id === id) ?? null,
    destination: async (id) => input.destinations?.find((destination) => destination.id === id) ?? null,
  };
}
