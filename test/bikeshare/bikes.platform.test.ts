import { beforeAll, describe, expect, it } from 'vitest';
import { newRider, riderAccessToken } from '../oauth/oauth-support.ts';
import { call, newKey } from '../support/running-platform.ts';

/**
 * GET {app_base_url}/bikes/nearby/ (spec 4.7) on the running local platform, which ingested the
 * recorded feeds at start through its fixture server: Santander Cycles (TfL BikePoint), Citi
 * Bike (GBFS 1.1), Bay Wheels (stations 2023, free-floating e-bikes 2020).
 */

let token: string;
beforeAll(async () => {
  token = await riderAccessToken(await newRider());
});

const nearby = (query: string, headers: Record<string, string> = { Authorization: `Bearer ${token}` }) =>
  call(`/bikes/nearby/?${query}`, { api: 'app', headers });

describe('bikes near a point, from the recorded feeds', () => {
  it('answers London docking stations from TfL BikePoint, nearest first', async () => {
    // River Street, Clerkenwell (BikePoints_1).
    const response = await nearby('latitude=51.529163&longitude=-0.10997');
    expect(response.status).toBe(200);
    const { stations, dockless_bikes, metadata } = response.body;
    expect(stations[0]).toEqual({
      station_id: 'BikePoints_1',
      name: 'River Street , Clerkenwell',
      lat: 51.529163,
      lon: -0.10997,
      num_bikes_available: 11,
      num_ebikes_available: 2,
      num_docks_available: 6,
      capacity: 19,
      is_installed: true,
      is_renting: true,
      is_returning: true,
      last_reported: Math.floor(Date.parse('2026-02-22T16:43:16.017Z') / 1000),
      distance: 0,
      brand: 'Santander Cycles',
      api_type: 'tfl_bikepoint',
    });
    const distances = stations.map((station: { distance: number }) => station.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(1000);
    expect(dockless_bikes).toEqual([]);
    expect(metadata).toMatchObject({ total_stations: stations.length, total_dockless: 0, providers: ['Santander Cycles'] });
    expect(metadata.systems[0]).toMatchObject({ stations_last_updated: '2026-02-22T16:53:19.000Z', dockless_last_updated: null });
  });

  it('answers San Francisco stations and free-floating e-bikes, and never a station that is not renting', async () => {
    // Clay St at Battery St: installed, 19 bikes, not renting.
    const response = await nearby('lat=37.795001&lng=-122.39997&radius=400');
    expect(response.status).toBe(200);
    const ids = response.body.stations.map((station: { station_id: string }) => station.station_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain('ed1bf0f9-aa06-4f57-8cd6-5775ff3c29f0');
    expect(ids).not.toContain('a2698d11-5b7e-4421-90ed-7d7225a58a67');
    expect(response.body.dockless_bikes.length).toBeGreaterThan(0);
    expect(response.body.dockless_bikes[0]).toMatchObject({ vehicle_type: 'electric_bike', brand: 'Bay Wheels', provider: 'Lyft', is_reserved: false, is_disabled: false });
    expect(Object.keys(response.body.dockless_bikes[0]).sort()).toEqual(
      ['bike_id', 'brand', 'distance', 'is_disabled', 'is_reserved', 'lat', 'lon', 'provider', 'vehicle_type'].sort(),
    );
    expect(response.body.metadata.providers).toEqual(['Bay Wheels']);
  });

  it('applies limit per category and keeps the totals of the whole radius', async () => {
    const response = await nearby('latitude=37.7879&longitude=-122.4035&limit=2');
    expect(response.status).toBe(200);
    expect(response.body.stations).toHaveLength(2);
    expect(response.body.dockless_bikes).toHaveLength(2);
    expect(response.body.metadata.total_stations).toBeGreaterThan(2);
    expect(response.body.metadata.total_dockless).toBeGreaterThan(2);
  });

  it('reads lat, lon and lng as latitude and longitude', async () => {
    const canonical = await nearby('latitude=40.7527&longitude=-73.9772&radius=500');
    expect(canonical.body.stations.length).toBeGreaterThan(0);
    expect(canonical.body.metadata.providers).toEqual(['Citi Bike']);
    for (const query of ['lat=40.7527&lon=-73.9772&radius=500', 'lat=40.7527&lng=-73.9772&radius=500', 'latitude=40.7527&lng=-73.9772&lon=-73.9772&radius=500']) {
      expect((await nearby(query)).body).toEqual(canonical.body);
    }
  });

  it('answers Los Angeles with empty lists: no availability feed of Metro Bike Share is recorded', async () => {
    const response = await nearby('latitude=34.0505&longitude=-118.2551');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ stations: [], dockless_bikes: [], metadata: { total_stations: 0, total_dockless: 0, providers: [], systems: [] } });
  });
});

describe('bad requests to /bikes/nearby/', () => {
  it.each([
    ['', 'latitude: is required (also accepted as lat)'],
    ['longitude=-0.1', 'latitude: is required (also accepted as lat)'],
    ['latitude=51.5', 'longitude: is required (also accepted as lon or lng)'],
    ['latitude=north&longitude=-0.1', 'latitude: must be a number between -90 and 90'],
    ['latitude=91&longitude=-0.1', 'latitude: must be a number between -90 and 90'],
    ['lat=51.5&lon=-181', 'longitude: must be a number between -180 and 180 (given as lon)'],
    ['latitude=51.5&longitude=', 'longitude: must be a number between -180 and 180'],
    ['latitude=51.5&lat=51.6&longitude=-0.1', 'latitude: is given as latitude and lat with different values'],
    ['latitude=51.5&longitude=-0.1&radius=0', 'radius: must be a number of metres greater than 0 and at most 50000'],
    ['latitude=51.5&longitude=-0.1&radius=-5', 'radius: must be a number of metres greater than 0 and at most 50000'],
    ['latitude=51.5&longitude=-0.1&radius=1e9', 'radius: must be a number of metres greater than 0 and at most 50000'],
    ['latitude=51.5&longitude=-0.1&limit=0', 'limit: must be a whole number between 1 and 1000'],
    ['latitude=51.5&longitude=-0.1&limit=2.5', 'limit: must be a whole number between 1 and 1000'],
    ['latitude=NaN&longitude=-0.1', 'latitude: must be a number between -90 and 90'],
  ])('?%s answers 400 naming the problem', async (query, error) => {
    const response = await nearby(query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(error);
  });

  it('lists every problem in details', async () => {
    const response = await nearby('latitude=100&radius=0');
    expect(response.status).toBe(400);
    expect(response.body.details).toContain('radius: must be a number of metres');
    expect(response.body.details).toContain('longitude: is required');
  });

  it('answers 401 without a rider token and to an API key, and 405 to POST', async () => {
    expect((await nearby('latitude=51.5&longitude=-0.1', {})).status).toBe(401);
    expect((await nearby('latitude=51.5&longitude=-0.1', { apikey: await newKey() })).status).toBe(401);
    const post = await call('/bikes/nearby/?latitude=51.5&longitude=-0.1', { api: 'app', method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(post.status).toBe(405);
  });
});
