import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { citiesNear, type CityId } from '../../core/cities/index.ts';
import { EARTH_RADIUS_METRES, haversineMetres, type LonLat } from '../../core/geo.ts';
import { logger } from '../../platform/logger.ts';
import type { BikeShareSnapshot, Station, Vehicle } from './model.ts';
import { readSnapshot } from './store.ts';
import { systemsOf } from './systems.ts';

/**
 * The readers' side of the snapshots, for `/bikes/nearby/` and the multi-modal planner alike.
 * Each system's snapshot is loaded once per warm container with a kd-tree (kdbush) over its
 * stations and one over its dockless vehicles, and re-checked with a conditional GET at most
 * every BIKESHARE_REFRESH_SECONDS (default 15; the ingestion writes every minute). Searches
 * walk the tree nearest-first on great-circle distance (geokdbush), never every station.
 *
 * For the planner: `bikeShareNear([lon, lat], 1500)` then, for example,
 *   stationsNear(point, 1500, { where: (s) => isOperationalStation(s) && (s.num_ebikes_available ?? 0) > 0 })
 *   stationsNear(point, 1500, { where: (s) => s.is_installed && s.is_returning && s.num_docks_available > 0 })
 *   vehiclesNear(point, 1500, { where: (v) => isAvailableVehicle(v) && v.is_electric })
 * and each found item's `system.snapshot` has the operator's geofencing, pricing plans and
 * rental links.
 */

export class LoadedSystem {
  readonly stationIndex: KDBush | null;
  readonly vehicleIndex: KDBush | null;

  constructor(readonly snapshot: BikeShareSnapshot) {
    this.stationIndex = indexOf(snapshot.stations);
    this.vehicleIndex = indexOf(snapshot.vehicles);
  }
}

function indexOf(items: readonly { lon: number; lat: number }[]): KDBush | null {
  if (items.length === 0) return null;
  const index = new KDBush(items.length);
  for (const item of items) index.add(item.lon, item.lat);
  return index.finish();
}

export interface Found<T> {
  item: T;
  system: LoadedSystem;
  /** Great-circle metres from the query point. */
  distance: number;
}

export interface SearchResult<T> {
  /** Nearest first, at most `limit`. */
  found: Found<T>[];
  /** How many matched within the radius, before the limit. */
  total: number;
}

export interface SearchOptions<T> {
  limit?: number;
  where?: (item: T) => boolean;
}

/** The bike-share systems around a point, searchable together. */
export class BikeShareView {
  constructor(readonly systems: readonly LoadedSystem[]) {}

  stationsNear(point: LonLat, radiusMetres: number, options: SearchOptions<Station> = {}): SearchResult<Station> {
    return this.search(point, radiusMetres, options, (system) => [system.stationIndex, system.snapshot.stations]);
  }

  vehiclesNear(point: LonLat, radiusMetres: number, options: SearchOptions<Vehicle> = {}): SearchResult<Vehicle> {
    return this.search(point, radiusMetres, options, (system) => [system.vehicleIndex, system.snapshot.vehicles]);
  }

  private search<T extends { lon: number; lat: number }>(
    [lon, lat]: LonLat,
    radiusMetres: number,
    options: SearchOptions<T>,
    part: (system: LoadedSystem) => [KDBush | null, readonly T[]],
  ): SearchResult<T> {
    const found: Found<T>[] = [];
    // geokdbush measures on a 6371 km sphere; search a hair wider and keep our own distance.
    const searchKm = ((radiusMetres * 1.001) / EARTH_RADIUS_METRES) * 6371;
    for (const system of this.systems) {
      const [index, items] = part(system);
      if (!index) continue;
      const where = options.where;
      for (const id of around(index, lon, lat, Infinity, searchKm, where ? (candidate) => where(items[candidate]!) : undefined)) {
        const item = items[id]!;
        const distance = haversineMetres(lon, lat, item.lon, item.lat);
        if (distance <= radiusMetres) found.push({ item, system, distance });
      }
    }
    found.sort((a, b) => a.distance - b.distance);
    return { found: found.slice(0, options.limit ?? Infinity), total: found.length };
  }
}

interface Entry {
  current: LoadedSystem | null;
  etag?: string;
  checkedAt: number;
  checking?: Promise<void>;
}

const entries = new Map<string, Entry>();

const refreshMs = (): number => Number(process.env.BIKESHARE_REFRESH_SECONDS ?? 15) * 1000;

async function check(systemId: string, entry: Entry): Promise<void> {
  try {
    const stored = await readSnapshot(systemId, entry.current ? entry.etag : undefined);
    if (stored === null) entry.current = null;
    else if (stored !== 'unchanged') {
      entry.current = new LoadedSystem(stored.snapshot);
      entry.etag = stored.etag;
    }
    entry.checkedAt = Date.now();
  } catch (error) {
    // Keep serving what is loaded; the next request tries again.
    logger.warn('bike-share snapshot could not be read', { systemId, error: error as Error });
    if (!entry.current) throw error;
  }
}

/** A system's loaded snapshot, or null when none has been ingested. */
export async function loadSystem(systemId: string): Promise<LoadedSystem | null> {
  let entry = entries.get(systemId);
  if (!entry) {
    entry = { current: null, checkedAt: 0 };
    entries.set(systemId, entry);
  }
  if (Date.now() - entry.checkedAt >= refreshMs()) {
    const pending = entry;
    pending.checking ??= check(systemId, pending).finally(() => {
      pending.checking = undefined;
    });
    await pending.checking;
  }
  return entry.current;
}

/** Every system with a snapshot in the given cities. */
export async function bikeShareOf(cities: readonly CityId[]): Promise<BikeShareView> {
  const systems = await Promise.all(cities.flatMap(systemsOf).map(({ system }) => loadSystem(system.id)));
  return new BikeShareView(systems.filter((system): system is LoadedSystem => system !== null));
}

/** The systems a circle around a point may reach. */
export const bikeShareNear = (point: LonLat, radiusMetres: number): Promise<BikeShareView> =>
  bikeShareOf(citiesNear(point, radiusMetres).map((city) => city.id));

/** Tests: forget every loaded snapshot. */
export function forgetLoadedSnapshots(): void {
  entries.clear();
}
