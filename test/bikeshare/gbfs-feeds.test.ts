import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { FeedRefused, unixSeconds } from '../../functions/bikeshare/feed-values.ts';
import {
  joinStations,
  readDiscovery,
  readFeedDocument,
  readGeofencing,
  readPricingPlans,
  readStationInformation,
  readStationStatus,
  readSystemInformation,
  readVehicles,
  readVehicleTypes,
} from '../../functions/bikeshare/gbfs.ts';
import { isAvailableVehicle, isOperationalStation } from '../../functions/bikeshare/model.ts';
import { readBikePoints } from '../../functions/bikeshare/tfl-bikepoint.ts';

/**
 * The feed readers on the real recordings in shared/data/gbfs (SOURCES.md gives the counts
 * asserted here): GBFS 1.1 (Citi Bike), 1.x (Bay Wheels), 2.3 (Divvy), 3.0 (Check, Almere) and
 * TfL's BikePoint.
 */

const recorded = (path: string): unknown => JSON.parse(readFileSync(join(sharedDataPath(), 'gbfs', path), 'utf8'));
const document = (feed: string, path: string) => readFeedDocument(feed, recorded(path));

function stationsOf(folder: string, vehicleTypesPath?: string) {
  const types = vehicleTypesPath ? readVehicleTypes(document('vehicle_types', vehicleTypesPath), 'en').vehicleTypes : [];
  const status = document('station_status', `${folder}/station_status.json`);
  const information = readStationInformation(document('station_information', `${folder}/station_information.json`), 'en');
  const statuses = readStationStatus(status);
  return { information, statuses, ...joinStations(information.stations, statuses.statuses, types, status.last_updated) };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('GBFS 1.x: Citi Bike and Bay Wheels', () => {
  it('joins Citi Bike information and status: 2,226 stations, 34,155 bikes of which 12,829 e-bikes', () => {
    const { stations, withoutStatus, information, statuses } = stationsOf('citi-bike/2024-10-02T1903Z');
    expect(information.invalid).toBe(0);
    expect(statuses.invalid).toBe(0);
    expect(withoutStatus).toBe(0);
    expect(stations).toHaveLength(2226);
    expect(sum(stations.map((station) => station.num_bikes_available))).toBe(34_155);
    expect(sum(stations.map((station) => station.num_ebikes_available ?? 0))).toBe(12_829);
    // 1.1 writes booleans as 0/1: 26 stations are not installed and one installed station is not renting.
    expect(stations.filter((station) => !station.is_installed)).toHaveLength(26);
    expect(stations.filter((station) => station.is_installed && !station.is_renting)).toHaveLength(1);
    expect(stations.filter(isOperationalStation)).toHaveLength(2199);
    const first = stations.find((station) => station.name === 'Arthur Ave & E 183 St')!;
    expect(first).toMatchObject({ lat: 40.85307, lon: -73.88953, capacity: 25, rental_uris: { ios: 'https://bkn.lft.to/lastmile_qr_scan' } });
    expect(Number.isInteger(first.last_reported)).toBe(true);
  });

  it('reads Bay Wheels 2023 (no version field): 518 stations, 5,516 bikes of which 1,958 e-bikes, 17 not renting', () => {
    const { stations } = stationsOf('bay-wheels/2023-07-19T1906Z');
    expect(document('station_status', 'bay-wheels/2023-07-19T1906Z/station_status.json').version).toBe('1.0');
    expect(stations).toHaveLength(518);
    expect(sum(stations.map((station) => station.num_bikes_available))).toBe(5516);
    expect(sum(stations.map((station) => station.num_ebikes_available ?? 0))).toBe(1958);
    expect(stations.filter((station) => !isOperationalStation(station))).toHaveLength(17);
    expect(readSystemInformation(document('system_information', 'bay-wheels/2023-07-19T1906Z/system_information.json'), 'en')).toMatchObject({
      name: 'Bay Wheels',
      operator: 'Lyft, Inc',
      timezone: 'America/Los_Angeles',
    });
  });

  it("reads Bay Wheels' free-floating e-bikes of 2020 with Lyft's `type` and 0/1 flags", () => {
    const read = readVehicles(document('free_bike_status', 'bay-wheels/2020-05-21T1955Z/free_bike_status.json'), []);
    expect(read).toMatchObject({ total: 887, invalid: 0, atStations: 0 });
    expect(read.vehicles.every((vehicle) => vehicle.vehicle_type === 'electric_bike' && vehicle.is_electric)).toBe(true);
    expect(read.vehicles.every(isAvailableVehicle)).toBe(true);
    expect(read.vehicles[0]).toMatchObject({ vehicle_id: 'b396c5809a05cad12994a0410be1b3c1', lat: 37.3423025, is_reserved: false, is_disabled: false });
  });

  it('discovers the feeds of the 2020 Bay Wheels gbfs.json in the preferred language', () => {
    const feeds = readDiscovery(document('gbfs', 'bay-wheels/2020-05-21T1955Z/gbfs.json'), 'es');
    expect(feeds.free_bike_status).toBe('https://gbfs.baywheels.com/gbfs/es/free_bike_status.json');
    expect(readDiscovery(document('gbfs', 'bay-wheels/2020-05-21T1955Z/gbfs.json'), 'de').station_status).toBe(
      'https://gbfs.baywheels.com/gbfs/en/station_status.json',
    );
  });
});

describe('GBFS 2.3: the Divvy reference set', () => {
  const folder = '_reference-divvy-chicago-lyft-2.3/2025-01-29T0947Z';
  const types = readVehicleTypes(document('vehicle_types', `${folder}/vehicle_types.json`), 'en').vehicleTypes;

  it('reads vehicle types and counts e-bikes at stations from vehicle_types_available', () => {
    expect(types.map((type) => [type.vehicle_type_id, type.form_factor, type.propulsion_type])).toEqual([
      ['1', 'bicycle', 'human'],
      ['2', 'bicycle', 'electric_assist'],
      ['3', 'scooter', 'electric'],
    ]);
    const { stations } = stationsOf(folder, `${folder}/vehicle_types.json`);
    expect(stations).toHaveLength(1811);
    const nordica = stations.find((station) => station.station_id === '1955905507044284968')!;
    expect(nordica).toMatchObject({ num_bikes_available: 3, num_ebikes_available: 0, num_docks_available: 12, capacity: 15 });
    expect(nordica.vehicle_types_available).toEqual([
      { vehicle_type_id: '1', count: 3 },
      { vehicle_type_id: '2', count: 0 },
    ]);
    // The e-bikes by type agree with Lyft's own num_ebikes_available across the system.
    const status = readStationStatus(document('station_status', `${folder}/station_status.json`));
    expect(sum(stations.map((station) => station.num_ebikes_available ?? 0))).toBe(sum([...status.statuses.values()].map((s) => s.num_ebikes_available ?? 0)));
  });

  it('reads 1,244 free vehicles with their vehicle_type_id: 675 e-bikes and 569 e-scooters', () => {
    const read = readVehicles(document('free_bike_status', `${folder}/free_bike_status.json`), types);
    expect(read).toMatchObject({ total: 1244, invalid: 0 });
    expect(read.vehicles.filter((vehicle) => vehicle.vehicle_type === 'electric_bike')).toHaveLength(675);
    expect(read.vehicles.filter((vehicle) => vehicle.vehicle_type === 'electric_scooter')).toHaveLength(569);
    expect(read.vehicles.every((vehicle) => vehicle.is_electric && vehicle.current_range_meters! > 0)).toBe(true);
  });

  it('reads the three pricing plans, price given as a string', () => {
    const { plans, invalid } = readPricingPlans(document('system_pricing_plans', `${folder}/system_pricing_plans.json`), 'en');
    expect(invalid).toBe(0);
    expect(plans.map((plan) => plan.plan_id)).toEqual(['EBIKE_SINGLE_RIDE', 'BIKE_SINGLE_RIDE', 'SCOOTER_SINGLE_RIDE']);
    expect(plans[1]).toMatchObject({ price: 1, currency: 'USD', is_taxable: true, per_min_pricing: [{ start: 0, interval: 1, rate: 0.18, end: null }] });
  });
});

describe('GBFS 3.0: the Check (Almere) reference set', () => {
  const folder = '_reference-check-almere-gbfs-3.0/2025-05-21T0748Z';

  it('reads RFC 3339 times with fractional seconds as Unix seconds', () => {
    expect(document('vehicle_status', `${folder}/vehicle_status.json`).last_updated).toBe(Date.UTC(2025, 4, 21, 7, 48, 4) / 1000);
    expect(unixSeconds('2025-05-21T09:48:04+02:00')).toBe(Date.UTC(2025, 4, 21, 7, 48, 4) / 1000);
    expect(unixSeconds('21 May 2025')).toBeNull();
  });

  it('reads localised names, vehicle_status and the moped type', () => {
    expect(readSystemInformation(document('system_information', `${folder}/system_information.json`), 'en').name).toBe('Check Technologies');
    expect(readDiscovery(document('gbfs', `${folder}/gbfs.json`), 'en').vehicle_status).toMatch(/vehicle_status\.json$/);
    const types = readVehicleTypes(document('vehicle_types', `${folder}/vehicle_types.json`), 'en').vehicleTypes;
    const { vehicles } = readVehicles(document('vehicle_status', `${folder}/vehicle_status.json`), types);
    expect(vehicles).toHaveLength(6);
    expect(vehicles.filter((vehicle) => vehicle.is_reserved)).toHaveLength(1);
    expect(vehicles.filter((vehicle) => vehicle.is_disabled)).toHaveLength(1);
    expect(vehicles.filter(isAvailableVehicle)).toHaveLength(4);
    expect(vehicles[0]).toMatchObject({ vehicle_type: 'electric_moped', is_electric: true, current_range_meters: 32_400 });
  });

  it('keeps the 3.x geofencing rules as 3.x defines them and drops the zones without geometry', () => {
    const { geofencing, total, invalid } = readGeofencing(document('geofencing_zones', `${folder}/geofencing_zones.json`), 'nl');
    expect({ total, invalid }).toEqual({ total: 16, invalid: 2 });
    expect(geofencing).toMatchObject({ gbfs_version: '3.0', semantics: 'gbfs-3' });
    expect(geofencing.zones).toHaveLength(14);
    expect(geofencing.global_rules).toEqual([
      { semantics: 'gbfs-3', vehicle_type_ids: null, ride_start_allowed: false, ride_end_allowed: false, ride_through_allowed: true, maximum_speed_kph: null, station_parking: null },
    ]);
    const hub = geofencing.zones.find((zone) => zone.name === 'Hub Bergnet')!;
    expect(hub.rules).toEqual([
      {
        semantics: 'gbfs-3',
        vehicle_type_ids: ['check_moped_almere_60'],
        ride_start_allowed: true,
        ride_end_allowed: false,
        ride_through_allowed: true,
        maximum_speed_kph: null,
        station_parking: null,
      },
    ]);
    expect(geofencing.zones.filter((zone) => zone.rules.some((rule) => !rule.ride_through_allowed)).map((zone) => zone.name)).toEqual(['Almere Haven']);
    // The Dutch name where the feed has one, else the first translation.
    expect(geofencing.zones.map((zone) => zone.name)).toContain('Almere Stad (nl)');
    expect(hub.multipolygon[0]![0]![0]).toEqual([5.275367, 52.372839]);
  });

  it('keeps a 2.x rule as 2.x defines it: ride_allowed and vehicle_type_id', () => {
    const zones = {
      last_updated: 1738144058,
      ttl: 60,
      version: '2.3',
      data: {
        geofencing_zones: {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              geometry: { type: 'MultiPolygon', coordinates: [[[[-87.63, 41.88], [-87.62, 41.88], [-87.62, 41.89], [-87.63, 41.88]]]] },
              properties: { name: 'Loop', rules: [{ vehicle_type_id: ['3'], ride_allowed: false, ride_through_allowed: true, maximum_speed_kph: 10 }] },
            },
          ],
        },
      },
    };
    const { geofencing } = readGeofencing(readFeedDocument('geofencing_zones', zones), 'en');
    expect(geofencing).toMatchObject({ gbfs_version: '2.3', semantics: 'gbfs-2', global_rules: [] });
    expect(geofencing.zones[0]!.rules).toEqual([
      { semantics: 'gbfs-2', vehicle_type_ids: ['3'], ride_allowed: false, ride_through_allowed: true, maximum_speed_kph: 10, station_parking: null },
    ]);
  });
});

describe("TfL BikePoint (Santander Cycles) through the adapter", () => {
  it('reads the 800 docking stations, counts from strings, last_updated from the newest modified time', () => {
    const read = readBikePoints(recorded('santander-cycles-london/2026-02-22/BikePoint.json'));
    expect(read).toMatchObject({ total: 800, invalid: 0 });
    expect(read.last_updated).toBe(Math.floor(Date.parse('2026-02-22T16:53:19.513Z') / 1000));
    const river = read.stations.find((station) => station.station_id === 'BikePoints_1')!;
    expect(river).toMatchObject({
      name: 'River Street , Clerkenwell',
      num_bikes_available: 11,
      num_ebikes_available: 2,
      num_docks_available: 6,
      capacity: 19,
      is_installed: true,
      is_renting: true,
      is_returning: true,
      last_reported: Math.floor(Date.parse('2026-02-22T16:43:16.017Z') / 1000),
    });
    expect(read.stations.every(isOperationalStation)).toBe(true);
  });

  it('reads a locked docking station as neither renting nor returning, and refuses a non-array', () => {
    const places = recorded('santander-cycles-london/2026-02-22/BikePoint.json') as { additionalProperties: { key: string; value: string }[] }[];
    const locked = structuredClone(places[0]!);
    locked.additionalProperties.find((property) => property.key === 'Locked')!.value = 'true';
    expect(readBikePoints([locked]).stations[0]).toMatchObject({ is_installed: true, is_renting: false, is_returning: false });
    expect(() => readBikePoints({ places })).toThrow(FeedRefused);
  });
});

describe('documents that are not feeds', () => {
  it('are refused as broken, naming what is missing', () => {
    expect(() => readFeedDocument('station_status', [])).toThrow(/not a JSON object/);
    expect(() => readFeedDocument('station_status', { ttl: 60, data: {} })).toThrow(/last_updated/);
    expect(() => readFeedDocument('station_status', { last_updated: 1, ttl: -1, data: {} })).toThrow(/ttl/);
    expect(() => readStationStatus(readFeedDocument('station_status', { last_updated: 1, ttl: 1, data: { bikes: [] } }))).toThrow(/data.stations/);
  });
});
