import type { CityId } from '../../../core/cities/index.ts';
import type { LonLat } from '../../../core/geo.ts';

/**
 * One route per city, offered by the playground's "Sample route" button: a newcomer sees a route
 * without knowing where the loaded map data ends. Each lies where the city's base map draws
 * streets, and its supersafe and direct routes run on visibly different streets, so the page's
 * two lines do not hide each other (test/playground/playground-samples.test.ts):
 * London's from Marylebone to Bloomsbury, New York's from SoHo to Chinatown, Los Angeles' across
 * Westwood and the UCLA campus, and San Francisco's from the Tenderloin to Cow Hollow, over Nob
 * Hill unless the hills are avoided.
 */
export const sampleRoutes: Readonly<Record<CityId, readonly [LonLat, LonLat]>> = {
  london: [[-0.1454, 51.524], [-0.1295, 51.5217]],
  'new-york': [[-74.0057, 40.7256], [-73.9995, 40.7137]],
  'los-angeles': [[-118.4391, 34.076], [-118.4484, 34.0687]],
  'sf-bay': [[-122.4105, 37.785], [-122.435, 37.799]],
};
