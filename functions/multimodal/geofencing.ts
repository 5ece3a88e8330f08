import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { COORDINATE_SCALE } from '../../core/graph/layout.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import type { Geofencing, GeofencingRule, GeofencingZone } from '../bikeshare/model.ts';

/**
 * What a bike-share operator's geofencing zones allow a rented vehicle to do at a point (spec
 * 1.2.11: options keep out of zones where the operator forbids riding), with each zone read as
 * its feed's GBFS version defines it, because the versions disagree:
 *
 * - GBFS 2.x (2.1-2.3): a zone's polygon covers the area its points enclose when they run
 *   clockwise, and the area OUTSIDE it when they run counterclockwise (the spec's own rule, the
 *   opposite of GeoJSON's right-hand rule: an operating area is drawn counterclockwise so that its
 *   restrictions apply beyond it). `ride_allowed` stands for starting and ending a ride. Outside
 *   every zone nothing is restricted.
 * - GBFS 3.x: a zone covers its interior whatever the winding (holes excluded), `ride_start_allowed`
 *   and `ride_end_allowed` are separate, and `global_rules` say what holds outside every zone.
 *
 * In both, zones and rules apply only to the vehicle types they name (all when they name none),
 * only while the zone is valid (`start`, `end`), and where zones overlap the first zone in the feed
 * that has a rule for the vehicle type decides; within a zone, the first matching rule.
 */

export interface RidePermissions {
  start: boolean;
  end: boolean;
  through: boolean;
}

export const UNRESTRICTED: RidePermissions = { start: true, end: true, through: true };

/** A ride may end here: the operator allows ending, and the vehicle may be ridden here at all. */
export const mayPark = (permissions: RidePermissions): boolean => permissions.end && permissions.through;
/** A vehicle parked here may be rented: a ride may start, and the vehicle may be ridden away. */
export const mayRent = (permissions: RidePermissions): boolean => permissions.start && permissions.through;

const permissionsOf = (rule: GeofencingRule): RidePermissions =>
  rule.semantics === 'gbfs-2'
    ? { start: rule.ride_allowed, end: rule.ride_allowed, through: rule.ride_through_allowed }
    : { start: rule.ride_start_allowed, end: rule.ride_end_allowed, through: rule.ride_through_allowed };

/** Twice the signed area of a ring in degrees: positive when its points run counterclockwise. */
export function signedArea(ring: readonly (readonly number[])[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
  return sum;
}

interface PreparedPolygon {
  rings: number[][][];
  /** GBFS 2.x counterclockwise polygon: the zone is everything outside it. */
  outside: boolean;
  bbox: [number, number, number, number];
}

interface PreparedZone {
  zone: GeofencingZone;
  index: number;
  polygons: PreparedPolygon[];
  /** The zone's decision for this vehicle type; null when no rule names it (the zone does not apply). */
  permissions: RidePermissions | null;
  /** Whether the zone reaches beyond its polygons (a 2.x counterclockwise polygon): no bounding box helps. */
  unbounded: boolean;
}

function ruleFor(rules: readonly GeofencingRule[], vehicleTypeId: string | null): GeofencingRule | null {
  return rules.find((rule) => rule.vehicle_type_ids === null || (vehicleTypeId !== null && rule.vehicle_type_ids.includes(vehicleTypeId))) ?? null;
}

function bboxOf(rings: readonly number[][][]): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of rings[0] ?? []) {
    box[0] = Math.min(box[0], lon!);
    box[1] = Math.min(box[1], lat!);
    box[2] = Math.max(box[2], lon!);
    box[3] = Math.max(box[3], lat!);
  }
  return box;
}

const inBox = ([lon, lat]: LonLat, box: readonly number[]): boolean => lon >= box[0]! && lat >= box[1]! && lon <= box[2]! && lat <= box[3]!;

/** The rules of one system's geofencing for one vehicle type at one time. */
export class ZoneRules {
  private readonly zones: PreparedZone[];
  private readonly outside: RidePermissions;

  constructor(
    readonly geofencing: Geofencing | null,
    readonly vehicleTypeId: string | null,
    /** Unix seconds: zones are valid from `start` (inclusive) to `end` (exclusive). */
    atSeconds: number,
  ) {
    const v2 = geofencing?.semantics === 'gbfs-2';
    this.zones = (geofencing?.zones ?? [])
      .map((zone, index) => {
        const rule = ruleFor(zone.rules, vehicleTypeId);
        const polygons = zone.multipolygon
          .filter((rings) => rings.length > 0 && rings[0]!.length >= 4)
          .map((rings) => ({ rings, outside: v2 && signedArea(rings[0]!) > 0, bbox: bboxOf(rings) }));
        return { zone, index, polygons, permissions: rule ? permissionsOf(rule) : null, unbounded: polygons.some((polygon) => polygon.outside) };
      })
      .filter((zone) => zone.permissions !== null && (zone.zone.start === null || zone.zone.start <= atSeconds) && (zone.zone.end === null || atSeconds < zone.zone.end));
    const global = geofencing?.semantics === 'gbfs-3' ? ruleFor(geofencing.global_rules, vehicleTypeId) : null;
    this.outside = global ? permissionsOf(global) : UNRESTRICTED;
  }

  /** Whether there is anything to obey at all: a system without zones restricts nothing. */
  get restricts(): boolean {
    return this.zones.length > 0 || !this.outside.start || !this.outside.end || !this.outside.through;
  }

  /** Whether the zone covers the point, as its GBFS version reads the polygon. */
  private covers(zone: PreparedZone, point: LonLat): boolean {
    return zone.polygons.some((polygon) => {
      const inside = inBox(point, polygon.bbox) && booleanPointInPolygon([point[0], point[1]], { type: 'Polygon', coordinates: polygon.rings });
      return polygon.outside ? !inside : inside;
    });
  }

  /** The first zone covering the point decides; outside every zone, the global rules (3.x) or nothing (2.x). */
  at(point: LonLat): RidePermissions {
    for (const zone of this.zones) if (this.covers(zone, point)) return zone.permissions!;
    return this.outside;
  }

  /** The name of the zone deciding at the point, for explanations and logs. */
  zoneAt(point: LonLat): string | null {
    for (const zone of this.zones) if (this.covers(zone, point)) return zone.zone.name;
    return null;
  }

  /**
   * Where the rules may change: the bounding boxes of zones with a restriction for this vehicle,
   * or null when restrictions reach everywhere (global rules that forbid riding, a 2.x
   * operating area drawn counterclockwise).
   */
  restrictedBoxes(): [number, number, number, number][] | null {
    if (!this.outside.through) return null;
    const boxes: [number, number, number, number][] = [];
    for (const zone of this.zones) {
      if (zone.permissions!.through) continue;
      if (zone.unbounded) return null;
      for (const polygon of zone.polygons) boxes.push(polygon.bbox);
    }
    return boxes;
  }

  /** Ring vertices of every zone, for searching where a zone's edge is near a point. */
  boundaries(): { ring: number[][] }[] {
    return this.zones.flatMap((zone) => zone.polygons.flatMap((polygon) => polygon.rings.map((ring) => ({ ring }))));
  }
}

/** Sample spacing along geometry when deciding whether a way passes through a no-ride zone. */
const EDGE_SAMPLE_METRES = 5;
/** Sample spacing when checking a finished itinerary: finer, as the last word. */
const CHECK_SAMPLE_METRES = 2;

/** Points along a polyline no farther apart than `spacing` metres, both ends included. */
export function samplePolyline(points: readonly (readonly [number, number])[], spacing: number): LonLat[] {
  const samples: LonLat[] = [];
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    if (i > 0) {
      const previous = points[i - 1]!;
      const pieces = Math.ceil(haversineMetres(previous[0], previous[1], point[0], point[1]) / spacing);
      for (let k = 1; k < pieces; k++) {
        const t = k / pieces;
        samples.push([previous[0] + (point[0] - previous[0]) * t, previous[1] + (point[1] - previous[1]) * t]);
      }
    }
    samples.push([point[0], point[1]]);
  }
  return samples;
}

const masks = new WeakMap<ZoneRules, Map<RoutingNetwork, Uint8Array | null>>();

/**
 * The edges of a graph a rented vehicle may not ride under these rules: every edge whose
 * geometry passes through a place where riding is not allowed (sampled every few metres).
 * Null when the rules forbid riding nowhere. Cached per rules and graph.
 */
export function noRideEdges(rules: ZoneRules, network: RoutingNetwork): Uint8Array | null {
  let perGraph = masks.get(rules);
  if (!perGraph) masks.set(rules, (perGraph = new Map()));
  if (perGraph.has(network)) return perGraph.get(network)!;
  const mask = computeMask(rules, network);
  perGraph.set(network, mask);
  return mask;
}

function computeMask(rules: ZoneRules, network: RoutingNetwork): Uint8Array | null {
  if (!rules.restricts) return null;
  const graph = network.graph;
  const boxes = rules.restrictedBoxes();
  if (boxes && boxes.length === 0) return null;
  const segments = new Set<number>();
  if (boxes === null) {
    for (let segment = 0; segment < graph.segmentCount; segment++) segments.add(segment);
  } else {
    const grid = graph.header.grid;
    for (const [minLon, minLat, maxLon, maxLat] of boxes) {
      const x0 = Math.max(0, Math.floor((minLon * COORDINATE_SCALE - grid.min_lon_e7) / grid.cell_lon_e7));
      const x1 = Math.min(grid.cols - 1, Math.floor((maxLon * COORDINATE_SCALE - grid.min_lon_e7) / grid.cell_lon_e7));
      const y0 = Math.max(0, Math.floor((minLat * COORDINATE_SCALE - grid.min_lat_e7) / grid.cell_lat_e7));
      const y1 = Math.min(grid.rows - 1, Math.floor((maxLat * COORDINATE_SCALE - grid.min_lat_e7) / grid.cell_lat_e7));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const cell = y * grid.cols + x;
          for (let i = graph.gridFirst[cell]!; i < graph.gridFirst[cell + 1]!; i++) segments.add(graph.gridSegments[i]!);
        }
      }
    }
  }
  const mask = new Uint8Array(graph.edgeCount);
  let marked = 0;
  for (const segment of segments) {
    const points: [number, number][] = [];
    for (let p = graph.segmentFirstPoint[segment]!; p < graph.segmentFirstPoint[segment + 1]!; p++) points.push([network.pointLon(p), network.pointLat(p)]);
    if (samplePolyline(points, EDGE_SAMPLE_METRES).every((point) => rules.at(point).through)) continue;
    for (const edge of [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!]) {
      if (edge >= 0) {
        mask[edge] = 1;
        marked++;
      }
    }
  }
  return marked ? mask : null;
}

export type ItineraryProblem = { kind: 'start' | 'through' | 'end'; at: LonLat; zone: string | null };

/**
 * The last word on a rented leg (routers have shipped itineraries through no-ride zones): the
 * ride starts where a ride may start, every sampled point of its geometry may be ridden, and it
 * ends where a ride may end. Returns the first problem, or null when the leg keeps the rules.
 */
export function checkRentedLeg(
  rules: ZoneRules,
  coordinates: readonly (readonly [number, number])[],
  /** Docked rides start and end at stations, where the operator's own docks decide: only the way between is checked. */
  ends: { start: boolean; end: boolean } = { start: true, end: true },
): ItineraryProblem | null {
  if (!rules.restricts || coordinates.length === 0) return null;
  const first = coordinates[0]!;
  const last = coordinates[coordinates.length - 1]!;
  if (ends.start && !mayRent(rules.at(first))) return { kind: 'start', at: first, zone: rules.zoneAt(first) };
  for (const point of samplePolyline(coordinates, CHECK_SAMPLE_METRES)) {
    if (!rules.at(point).through) return { kind: 'through', at: point, zone: rules.zoneAt(point) };
  }
  if (ends.end && !mayPark(rules.at(last))) return { kind: 'end', at: last, zone: rules.zoneAt(last) };
  return null;
}

const rulesCache = new WeakMap<Geofencing, Map<string, ZoneRules>>();

/**
 * The rules of a system's geofencing for a vehicle type at a time, shared by every request that
 * sees the same snapshot and the same zones in force (so the no-ride edges are found once).
 */
export function zoneRules(geofencing: Geofencing | null, vehicleTypeId: string | null, atSeconds: number): ZoneRules {
  if (!geofencing) return new ZoneRules(null, vehicleTypeId, atSeconds);
  const active = geofencing.zones
    .map((zone, index) => ((zone.start === null || zone.start <= atSeconds) && (zone.end === null || atSeconds < zone.end) ? index : -1))
    .filter((index) => index >= 0)
    .join(',');
  let perSnapshot = rulesCache.get(geofencing);
  if (!perSnapshot) rulesCache.set(geofencing, (perSnapshot = new Map()));
  const key = `${vehicleTypeId ?? ''}|${active}`;
  let rules = perSnapshot.get(key);
  if (!rules) perSnapshot.set(key, (rules = new ZoneRules(geofencing, vehicleTypeId, atSeconds)));
  return rules;
}
