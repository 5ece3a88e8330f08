import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CityId } from '../../../core/cities/index.ts';
import { PARKING_INPUT_FILES, type ParkingInput } from '../../../platform/inputs.ts';
import { LONDON_EBIKE_OPERATORS, type LondonEbikeOperator } from './london-ebike-rules.ts';
import { SPOT_DATASET_FORMAT, type ParkingSpot, type SpotDataset, type SpotKind } from './spots.ts';

/**
 * Parking datasets compiled from the shared data's files (`other/`, see its SOURCES.md), one per
 * city and kind. Only places any rider may use count:
 *
 * - London (TfL Cycling Infrastructure Database, cycle parking, surveyed 2017-2019): every site
 *   with a capacity, except lockers and bike hangars, which need a key or a membership.
 * - New York City (NYC DOT Bicycle Parking, 2024-12 export, column subset): CityRacks and bike
 *   corrals, all on the public street.
 * - San Francisco (SFMTA Bicycle Parking, about 2021): racks on the sidewalk, in the roadway
 *   (corrals) and in parklets; racks inside parcels and garages are left out, as are racks with
 *   no spaces. The position is the `shape` column (LAT/LON are blank in about 1,000 rows).
 *
 * No file of London's designated rental e-bike bays exists in the shared data (SOURCES.md: the
 * boroughs publish maps and traffic orders only), so no `ebike_bay` dataset is compiled here; an
 * operator who obtains one publishes it with `npm run admin -- parking publish-bays` (`bayDataset`).
 */

/** Splits CSV text (RFC 4180: quoted fields may hold commas, quotes and newlines) into rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => cells.length > 1 || cells[0] !== '');
}

function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

const round6 = (value: number): number => Math.round(value * 1e6) / 1e6;
const wholeOrNull = (text: string | number | null | undefined): number | null => {
  const value = Number(text);
  return text !== null && text !== undefined && text !== '' && Number.isInteger(value) && value >= 0 ? value : null;
};

interface TflParkingProperties {
  FEATURE_ID: string;
  PRK_CPT: number | null;
  PRK_LOCKER: boolean;
  PRK_HANGAR: boolean;
  PRK_SHEFF: boolean;
  PRK_MSTAND: boolean;
  PRK_PSTAND: boolean;
  PRK_HOOP: boolean;
  PRK_POST: boolean;
  PRK_BUTERF: boolean;
  PRK_WHEEL: boolean;
  PRK_TIER: boolean;
  PRK_CARR: boolean;
  PRK_COVER: boolean;
  BOROUGH: string;
}

const STAND_TYPES: [keyof TflParkingProperties, string][] = [
  ['PRK_SHEFF', 'Sheffield stands'],
  ['PRK_MSTAND', 'M stands'],
  ['PRK_PSTAND', 'P stands'],
  ['PRK_HOOP', 'hoops'],
  ['PRK_POST', 'posts'],
  ['PRK_BUTERF', 'butterfly stands'],
  ['PRK_WHEEL', 'wheel racks'],
  ['PRK_TIER', 'two-tier racks'],
];

export function londonCycleStands(geojson: string): SpotDataset {
  const collection = JSON.parse(geojson) as { features: { geometry: { coordinates: [number, number] }; properties: TflParkingProperties }[] };
  const spots: ParkingSpot[] = [];
  for (const { geometry, properties } of collection.features) {
    const capacity = wholeOrNull(properties.PRK_CPT);
    if (!capacity || properties.PRK_LOCKER || properties.PRK_HANGAR) continue;
    const kind = STAND_TYPES.find(([flag]) => properties[flag] === true)?.[1] ?? 'cycle stands';
    const where = [properties.PRK_CARR ? 'in the carriageway' : null, properties.PRK_COVER ? 'covered' : null].filter(Boolean).join(', ');
    spots.push({
      id: properties.FEATURE_ID,
      kind: 'cycle_stand',
      lon: round6(geometry.coordinates[0]),
      lat: round6(geometry.coordinates[1]),
      capacity,
      name: `${capacity} spaces, ${kind}${where ? ` (${where})` : ''}`,
      operators: null,
    });
  }
  return {
    format: SPOT_DATASET_FORMAT,
    city: 'london',
    kind: 'cycle_stand',
    source: {
      name: 'TfL Cycling Infrastructure Database: cycle parking (surveyed 2017-2019)',
      licence: 'TfL open data (based on the Open Government Licence)',
      attribution: 'Powered by TfL Open Data',
    },
    spots,
  };
}

export function nycCityRacks(csv: string): SpotDataset {
  const spots: ParkingSpot[] = [];
  records(csv).forEach((row, index) => {
    const lat = Number(row.Latitude);
    const lon = Number(row.Longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat === 0 || lon === 0) return;
    spots.push({
      id: `nyc-dot-${index + 1}`,
      kind: 'city_rack',
      lon: round6(lon),
      lat: round6(lat),
      capacity: null,
      name: row.Program === 'Bike Corral' ? 'Bike corral' : `CityRacks ${row.RackType ? row.RackType.toLowerCase() : 'rack'}`,
      operators: null,
    });
  });
  return {
    format: SPOT_DATASET_FORMAT,
    city: 'new-york',
    kind: 'city_rack',
    source: {
      name: 'NYC DOT Bicycle Parking (CityRacks and bike corrals), export of 2024-12-13',
      licence: 'NYC Open Data terms of use',
      attribution: 'NYC Department of Transportation',
    },
    spots,
  };
}

const PUBLIC_PLACEMENTS = new Set(['SIDEWALK', 'ROADWAY', 'PARKLET']);

export function sfRacks(csv: string): SpotDataset {
  const spots: ParkingSpot[] = [];
  for (const row of records(csv)) {
    const point = /^POINT \((-?[\d.]+) (-?[\d.]+)\)$/.exec(row.shape ?? '');
    const spaces = wholeOrNull(row.SPACES);
    if (!point || !spaces || !PUBLIC_PLACEMENTS.has(row.PLACEMENT ?? '')) continue;
    spots.push({
      id: `sfmta-${row.OBJECTID}`,
      kind: 'city_rack',
      lon: round6(Number(point[1])),
      lat: round6(Number(point[2])),
      capacity: spaces,
      name: [row.LOCATION, row.ADDRESS].filter(Boolean).join(', ') || null,
      operators: null,
    });
  }
  return {
    format: SPOT_DATASET_FORMAT,
    city: 'sf-bay',
    kind: 'city_rack',
    source: { name: 'SFMTA Bicycle Parking (DataSF), about 2021', licence: 'ODC PDDL (DataSF)', attribution: 'San Francisco Municipal Transportation Agency' },
    spots,
  };
}

/** How each of the shared data's parking files (platform/inputs.ts) is read; every file has its reader. */
const parkingReaders: Record<ParkingInput, { city: CityId; kind: SpotKind; read: (text: string) => SpotDataset }> = {
  londonCycleStands: { city: 'london', kind: 'cycle_stand', read: londonCycleStands },
  newYorkCityRacks: { city: 'new-york', kind: 'city_rack', read: nycCityRacks },
  sfBayCityRacks: { city: 'sf-bay', kind: 'city_rack', read: sfRacks },
};

/** The shared data's parking files and how each is read. */
export const PARKING_FILES: readonly { city: CityId; kind: SpotKind; file: string; read: (text: string) => SpotDataset }[] = (
  Object.keys(PARKING_INPUT_FILES) as ParkingInput[]
).map((input) => {
  const { city, kind, read } = parkingReaders[input];
  return { city, kind, file: PARKING_INPUT_FILES[input], read };
});

/** Every dataset the shared data folder holds, for the given cities. */
export async function compileParkingDatasets(dataPath: string, cities: readonly CityId[]): Promise<SpotDataset[]> {
  const datasets: SpotDataset[] = [];
  for (const entry of PARKING_FILES) {
    if (!cities.includes(entry.city)) continue;
    datasets.push(entry.read(await readFile(join(dataPath, entry.file), 'utf8')));
  }
  return datasets;
}

/**
 * Designated rental e-bike bays from a GeoJSON FeatureCollection of points with `id`, and
 * optionally `name`, `capacity` and `operators` (some of `lime`, `forest`). The source's name,
 * licence and attribution go with the data.
 */
export function bayDataset(city: CityId, geojson: string, source: SpotDataset['source']): SpotDataset {
  const collection = JSON.parse(geojson) as { features?: { geometry?: { type?: string; coordinates?: number[] }; properties?: Record<string, unknown> }[] };
  if (!Array.isArray(collection.features)) throw new Error('Not a GeoJSON FeatureCollection');
  const spots = collection.features.map((feature, index): ParkingSpot => {
    const [lon, lat] = feature.geometry?.type === 'Point' ? (feature.geometry.coordinates ?? []) : [];
    if (typeof lon !== 'number' || typeof lat !== 'number') throw new Error(`Feature ${index + 1} is not a point`);
    const properties = feature.properties ?? {};
    const operators = Array.isArray(properties.operators) ? properties.operators.map(String) : null;
    const unknown = operators?.filter((operator) => !(LONDON_EBIKE_OPERATORS as readonly string[]).includes(operator));
    if (unknown?.length) throw new Error(`Feature ${index + 1}: unknown operators ${unknown.join(', ')} (known: ${LONDON_EBIKE_OPERATORS.join(', ')})`);
    return {
      id: String(properties.id ?? `bay-${index + 1}`),
      kind: 'ebike_bay',
      lon: round6(lon),
      lat: round6(lat),
      capacity: wholeOrNull(properties.capacity as number | null),
      name: typeof properties.name === 'string' ? properties.name : null,
      operators: operators as LondonEbikeOperator[] | null,
    };
  });
  return { format: SPOT_DATASET_FORMAT, city, kind: 'ebike_bay', source, spots };
}
