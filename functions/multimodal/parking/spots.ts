import { gunzipSync, gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import type { CityId } from '../../../core/cities/index.ts';
import { EARTH_RADIUS_METRES, haversineMetres, type LonLat } from '../../../core/geo.ts';
import { s3 } from '../../../platform/aws.ts';
import { logger } from '../../../platform/logger.ts';
import { readObjectBytes } from '../../../platform/object-store.ts';
import { bucketName } from '../../../platform/resources.ts';
import type { LondonEbikeOperator } from './london-ebike-rules.ts';

/**
 * Places to leave a bike at the end of a trip (spec 4.2 `parking_type`, rule 7), one dataset per
 * city and kind, searched nearest first with a kd-tree:
 *
 * - `cycle_stand`: London's surveyed cycle stands (TfL Cycling Infrastructure Database);
 * - `city_rack`: New York City's CityRacks and bike corrals (NYC DOT), San Francisco's racks (SFMTA);
 * - `ebike_bay`: designated bays for rental e-bikes, with the operators each serves.
 *
 * Datasets are compiled from the shared data by datasets.ts and published to the graphs bucket
 * under `parking/<city>/<kind>.json.gz` (by the local platform at start, and by
 * `npm run admin -- parking publish` for a deployment), and loaded by the planner once per warm
 * container, re-checked at most every PARKING_REFRESH_SECONDS (default 3,600).
 */

export const SPOT_KINDS = ['cycle_stand', 'city_rack', 'ebike_bay'] as const;
export type SpotKind = (typeof SPOT_KINDS)[number];

export const SPOT_DATASET_FORMAT = 1;

export interface ParkingSpot {
  id: string;
  kind: SpotKind;
  lon: number;
  lat: number;
  /** Bikes it holds, where the source says. */
  capacity: number | null;
  /** A description a rider can look for: an address, a site, a type of stand. */
  name: string | null;
  /** E-bike bays: the operators whose bikes may end there; null when the source does not say. */
  operators: LondonEbikeOperator[] | null;
}

export interface SpotSource {
  name: string;
  licence: string;
  attribution: string;
}

export interface SpotDataset {
  format: typeof SPOT_DATASET_FORMAT;
  city: CityId;
  kind: SpotKind;
  source: SpotSource;
  spots: ParkingSpot[];
}

/** Stored form: each spot as `[lon, lat, capacity, id, name, operators]`, for size. */
interface StoredDataset extends Omit<SpotDataset, 'spots'> {
  spots: [number, number, number | null, string, string | null, LondonEbikeOperator[] | null][];
}

export const spotDatasetKey = (city: CityId, kind: SpotKind): string => `parking/${city}/${kind}.json.gz`;

export function encodeDataset(dataset: SpotDataset): Uint8Array {
  const stored: StoredDataset = {
    ...dataset,
    spots: dataset.spots.map((spot) => [spot.lon, spot.lat, spot.capacity, spot.id, spot.name, spot.operators]),
  };
  return gzipSync(JSON.stringify(stored));
}

export function decodeDataset(bytes: Uint8Array): SpotDataset {
  const stored = JSON.parse(gunzipSync(bytes).toString('utf8')) as StoredDataset;
  if (stored.format !== SPOT_DATASET_FORMAT) throw new Error(`Parking dataset of format ${stored.format}, expected ${SPOT_DATASET_FORMAT}`);
  return {
    ...stored,
    spots: stored.spots.map(([lon, lat, capacity, id, name, operators]) => ({ id, kind: stored.kind, lon, lat, capacity, name, operators })),
  };
}

export async function publishDataset(dataset: SpotDataset, bucket: string = bucketName('graphs')): Promise<void> {
  await s3().send(
    new PutObjectCommand({ Bucket: bucket, Key: spotDatasetKey(dataset.city, dataset.kind), Body: encodeDataset(dataset), ContentType: 'application/gzip' }),
  );
}

export interface FoundSpot {
  spot: ParkingSpot;
  source: SpotSource;
  /** Great-circle metres from the query point. */
  distance: number;
}

/** One dataset with its kd-tree. */
export class SpotIndex {
  private readonly index: KDBush | null;

  constructor(readonly dataset: SpotDataset) {
    this.index = dataset.spots.length ? new KDBush(dataset.spots.length) : null;
    if (this.index) {
      for (const spot of dataset.spots) this.index.add(spot.lon, spot.lat);
      this.index.finish();
    }
  }

  /** Spots within `radiusMetres`, nearest first, that `where` accepts (the tree is walked nearest-first). */
  near([lon, lat]: LonLat, radiusMetres: number, options: { limit?: number; where?: (spot: ParkingSpot) => boolean } = {}): FoundSpot[] {
    if (!this.index) return [];
    const spots = this.dataset.spots;
    const where = options.where;
    const searchKm = ((radiusMetres * 1.001) / EARTH_RADIUS_METRES) * 6371;
    const ids = around(this.index, lon, lat, options.limit ?? Infinity, searchKm, where ? (id: number) => where(spots[id]!) : undefined);
    return ids
      .map((id) => ({ spot: spots[id]!, source: this.dataset.source, distance: haversineMetres(lon, lat, spots[id]!.lon, spots[id]!.lat) }))
      .filter((found) => found.distance <= radiusMetres);
  }
}

interface Entry {
  current: Promise<SpotIndex | null>;
  loadedAt: number;
}

const entries = new Map<string, Entry>();
const refreshMs = (): number => Number(process.env.PARKING_REFRESH_SECONDS ?? 3_600) * 1000;
const isMissing = (error: unknown): boolean => (error as { name?: string }).name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

async function load(city: CityId, kind: SpotKind): Promise<SpotIndex | null> {
  try {
    return new SpotIndex(decodeDataset(await readObjectBytes(bucketName('graphs'), spotDatasetKey(city, kind))));
  } catch (error) {
    if (isMissing(error)) return null;
    // Parking is an extra: without the data, Personal options go straight to the destination.
    logger.warn('parking dataset could not be loaded', { city, kind, error: error as Error });
    return null;
  }
}

/** A city's published spots of one kind, or null when none are published. */
export async function citySpots(city: CityId, kind: SpotKind): Promise<SpotIndex | null> {
  const key = `${city}/${kind}`;
  let entry = entries.get(key);
  if (!entry || Date.now() - entry.loadedAt > refreshMs()) {
    entry = { current: load(city, kind), loadedAt: Date.now() };
    entries.set(key, entry);
  }
  return entry.current;
}

/** Tests: forget every loaded dataset. */
export function forgetLoadedSpots(): void {
  entries.clear();
}
