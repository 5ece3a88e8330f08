import { DateTime } from 'luxon';
import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_ROADWORKS } from '../../graph/flags.ts';
import { isClosed } from '../../graph/rules.ts';
import { LocalProjection } from '../../geo.ts';
import type { RoutingNetwork } from '../network/network.ts';
import type { AvoidanceEffect } from '../../avoidances.ts';
import type { LocatedAvoidance } from '../avoidances/locate.ts';
import type { Position } from '../../geo.ts';

/**
 * Temporary road disruptions near a route (spec 4.1 `disruptions`): closures with a date window
 * or weekly hours that are in force at departure or begin within the hour, and roadworks, from
 * the city graph (OSM conditional tags, highway=construction); and what accepted road reports
 * do to the roads near it (core/routing/avoidances/locate.ts). Never reported on walking routes.
 */

export interface Disruption {
  id: string;
  /** From the graph: `closure`, `roadworks`; from reports also `one_way`, `turn_removed`, `hazard`. */
  type: 'closure' | 'roadworks' | 'one_way' | 'turn_removed' | 'hazard';
  road_name: string | null;
  location: Position;
  /** In force at the departure time (otherwise it begins within the look-ahead). */
  active_at_departure: boolean;
  /** ISO 8601 local times of the closed period around the departure; null when not known. */
  starts_at: string | null;
  ends_at: string | null;
  /** Where the disruption is recorded, and the rule as written there. */
  source: 'openstreetmap' | 'report';
  detail: string | null;
}

/** Spec 8: active at departure or starting within 60 minutes. */
export const LOOK_AHEAD_MINUTES = 60;
/** How close to the route a disruption must be to be worth mentioning. */
export const NEAR_ROUTE_METRES = 60;
const SCAN_STEP_MINUTES = 5;
const SCAN_LIMIT_MINUTES = 8 * 24 * 60;

function segmentsNear(network: RoutingNetwork, route: Position[]): Set<number> {
  const graph = network.graph;
  const grid = graph.header.grid;
  const segments = new Set<number>();
  const cells = new Set<number>();
  for (const [lon, lat] of route) {
    const x = Math.floor((lon * COORDINATE_SCALE - grid.min_lon_e7) / grid.cell_lon_e7);
    const y = Math.floor((lat * COORDINATE_SCALE - grid.min_lat_e7) / grid.cell_lat_e7);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (x + dx >= 0 && x + dx < grid.cols && y + dy >= 0 && y + dy < grid.rows) cells.add((y + dy) * grid.cols + x + dx);
      }
    }
  }
  for (const cell of cells) {
    for (let i = graph.gridFirst[cell]!; i < graph.gridFirst[cell + 1]!; i++) segments.add(graph.gridSegments[i]!);
  }
  return segments;
}

function nearestPoint(network: RoutingNetwork, segment: number, route: Position[], projection: LocalProjection): { point: Position; metres: number } {
  const graph = network.graph;
  let best = { point: [0, 0] as Position, metres: Infinity };
  for (let p = graph.segmentFirstPoint[segment]!; p < graph.segmentFirstPoint[segment + 1]!; p++) {
    const lon = network.pointLon(p);
    const lat = network.pointLat(p);
    for (const [routeLon, routeLat] of route) {
      const metres = Math.hypot(projection.x(lon - routeLon), projection.y(lat - routeLat));
      if (metres < best.metres) best = { point: [lon, lat], metres };
    }
  }
  return best;
}

function wallClock(minute: number, timeZone: string): string {
  return DateTime.fromMillis(minute * 60_000, { zone: 'UTC' }).setZone(timeZone, { keepLocalTime: true }).toISO({ suppressMilliseconds: true })!;
}

/** The closed period containing or next after the departure, within the look-ahead. */
function closedPeriod(graph: Graph, closure: number, departureMinute: number): { from: number; to: number | null } | null {
  let from: number | null = null;
  for (let minute = departureMinute; minute <= departureMinute + LOOK_AHEAD_MINUTES; minute += SCAN_STEP_MINUTES) {
    if (isClosed(graph, closure, 'cycling', minute)) {
      from = minute;
      break;
    }
  }
  if (from === null) return null;
  if (from === departureMinute) {
    // Walk back to when this closed period began.
    while (from - SCAN_STEP_MINUTES > departureMinute - SCAN_LIMIT_MINUTES && isClosed(graph, closure, 'cycling', from - SCAN_STEP_MINUTES)) from -= SCAN_STEP_MINUTES;
  }
  let to: number | null = from;
  while (to !== null && isClosed(graph, closure, 'cycling', to)) {
    to += SCAN_STEP_MINUTES;
    if (to > departureMinute + SCAN_LIMIT_MINUTES) to = null;
  }
  return { from, to };
}

export function disruptionsNear(network: RoutingNetwork, route: Position[], departureMinute: number): Disruption[] {
  const graph = network.graph;
  const timeZone = graph.header.time_zone;
  const projection = new LocalProjection(route[0]![1]);
  const found = new Map<string, Disruption>();
  for (const segment of segmentsNear(network, route)) {
    for (const edge of [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!]) {
      if (edge < 0) continue;
      const flags = graph.edgeFlags[edge]!;
      const closure = graph.edgeClosure[edge]! - 1;
      const roadworks = (flags & EDGE_ROADWORKS) !== 0;
      if (closure < 0 && !roadworks) continue;
      const wayId = graph.segmentWayId[segment]!;
      const id = closure >= 0 ? `osm-closure-${wayId}-${closure}` : `osm-roadworks-${wayId}`;
      if (found.has(id)) continue;
      let period: { from: number; to: number | null } | null = null;
      if (closure >= 0) {
        period = closedPeriod(graph, closure, departureMinute);
        if (!period) continue;
      }
      const near = nearestPoint(network, segment, route, projection);
      if (near.metres > NEAR_ROUTE_METRES) continue;
      const name = graph.string(graph.segmentName[segment]!) || graph.string(graph.segmentRef[segment]!);
      found.set(id, {
        id,
        type: closure >= 0 ? 'closure' : 'roadworks',
        road_name: name || null,
        location: [Math.round(near.point[0] * 1e6) / 1e6, Math.round(near.point[1] * 1e6) / 1e6],
        active_at_departure: period ? period.from <= departureMinute : true,
        starts_at: period ? wallClock(period.from, timeZone) : null,
        ends_at: period?.to != null ? wallClock(period.to, timeZone) : null,
        source: 'openstreetmap',
        detail: closure >= 0 ? graph.string(graph.closureSource[closure]!) || null : null,
      });
    }
  }
  return [...found.values()];
}

const REPORT_TYPES: Record<AvoidanceEffect, Disruption['type']> = {
  closed: 'closure',
  one_way: 'one_way',
  no_manoeuvre: 'turn_removed',
  unsafe: 'hazard',
};

/**
 * Accepted reports acting on roads near the route that are in force at the departure. Reports
 * apply from their acceptance, so none starts later; a temporary closure ends at its `until`.
 */
export function reportDisruptions(network: RoutingNetwork, avoidances: readonly LocatedAvoidance[], route: Position[], departureMinute: number): Disruption[] {
  const graph = network.graph;
  const timeZone = graph.header.time_zone;
  const projection = new LocalProjection(route[0]![1]);
  const near = segmentsNear(network, route);
  const found: Disruption[] = [];
  for (const { item, edges, untilMinute } of avoidances) {
    if (departureMinute >= untilMinute) continue;
    const segment = edges.map((edge) => graph.edgeSegment[edge]!).find((candidate) => near.has(candidate));
    if (segment === undefined) continue;
    const closest = nearestPoint(network, segment, route, projection);
    if (closest.metres > NEAR_ROUTE_METRES) continue;
    found.push({
      id: `report-${item.report_id}`,
      type: REPORT_TYPES[item.effect],
      road_name: item.road_name ?? (graph.string(graph.segmentName[segment]!) || null),
      location: [Math.round(closest.point[0] * 1e6) / 1e6, Math.round(closest.point[1] * 1e6) / 1e6],
      active_at_departure: true,
      starts_at: DateTime.fromISO(item.accepted_at).setZone(timeZone).toISO({ suppressMilliseconds: true }),
      ends_at: item.until ? DateTime.fromISO(item.until).setZone(timeZone).toISO({ suppressMilliseconds: true }) : null,
      source: 'report',
      detail: `${item.issue_type}${item.issue_subtype ? `/${item.issue_subtype}` : ''}`,
    });
  }
  return found;
}
