import type { CityId } from '../../../core/cities/index.ts';
import type { LonLat } from '../../../core/geo.ts';

/**
 * One route per city that the sample extracts cover (the README's "Points that route"), offered
 * by the playground's "Sample route" button: a newcomer sees a route without knowing where the
 * loaded map data ends. San Francisco's goes from the Tenderloin to Cow Hollow, over Nob Hill
 * unless the hills are avoided.
 */
export const sampleRoutes: Readonly<Record<CityId, readonly [LonLat, LonLat]>> = {
  london: [[-0.1328, 51.5212], [-0.124, 51.5255]],
  'new-york': [[-74.006, 40.7128], [-73.9899, 40.6955]],
  'los-angeles': [[-118.4426, 34.0739], [-118.434, 34.0622]],
  'sf-bay': [[-122.4105, 37.785], [-122.435, 37.799]],
};
