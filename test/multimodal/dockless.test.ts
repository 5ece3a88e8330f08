import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { describe, expect, it, vi } from 'vitest';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { CYCLING_SPEED_MPS, EBIKE_SPEED_MPS, WALKING_SPEED_MPS } from '../../core/routing/costing/speeds.ts';
import type { Geofencing } from '../../functions/bikeshare/model.ts';
import { mayPark, samplePolyline, ZoneRules } from '../../functions/multimodal/geofencing.ts';
import type { MultiModalOption, OptionLeg } from '../../functions/multimodal/response.ts';
import { randomNodeLocation, seededRandom } from '../routing/real-graphs.ts';
import { recordedSnapshot } from '../support/bikeshare.ts';
import { memorySources } from '../support/multimodal.ts';
import { handMadeSystem, plan, vehicle } from '../support/multimodal-plan.ts';
import { cachedRealGraph } from '../support/real-graph-cache.ts';
import { geofencingFeed, square } from '../support/zones.ts';

/**
 * Dockless options and the operators' zones (spec 4.2, 1.2.11) on the real London graph, with
 * hand-made systems: which vehicle is offered, at what speed, and that a rented ride never goes
 * through a zone where riding is forbidden and ends only where parking is allowed, under GBFS
 * 2.x and 3.x rules alike.
 */

vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));

const start: LonLat = [-0.1337, 51.5246];
const end: LonLat = [-0.1246, 51.5219];
const AT = Date.parse('2026-06-15T11:00:00Z') / 1000;

const system = (vehicles: ReturnType<typeof vehicle>[], geofencing: Geofencing | null = null) =>
  handMadeSystem({ city: 'london', id: 'test-bikes', brand: 'Test Bikes', provider: 'Test Mobility', vehicles, geofencing });
const sourcesWith = (...systems: ReturnType<typeof system>[]) => memorySources({ systems });
const dockless = (options: MultiModalOption[]) => options.find((option) => option.type === 'dockless');
const rented = (option: MultiModalOption) => option.legs.filter((leg) => leg.mode === 'cycling');
const pushed = (leg: OptionLeg) => leg.steps.filter((step) => step.mode === 'walking').reduce((sum, step) => sum + step.distance, 0);
const inside = (ring: number[][], point: readonly [number, number]) => booleanPointInPolygon([point[0], point[1]], { type: 'Polygon', coordinates: [ring] });
const last = <T>(items: readonly T[]): T => items[items.length - 1]!;

describe('which dockless vehicle is offered', () => {
  const near: LonLat = [-0.1331, 51.5246];
  const usable = vehicle('usable', [-0.1322, 51.5240]);

  it('the nearest one that is neither reserved nor disabled, a bike, within 1,500 m, one option per provider', async () => {
    const body = await plan({ start, end }, sourcesWith(
      system([
        vehicle('reserved', near, { is_reserved: true }),
        vehicle('disabled', near, { is_disabled: true }),
        vehicle('scooter', near, { form_factor: 'scooter', vehicle_type: 'electric_scooter' }),
        usable,
        vehicle('farther', [-0.1300, 51.5230]),
      ]),
      handMadeSystem({ city: 'london', id: 'other', brand: 'Other Bikes', vehicles: [vehicle('other', [-0.1326, 51.5243])] }),
    ));
    expect(body.options.map((option) => [option.type, option.name])).toEqual([
      ['personal', 'Personal bike'],
      ['personal', 'Personal bike'],
      ['dockless', 'Test Bikes'],
      ['dockless', 'Other Bikes'],
    ]);
    const option = dockless(body.options)!;
    expect(option.vehicle).toMatchObject({ bike_id: 'usable', is_electric: true, vehicle_type: 'electric_bike' });
    expect(option.system).toEqual({ id: 'test-bikes', brand: 'Test Bikes', provider: 'Test Mobility' });
    expect(option.rental_link).toEqual(usable.rental_uris);
  });

  it('never a vehicle outside its operator\'s service area', async () => {
    // GBFS 2.x: a service area drawn counterclockwise restricts everything outside it.
    const serviceArea = geofencingFeed('2.3', [{ name: 'service area', rings: [square([-0.1250, 51.5220], 900, 'counterclockwise')], rules: [{ ride_allowed: false, ride_through_allowed: false }] }]);
    const outsideOnly = await plan({ start, end }, sourcesWith(system([vehicle('outside', near)], serviceArea)));
    expect(dockless(outsideOnly.options)).toBeUndefined();
    const both = await plan({ start, end }, sourcesWith(system([vehicle('outside', near), vehicle('inside', [-0.1290, 51.5230])], serviceArea)));
    expect(dockless(both.options)!.vehicle!.bike_id).toBe('inside');
    // GBFS 3.x: a vehicle in a zone where rides may not start is not offered either.
    const noStartZone = geofencingFeed('3.0', [{ name: 'no start', rings: [square(near, 40, 'counterclockwise')], rules: [{ ride_start_allowed: false, ride_end_allowed: true, ride_through_allowed: true }] }]);
    const v3 = await plan({ start, end }, sourcesWith(system([vehicle('outside', near), usable], noStartZone)));
    expect(dockless(v3.options)!.vehicle!.bike_id).toBe('usable');
  });

  it('offers none where no vehicle is within 1,500 m (Bay Wheels\' recorded e-bikes are in San Francisco, the graph in Oakland)', async () => {
    const body = await plan({ start: [-122.3041, 37.8078], end: [-122.2972, 37.8118] }, memorySources({ systems: [recordedSnapshot('bay-wheels')] }));
    expect(recordedSnapshot('bay-wheels').vehicles.length).toBeGreaterThan(800);
    expect(dockless(body.options)).toBeUndefined();
  });
});

describe('a dockless ride', () => {
  it('walks to the vehicle and rides to the end, at e-bike speed when it is electric', async () => {
    for (const [electric, speed, bikeType, label] of [
      [true, EBIKE_SPEED_MPS, 'dockless_ebike', 'Test Bikes e-bike'],
      [false, CYCLING_SPEED_MPS, 'dockless', 'Test Bikes bike'],
    ] as const) {
      const bike = vehicle('v', [-0.1322, 51.5240], electric ? {} : { is_electric: false, propulsion_type: 'human', vehicle_type: 'bike' });
      const option = dockless((await plan({ start, end }, sourcesWith(system([bike])))).options)!;
      expect(option.is_electric).toBe(electric);
      expect(option.legs.map((leg) => [leg.mode, leg.bike_type, leg.end_kind, leg.end_label])).toEqual([
        ['walking', null, 'pickup', label],
        ['cycling', bikeType, 'destination', 'Destination'],
      ]);
      const ride = option.legs[1]!;
      expect(ride.duration).toBeCloseTo((ride.distance - pushed(ride)) / speed + pushed(ride) / WALKING_SPEED_MPS, -1);
    }
  });
});

describe('zones over a rented ride', () => {
  /** A square straddling the Personal direct route half way, so the zone is in the way. */
  async function zoneInTheWay(side: number): Promise<{ ring: (winding: 'clockwise' | 'counterclockwise') => number[][]; middle: LonLat }> {
    const personal = (await plan({ start, end }, memorySources({}))).options.find((option) => !option.supersafe) ?? (await plan({ start, end }, memorySources({}))).options[0]!;
    const coordinates = personal.legs[0]!.geometry.coordinates;
    const middle = coordinates[Math.floor(coordinates.length / 2)]!;
    return { ring: (winding) => square(middle, side, winding), middle };
  }

  it('never rides through a zone where riding is forbidden (GBFS 2.x and 3.x)', async () => {
    const { ring, middle } = await zoneInTheWay(160);
    for (const geofencing of [
      geofencingFeed('2.3', [{ name: 'no riding', rings: [ring('clockwise')], rules: [{ ride_allowed: false, ride_through_allowed: false }] }]),
      geofencingFeed('3.0', [{ name: 'no riding', rings: [ring('counterclockwise')], rules: [{ ride_start_allowed: false, ride_end_allowed: false, ride_through_allowed: false }] }]),
    ]) {
      const body = await plan({ start, end }, sourcesWith(system([vehicle('v', [-0.1322, 51.5240])], geofencing)));
      // The rider's own bike is not bound by the operator's zones and goes straight through.
      expect(body.options.some((option) => option.type === 'personal' && option.legs[0]!.geometry.coordinates.some((point) => inside(ring('clockwise'), point)))).toBe(true);
      const option = dockless(body.options)!;
      for (const leg of rented(option)) {
        for (const point of samplePolyline(leg.geometry.coordinates, 1)) expect(inside(ring('clockwise'), point), JSON.stringify(point)).toBe(false);
      }
      expect(haversineMetres(middle[0], middle[1], end[0], end[1])).toBeGreaterThan(80);
    }
  });

  it('ends at the edge of a no-parking zone around the destination and walks the rest (GBFS 2.x and 3.x)', async () => {
    const ring = (winding: 'clockwise' | 'counterclockwise') => square(end, 150, winding);
    for (const geofencing of [
      geofencingFeed('2.3', [{ name: 'no parking', rings: [ring('clockwise')], rules: [{ ride_allowed: false, ride_through_allowed: true }] }]),
      geofencingFeed('3.0', [{ name: 'no parking', rings: [ring('counterclockwise')], rules: [{ ride_start_allowed: false, ride_end_allowed: false, ride_through_allowed: true }] }]),
    ]) {
      const option = dockless((await plan({ start, end }, sourcesWith(system([vehicle('v', [-0.1322, 51.5240])], geofencing)))).options)!;
      expect(option.legs.map((leg) => [leg.mode, leg.end_kind, leg.end_label])).toEqual([
        ['walking', 'pickup', 'Test Bikes e-bike'],
        ['cycling', 'dropoff', 'End ride'],
        ['walking', 'destination', 'Destination'],
      ]);
      const left = last(option.legs[1]!.geometry.coordinates);
      expect(inside(ring('clockwise'), left)).toBe(false);
      expect(mayPark(new ZoneRules(geofencing, 'ebike', AT).at(left))).toBe(true);
      // At the zone's edge: no farther from the destination than the zone's corner and a street's width.
      expect(haversineMetres(left[0], left[1], end[0], end[1])).toBeLessThan(75 * Math.SQRT2 + 40);
      expect(haversineMetres(...last(option.legs[2]!.geometry.coordinates), end[0], end[1])).toBeLessThan(30);
    }
  });

  it('ends inside a parking zone where the operator allows ending nowhere else (GBFS 3.x global rules)', async () => {
    const hub = square([-0.1255, 51.5225], 60, 'counterclockwise');
    const geofencing = geofencingFeed(
      '3.0',
      [{ name: 'hub', rings: [hub], rules: [{ ride_start_allowed: true, ride_end_allowed: true, ride_through_allowed: true }] }],
      [{ ride_start_allowed: true, ride_end_allowed: false, ride_through_allowed: true }],
    );
    const option = dockless((await plan({ start, end }, sourcesWith(system([vehicle('v', [-0.1322, 51.5240])], geofencing)))).options)!;
    expect(option.legs.map((leg) => leg.end_kind)).toEqual(['pickup', 'dropoff', 'destination']);
    expect(inside(hub, last(option.legs[1]!.geometry.coordinates))).toBe(true);
  });

  it('keeps every rented leg out of a forbidding zone on random trips across London', async () => {
    const network = cachedRealGraph('london').network;
    const random = seededRandom(31);
    let checked = 0;
    for (let trial = 0; trial < 40 && checked < 15; trial++) {
      const a = randomNodeLocation(network, random);
      const b = randomNodeLocation(network, random);
      const metres = haversineMetres(a[0], a[1], b[0], b[1]);
      if (metres < 500 || metres > 3_000) continue;
      const middle: LonLat = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const ring = square(middle, 50 + random() * 250, 'counterclockwise');
      const geofencing = geofencingFeed('3.0', [{ name: 'no riding', rings: [ring], rules: [{ ride_start_allowed: false, ride_end_allowed: false, ride_through_allowed: false }] }]);
      const bike = vehicle('v', [a[0] + 0.0004, a[1]]);
      const option = dockless((await plan({ start: a, end: b }, sourcesWith(system([bike], geofencing)))).options);
      if (!option) continue;
      checked++;
      for (const leg of rented(option)) {
        for (const point of samplePolyline(leg.geometry.coordinates, 1)) expect(inside(ring, point)).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
