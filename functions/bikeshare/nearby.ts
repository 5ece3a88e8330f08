import type { LonLat } from '../../core/geo.ts';
import type { BikeShareView, Found } from './loader.ts';
import { isAvailableVehicle, isOperationalStation, type ApiType, type Station, type Vehicle } from './model.ts';

/**
 * `GET /bikes/nearby/` (spec 4.7) as domain logic: stations that are installed and renting and
 * dockless vehicles that are neither reserved nor disabled, within the radius, nearest first by
 * great-circle distance, at most `limit` of each. The totals count every match in the radius
 * before the limit.
 */

export const DEFAULT_BIKES_RADIUS_METRES = 1000;
export const DEFAULT_BIKES_LIMIT = 200;
export const MAX_BIKES_LIMIT = 1000;

export interface BikesNearbyQuery {
  latitude: number;
  longitude: number;
  radius: number;
  limit: number;
}

/** Spec 2.6, plus `num_ebikes_available` (null when the feed cannot tell). */
export interface StationView {
  station_id: string;
  name: string;
  lat: number;
  lon: number;
  num_bikes_available: number;
  num_ebikes_available: number | null;
  num_docks_available: number;
  capacity: number;
  is_installed: boolean;
  is_renting: boolean;
  is_returning: boolean;
  last_reported: number;
  distance: number;
  brand: string;
  api_type: ApiType;
}

/** Spec 2.6. */
export interface DocklessView {
  bike_id: string;
  lat: number;
  lon: number;
  is_reserved: boolean;
  is_disabled: boolean;
  vehicle_type: string;
  distance: number;
  brand: string;
  provider: string;
}

export interface SystemFreshness {
  brand: string;
  provider: string;
  api_type: ApiType;
  /** The feeds' own times of the data shown, ISO 8601; null when the system has none of that kind. */
  stations_last_updated: string | null;
  dockless_last_updated: string | null;
}

export interface BikesNearbyBody {
  stations: StationView[];
  dockless_bikes: DocklessView[];
  metadata: {
    total_stations: number;
    total_dockless: number;
    /** The systems consulted that have data, by the name riders know them by. */
    providers: string[];
    /** Beyond the spec: how old each system's data is. */
    systems: SystemFreshness[];
  };
}

const metres = (distance: number) => Math.round(distance * 10) / 10;
const isoSeconds = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000).toISOString());

function stationView({ item, system, distance }: Found<Station>): StationView {
  return {
    station_id: item.station_id,
    name: item.name,
    lat: item.lat,
    lon: item.lon,
    num_bikes_available: item.num_bikes_available,
    num_ebikes_available: item.num_ebikes_available,
    num_docks_available: item.num_docks_available,
    capacity: item.capacity,
    is_installed: item.is_installed,
    is_renting: item.is_renting,
    is_returning: item.is_returning,
    last_reported: item.last_reported,
    distance: metres(distance),
    brand: system.snapshot.brand,
    api_type: system.snapshot.api_type,
  };
}

function docklessView({ item, system, distance }: Found<Vehicle>): DocklessView {
  return {
    bike_id: item.vehicle_id,
    lat: item.lat,
    lon: item.lon,
    is_reserved: item.is_reserved,
    is_disabled: item.is_disabled,
    vehicle_type: item.vehicle_type,
    distance: metres(distance),
    brand: system.snapshot.brand,
    provider: system.snapshot.provider,
  };
}

export function bikesNearby(view: BikeShareView, query: BikesNearbyQuery): BikesNearbyBody {
  const point: LonLat = [query.longitude, query.latitude];
  const stations = view.stationsNear(point, query.radius, { limit: query.limit, where: isOperationalStation });
  const vehicles = view.vehiclesNear(point, query.radius, { limit: query.limit, where: isAvailableVehicle });
  return {
    stations: stations.found.map(stationView),
    dockless_bikes: vehicles.found.map(docklessView),
    metadata: {
      total_stations: stations.total,
      total_dockless: vehicles.total,
      providers: view.systems.map((system) => system.snapshot.brand),
      systems: view.systems.map(({ snapshot }) => ({
        brand: snapshot.brand,
        provider: snapshot.provider,
        api_type: snapshot.api_type,
        stations_last_updated: isoSeconds(snapshot.feeds.station_status?.last_updated),
        dockless_last_updated: isoSeconds(snapshot.feeds.vehicle_status?.last_updated),
      })),
    },
  };
}
