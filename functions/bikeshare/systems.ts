import { cities, type BikeShareSystem, type CityId } from '../../core/cities/index.ts';
import type { FeedAdapter } from '../../platform/bike-share-feeds.ts';
import type { ApiType } from './model.ts';

/**
 * The cities' bike-share systems as the ingestion and the readers go through them. Where each
 * publishes its feed, and which adapter reads it, is the deployment's setting
 * (platform/bike-share-feeds.ts).
 */

/** The `api_type` a station of a system read by this adapter reports (spec 2.6). */
export const apiTypeOf = (adapter: FeedAdapter): ApiType => (adapter === 'tfl-bikepoint' ? 'tfl_bikepoint' : 'gbfs');

export interface CitySystem {
  readonly city: CityId;
  readonly system: BikeShareSystem;
}

/** The systems of a city, in the order cities.ts lists them. */
export const systemsOf = (city: CityId): CitySystem[] => cities[city].bikeShare.map((system) => ({ city, system }));
