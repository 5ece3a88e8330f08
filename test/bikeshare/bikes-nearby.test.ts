import { describe, expect, it } from 'vitest';
import { haversineMetres } from '../../core/geo.ts';
import { BikeShareView, LoadedSystem } from '../../functions/bikeshare/loader.ts';
import { isOperationalStation } from '../../functions/bikeshare/model.ts';
import { bikesNearby } from '../../functions/bikeshare/nearby.ts';
import { recordedSnapshot } from '../support/bikeshare.ts';

/**
 * Spec 4.7's rules on the recorded systems, checked against a plain scan of every station as
 * the independent answer: only installed and renting stations, only vehicles neither reserved
 * nor disabled, within the radius, nearest first, `limit` per category, totals before the limit.
 */

const bay = new LoadedSystem(recordedSnapshot('bay-wheels'));
const citi = new LoadedSystem(recordedSnapshot('citi-bike'));

// Clay St at Battery St (installed, not renting, 19 bikes) and Battery St at California St (out of service).
const CLAY_AT_BATTERY = { id: 'ed1bf0f9-aa06-4f57-8cd6-5775ff3c29f0', latitude: 37.795001, longitude: -122.39997 };
const BATTERY_AT_CALIFORNIA = 'a2698d11-5b7e-4421-90ed-7d7225a58a67';

describe('bikes near a point', () => {
  it('lists exactly the operational stations within the radius, nearest first, as a full scan finds them', () => {
    const query = { latitude: 40.7527, longitude: -73.9772, radius: 800, limit: 200 };
    const body = bikesNearby(new BikeShareView([citi]), query);
    const expected = citi.snapshot.stations
      .filter(isOperationalStation)
      .map((station) => ({ id: station.station_id, distance: haversineMetres(query.longitude, query.latitude, station.lon, station.lat) }))
      .filter((station) => station.distance <= query.radius)
      .sort((a, b) => a.distance - b.distance);
    expect(expected.length).toBeGreaterThan(10);
    expect(body.stations.map((station) => station.station_id)).toEqual(expected.map((station) => station.id));
    expect(body.metadata.total_stations).toBe(expected.length);
    for (const [index, station] of body.stations.entries()) {
      expect(station.distance).toBeCloseTo(expected[index]!.distance, 0);
      expect(station).toMatchObject({ is_installed: true, is_renting: true, brand: 'Citi Bike', api_type: 'gbfs' });
    }
    expect(body.metadata.providers).toEqual(['Citi Bike']);
  });

  it('never lists a station that is not renting, even the nearest one with bikes in it', () => {
    const body = bikesNearby(new BikeShareView([bay]), { ...CLAY_AT_BATTERY, radius: 300, limit: 200 });
    const ids = body.stations.map((station) => station.station_id);
    expect(bay.snapshot.stations.find((station) => station.station_id === CLAY_AT_BATTERY.id)).toMatchObject({ is_renting: false, num_bikes_available: 19 });
    expect(ids).not.toContain(CLAY_AT_BATTERY.id);
    expect(ids).not.toContain(BATTERY_AT_CALIFORNIA);
    expect(ids.length).toBeGreaterThan(0);
    expect(body.stations.every((station) => station.is_renting && station.is_installed)).toBe(true);
  });

  it('applies the limit to stations and dockless bikes separately; the totals count the whole radius', () => {
    const downtown = { latitude: 37.7879, longitude: -122.4035, radius: 1000 };
    const all = bikesNearby(new BikeShareView([bay]), { ...downtown, limit: 1000 });
    expect(all.stations.length).toBeGreaterThan(5);
    expect(all.dockless_bikes.length).toBeGreaterThan(5);
    const limited = bikesNearby(new BikeShareView([bay]), { ...downtown, limit: 3 });
    expect(limited.stations).toEqual(all.stations.slice(0, 3));
    expect(limited.dockless_bikes).toEqual(all.dockless_bikes.slice(0, 3));
    expect(limited.metadata).toMatchObject({ total_stations: all.stations.length, total_dockless: all.dockless_bikes.length });
    const distances = all.dockless_bikes.map((bike) => bike.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(all.dockless_bikes[0]).toMatchObject({ vehicle_type: 'electric_bike', brand: 'Bay Wheels', provider: 'Lyft', is_reserved: false, is_disabled: false });
  });

  it('leaves out reserved and disabled vehicles', () => {
    const snapshot = recordedSnapshot('bay-wheels');
    const downtown = { latitude: 37.7879, longitude: -122.4035, radius: 1000, limit: 1000 };
    const before = bikesNearby(new BikeShareView([new LoadedSystem(snapshot)]), downtown).dockless_bikes;
    const [reserved, disabled] = before;
    for (const vehicle of snapshot.vehicles) {
      if (vehicle.vehicle_id === reserved!.bike_id) vehicle.is_reserved = true;
      if (vehicle.vehicle_id === disabled!.bike_id) vehicle.is_disabled = true;
    }
    const after = bikesNearby(new BikeShareView([new LoadedSystem(snapshot)]), downtown);
    expect(after.dockless_bikes.map((bike) => bike.bike_id)).toEqual(before.slice(2).map((bike) => bike.bike_id));
    expect(after.metadata.total_dockless).toBe(before.length - 2);
  });

  it('merges systems by distance and names every system consulted', () => {
    const point = { latitude: 37.7879, longitude: -122.4035, radius: 500, limit: 50 };
    const body = bikesNearby(new BikeShareView([citi, bay]), point);
    expect(body.metadata.providers).toEqual(['Citi Bike', 'Bay Wheels']);
    expect(body.stations.every((station) => station.brand === 'Bay Wheels')).toBe(true);
    expect(bikesNearby(new BikeShareView([]), point)).toEqual({
      stations: [],
      dockless_bikes: [],
      metadata: { total_stations: 0, total_dockless: 0, providers: [], systems: [] },
    });
  });
});
