import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { describe, expect, it } from 'vitest';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { isAvailableVehicle } from '../../functions/bikeshare/model.ts';
import { checkRentedLeg, mayPark, mayRent, noRideEdges, samplePolyline, signedArea, UNRESTRICTED, ZoneRules, zoneRules } from '../../functions/multimodal/geofencing.ts';
import { parkingCandidates } from '../../functions/multimodal/parking/ride-end.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { almereGeofencing, almereVehicles, geofencingFeed, pointOnlyIn, square } from '../support/zones.ts';

/**
 * What a bike-share operator's zones allow, read as each GBFS version defines them (spec
 * 1.2.11): the real GBFS 3.0 reference feed (Check, Almere) and hand-made 2.x and 3.x feeds read
 * through the platform's own reader; then the zones over a real city graph.
 */

const MOPED = 'check_moped_almere_60';
const AT = Date.parse('2026-06-15T10:00:00Z') / 1000;

describe('GBFS 3.x zones (Check, Almere)', () => {
  const geofencing = almereGeofencing();
  const rules = new ZoneRules(geofencing, MOPED, AT);
  const zone = (name: string) => geofencing.zones.find((candidate) => candidate.name === name)!;

  it('lets a ride start but not end in Hub Bergnet, and never ride through Almere Haven', () => {
    expect(rules.at(pointOnlyIn(geofencing, zone('Hub Bergnet')))).toEqual({ start: true, end: false, through: true });
    const haven = rules.at(pointOnlyIn(geofencing, zone('Almere Haven')));
    expect(haven.through).toBe(false);
    expect(mayPark(haven)).toBe(false);
    expect(rules.at(pointOnlyIn(geofencing, zone('Almere Stad')))).toEqual(UNRESTRICTED);
  });

  it('applies the global rules outside every zone: no start, no end, riding through allowed', () => {
    expect(rules.at([5.0, 52.0])).toEqual({ start: false, end: false, through: true });
  });

  it('applies a zone only to the vehicle types its rules name', () => {
    const bicycle = new ZoneRules(geofencing, 'some_bicycle', AT);
    // No zone has a rule for this type, so the global rules (for every type) decide everywhere.
    expect(bicycle.at(pointOnlyIn(geofencing, zone('Almere Stad')))).toEqual({ start: false, end: false, through: true });
  });

  it('offers only the recorded vehicles that stand where a ride may start', () => {
    const rentable = almereVehicles().filter((vehicle) => isAvailableVehicle(vehicle) && mayRent(rules.at([vehicle.lon, vehicle.lat])));
    for (const vehicle of rentable) expect(rules.zoneAt([vehicle.lon, vehicle.lat])).not.toBeNull();
    const outside = almereVehicles().filter((vehicle) => rules.zoneAt([vehicle.lon, vehicle.lat]) === null);
    for (const vehicle of outside) expect(mayRent(rules.at([vehicle.lon, vehicle.lat]))).toBe(false);
  });
});

describe('GBFS 2.x zones (hand-made feeds)', () => {
  const point: LonLat = [-0.1300, 51.5230];
  const outside: LonLat = [-0.1200, 51.5230];
  const rule = { ride_allowed: false, ride_through_allowed: false };

  it('reads a clockwise polygon as the area it encloses', () => {
    const ring = square(point, 200, 'clockwise');
    expect(signedArea(ring)).toBeLessThan(0);
    const rules = new ZoneRules(geofencingFeed('2.3', [{ name: 'no riding', rings: [ring], rules: [rule] }]), null, AT);
    expect(rules.at(point)).toEqual({ start: false, end: false, through: false });
    // Outside every zone GBFS 2.x restricts nothing.
    expect(rules.at(outside)).toEqual(UNRESTRICTED);
  });

  it('reads a counterclockwise polygon as the area outside it (an operating area)', () => {
    const ring = square(point, 200, 'counterclockwise');
    expect(signedArea(ring)).toBeGreaterThan(0);
    const rules = new ZoneRules(geofencingFeed('2.3', [{ name: 'service area', rings: [ring], rules: [rule] }]), null, AT);
    expect(rules.at(point)).toEqual(UNRESTRICTED);
    expect(rules.at(outside)).toEqual({ start: false, end: false, through: false });
    expect(rules.restrictedBoxes()).toBeNull();
  });

  it('takes `ride_allowed` for starting and ending alike', () => {
    const rules = new ZoneRules(geofencingFeed('2.3', [{ name: 'slow', rings: [square(point, 200, 'clockwise')], rules: [{ ride_allowed: false, ride_through_allowed: true }] }]), null, AT);
    expect(rules.at(point)).toEqual({ start: false, end: false, through: true });
  });

  it('lets the first zone with a rule for the vehicle type decide where zones overlap', () => {
    const allows = { name: 'parking', rings: [square(point, 100, 'clockwise')], rules: [{ ride_allowed: true, ride_through_allowed: true }] };
    const forbids = { name: 'no parking', rings: [square(point, 300, 'clockwise')], rules: [{ ride_allowed: false, ride_through_allowed: true }] };
    expect(new ZoneRules(geofencingFeed('2.3', [allows, forbids]), null, AT).at(point).end).toBe(true);
    expect(new ZoneRules(geofencingFeed('2.3', [forbids, allows]), null, AT).at(point).end).toBe(false);
    // A rule for another vehicle type does not make the zone apply.
    const scooterOnly = { ...allows, rules: [{ vehicle_type_id: ['scooter'], ride_allowed: true, ride_through_allowed: true }] };
    expect(new ZoneRules(geofencingFeed('2.3', [scooterOnly, forbids]), 'bike', AT).at(point).end).toBe(false);
    expect(new ZoneRules(geofencingFeed('2.3', [scooterOnly, forbids]), 'scooter', AT).at(point).end).toBe(true);
  });

  it('applies a zone only while it is valid', () => {
    const later = { name: 'event', rings: [square(point, 200, 'clockwise')], rules: [rule], start: AT + 3_600, end: AT + 7_200 };
    const feed = geofencingFeed('2.3', [later]);
    expect(zoneRules(feed, null, AT).at(point)).toEqual(UNRESTRICTED);
    expect(zoneRules(feed, null, AT + 3_600).at(point).through).toBe(false);
    expect(zoneRules(feed, null, AT + 7_200).at(point)).toEqual(UNRESTRICTED);
    // The same zones in force share one set of rules (and so one search for no-ride edges).
    expect(zoneRules(feed, null, AT)).toBe(zoneRules(feed, null, AT + 60));
  });
});

describe('zones over a real city graph (London)', () => {
  const network = realGraph('london').network;
  // A block of Bloomsbury around Russell Square.
  const center: LonLat = [-0.1263, 51.5220];
  const ring = square(center, 180, 'counterclockwise');
  const noRide = new ZoneRules(geofencingFeed('3.0', [{ name: 'square', rings: [ring], rules: [{ ride_start_allowed: false, ride_end_allowed: false, ride_through_allowed: false }] }]), null, AT);
  const inZone = (point: LonLat) => booleanPointInPolygon([point[0], point[1]], { type: 'Polygon', coordinates: [ring] });
  const geometry = (edge: number): LonLat[] =>
    Array.from({ length: network.pointCount(edge) }, (_, i) => [network.pointLon(network.pointIndex(edge, i)), network.pointLat(network.pointIndex(edge, i))] as LonLat);

  it('reads GBFS 3.x polygons by their interior whatever the winding', () => {
    expect(noRide.at(center).through).toBe(false);
    expect(noRide.at([-0.1200, 51.5220])).toEqual(UNRESTRICTED);
  });

  it('marks exactly the edges whose geometry enters the zone', () => {
    const mask = noRideEdges(noRide, network)!;
    let marked = 0;
    for (let edge = 0; edge < network.graph.edgeCount; edge++) {
      const points = geometry(edge);
      const near = points.some(([lon, lat]) => haversineMetres(lon, lat, center[0], center[1]) < 600);
      if (!near) {
        expect(mask[edge]).toBe(0);
        continue;
      }
      const enters = samplePolyline(points, 1).some(inZone);
      expect(mask[edge], `edge ${edge}`).toBe(enters ? 1 : 0);
      if (enters) marked++;
    }
    expect(marked).toBeGreaterThan(10);
  });

  it('finds no edges to avoid when nothing forbids riding', () => {
    const parkingOnly = new ZoneRules(geofencingFeed('3.0', [{ name: 'no parking', rings: [ring], rules: [{ ride_start_allowed: true, ride_end_allowed: false, ride_through_allowed: true }] }]), null, AT);
    expect(noRideEdges(parkingOnly, network)).toBeNull();
  });

  it('checks a finished leg: its start, every few metres of its way, and its end', () => {
    const across: LonLat[] = [[-0.1290, 51.5220], [-0.1236, 51.5220]];
    const around: LonLat[] = [[-0.1290, 51.5200], [-0.1236, 51.5200]];
    expect(checkRentedLeg(noRide, across)).toMatchObject({ kind: 'through', zone: 'square' });
    expect(checkRentedLeg(noRide, around)).toBeNull();
    expect(checkRentedLeg(noRide, [center, [-0.1236, 51.5200]])).toMatchObject({ kind: 'start' });
    // Riding into the zone to end there fails on the way in.
    expect(checkRentedLeg(noRide, [[-0.1236, 51.5200], center])).toMatchObject({ kind: 'through' });
    const endOnly = new ZoneRules(geofencingFeed('3.0', [{ name: 'no parking', rings: [ring], rules: [{ ride_start_allowed: true, ride_end_allowed: false, ride_through_allowed: true }] }]), null, AT);
    expect(checkRentedLeg(endOnly, [[-0.1236, 51.5200], center])).toMatchObject({ kind: 'end', zone: 'no parking' });
    expect(checkRentedLeg(endOnly, [[-0.1236, 51.5200], center], { start: false, end: false })).toBeNull();
  });

  it('offers places to end a ride just outside a no-parking zone, nearest first', () => {
    const endOnly = new ZoneRules(geofencingFeed('3.0', [{ name: 'no parking', rings: [ring], rules: [{ ride_start_allowed: true, ride_end_allowed: false, ride_through_allowed: true }] }]), null, AT);
    const candidates = parkingCandidates(endOnly, center, 1_500);
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) expect(mayPark(endOnly.at(candidate))).toBe(true);
    // The zone is 180 m wide: its edge is 90 m from the middle.
    const first = candidates[0]!;
    expect(haversineMetres(first[0], first[1], center[0], center[1])).toBeGreaterThan(89);
    expect(haversineMetres(first[0], first[1], center[0], center[1])).toBeLessThan(110);
    // Where parking is allowed, the destination itself comes first.
    expect(parkingCandidates(endOnly, [-0.1200, 51.5220], 1_500)[0]).toEqual([-0.1200, 51.5220]);
  });
});
