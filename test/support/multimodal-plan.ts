import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { readFeedDocument, readPricingPlans } from '../../functions/bikeshare/gbfs.ts';
import { SNAPSHOT_FORMAT, type BikeShareSnapshot, type Geofencing, type PricingPlan, type Station, type Vehicle } from '../../functions/bikeshare/model.ts';
import { planDirections } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';
import { planMultiModal } from '../../functions/multimodal/plan.ts';
import type { MultiModalBody } from '../../functions/multimodal/response.ts';
import { multiModalRequest } from '../../functions/multimodal/request.ts';
import type { PlannerSources } from '../../functions/multimodal/sources.ts';
import { FIXED_NOW } from './clock.ts';

/** Planning multi-modal options in process on the real graphs, and building hand-made systems. */

/** Noon in June: no route depends on when the test runs (parks close at night). */
export const NOON = '2026-06-15T12:00';

export async function plan(body: Record<string, unknown>, sources: PlannerSources): Promise<MultiModalBody> {
  const outcome = await planMultiModal(multiModalRequest.parse({ departure_time: NOON, ...body }), FIXED_NOW, sources);
  if (outcome.kind !== 'planned') throw new Error(`not planned: ${JSON.stringify(body)}`);
  return outcome.body;
}

/** The route /directions/v2/ answers for the coordinates, as planned by its own code. */
export async function directionsRoute(coordinates: readonly LonLat[], options: Record<string, unknown> = {}) {
  const outcome = await planDirections(directionsRequest.parse({ coordinates: coordinates.map(([lon, lat]) => [lon, lat]), departure_time: NOON, ...options }));
  if (outcome.kind !== 'routed') throw new Error('cross-city');
  return outcome.body.route;
}

export function station(id: string, at: LonLat, counts: Partial<Station> = {}): Station {
  return {
    station_id: id,
    name: `Station ${id}`,
    lat: at[1],
    lon: at[0],
    capacity: 20,
    is_virtual: false,
    is_installed: true,
    is_renting: true,
    is_returning: true,
    last_reported: 1_781_517_600,
    num_bikes_available: 5,
    num_ebikes_available: 2,
    num_docks_available: 10,
    vehicle_types_available: null,
    rental_uris: null,
    ...counts,
  };
}

export function vehicle(id: string, at: LonLat, fields: Partial<Vehicle> = {}): Vehicle {
  return {
    vehicle_id: id,
    lat: at[1],
    lon: at[0],
    is_reserved: false,
    is_disabled: false,
    vehicle_type_id: 'ebike',
    form_factor: 'bicycle',
    propulsion_type: 'electric_assist',
    is_electric: true,
    vehicle_type: 'electric_bike',
    current_range_meters: 30_000,
    last_reported: 1_781_517_600,
    pricing_plan_id: null,
    rental_uris: { android: `https://example.test/rent/${id}`, ios: `https://example.test/rent/${id}` },
    ...fields,
  };
}

/** A hand-made system in a city: its stations, dockless vehicles, zones and pricing. */
export function handMadeSystem(input: {
  city: CityId;
  id: string;
  brand: string;
  provider?: string;
  stations?: Station[];
  vehicles?: Vehicle[];
  geofencing?: Geofencing | null;
  pricingPlans?: PricingPlan[];
}): BikeShareSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    system_id: input.id,
    city: input.city,
    brand: input.brand,
    provider: input.provider ?? input.brand,
    api_type: 'gbfs',
    written_at: 1_781_517_600,
    discovery: null,
    feeds: {},
    system: null,
    stations: input.stations ?? [],
    vehicles: input.vehicles ?? [],
    vehicle_types: [],
    geofencing: input.geofencing ?? null,
    pricing_plans: input.pricingPlans ?? [],
  };
}

/** The three plans of Divvy's real GBFS 2.3 pricing feed (a reference set; no city of ours records one). */
export function divvyPricingPlans(): PricingPlan[] {
  const file = join(sharedDataPath(), 'gbfs/_reference-divvy-chicago-lyft-2.3/2025-01-29T0947Z/system_pricing_plans.json');
  return readPricingPlans(readFeedDocument('system_pricing_plans', JSON.parse(readFileSync(file, 'utf8'))), 'en').plans;
}
