import type { CityId } from '../../core/cities/index.ts';
import { createCustomRoute, getCustomRoute, type CustomRouteInput } from '../../functions/customroutes/records.ts';

/**
 * The local platform's demo custom routes (spec 2.7): one per city, through real places of the
 * loaded extracts, with fixed UUIDs so docs and scripts can name them in multi-modal requests
 * (`event_id`). A seed that exists is left as it is; the operator's own routes are never touched.
 */

export const DEMO_CUSTOM_ROUTES: readonly { id: string; city: CityId; route: CustomRouteInput }[] = [
  {
    id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f01',
    city: 'london',
    route: {
      name: 'Bloomsbury Squares',
      start: { name: 'Tavistock Square', location: [-0.1296, 51.5247] },
      stops: [{ name: 'Gordon Square', location: [-0.1316, 51.5250] }, { name: 'Bedford Square', location: [-0.1303, 51.5187] }],
      end: { name: 'Russell Square', location: [-0.1249, 51.5228] },
    },
  },
  {
    id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f02',
    city: 'new-york',
    route: {
      name: 'Lower Manhattan Waterfront',
      start: { name: 'The Battery', location: [-74.0159, 40.7038] },
      stops: [{ name: 'South Street Seaport', location: [-74.0027, 40.7063] }],
      end: { name: 'Brooklyn Bridge Park, Pier 1', location: [-73.9967, 40.7003] },
    },
  },
  {
    id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f03',
    city: 'los-angeles',
    route: {
      name: 'UCLA Campus to Westholme Avenue',
      start: { name: 'Westwood Plaza', location: [-118.4452, 34.0689] },
      stops: [{ name: 'Royce Hall', location: [-118.4422, 34.0729] }],
      end: { name: 'Westholme Avenue', location: [-118.434, 34.0622] },
    },
  },
  {
    id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f04',
    city: 'sf-bay',
    route: {
      // San Francisco's hills: Nob Hill, then Russian Hill (the multi-modal answer's legs climb).
      name: 'Over Nob Hill to Lombard Street',
      start: { name: 'Union Square', location: [-122.4075, 37.788] },
      stops: [{ name: 'Grace Cathedral', location: [-122.4131, 37.7918] }],
      end: { name: 'Lombard Street', location: [-122.4187, 37.8021] },
    },
  },
];

export async function seedCustomRoutes(options: { cities: readonly CityId[]; log: (line: string) => void }): Promise<void> {
  for (const seed of DEMO_CUSTOM_ROUTES) {
    if (!options.cities.includes(seed.city) || (await getCustomRoute(seed.id))) continue;
    try {
      const created = await createCustomRoute(seed.route, { seed: `demo-${seed.city}`, routeId: seed.id });
      options.log(`${seed.city}: demo custom route "${created.name}" (${created.route_id})`);
    } catch (error) {
      options.log(`${seed.city}: demo custom route not seeded: ${(error as Error).message}`);
    }
  }
}
