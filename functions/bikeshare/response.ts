import { z } from 'zod';
import { beyondTheSpec } from '../http/schema-meta.ts';

/**
 * The answer of GET {app_base_url}/bikes/nearby/ (spec 4.7, 2.6) as zod schemas, for the OpenAPI
 * documents (functions/openapi/), the handler's result type and the contract tests.
 */

const apiType = z.enum(['gbfs', 'tfl_bikepoint']).meta({ description: 'How the system publishes availability: GBFS, or TfL BikePoint (Santander Cycles).' });
const metres = z.number().min(0).meta({ description: 'Great-circle metres from the point asked about.' });

export const stationView = z
  .object({
    station_id: z.string(),
    name: z.string(),
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    num_bikes_available: z.int().min(0),
    num_ebikes_available: z.int().min(0).nullable().meta({ description: 'Beyond the spec: e-bikes among them; null when the feed cannot tell.', ...beyondTheSpec }),
    num_docks_available: z.int().min(0),
    capacity: z.int().min(0),
    is_installed: z.boolean(),
    is_renting: z.boolean(),
    is_returning: z.boolean(),
    last_reported: z.int().meta({ description: 'Unix seconds.' }),
    distance: metres,
    brand: z.string(),
    api_type: apiType,
  })
  .meta({ id: 'Station' });

export const docklessView = z
  .object({
    bike_id: z.string(),
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    is_reserved: z.boolean(),
    is_disabled: z.boolean(),
    vehicle_type: z.string(),
    distance: metres,
    brand: z.string(),
    provider: z.string(),
  })
  .meta({ id: 'DocklessBike' });

export const bikesNearbyResponse = z
  .object({
    stations: z.array(stationView),
    dockless_bikes: z.array(docklessView),
    metadata: z.object({
      total_stations: z.int().min(0),
      total_dockless: z.int().min(0),
      providers: z.array(z.string()),
      systems: z
        .array(
          z.object({
            brand: z.string(),
            provider: z.string(),
            api_type: apiType,
            stations_last_updated: z.string().nullable().meta({ description: "The feed's own time of the stations shown, ISO 8601; null when the system has none." }),
            dockless_last_updated: z.string().nullable(),
          }),
        )
        .meta({ description: "Beyond the spec: how old each system's data is.", ...beyondTheSpec }),
    }),
  })
  .meta({ id: 'BikesNearbyResponse' });
