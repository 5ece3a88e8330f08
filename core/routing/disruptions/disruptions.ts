import { DateTime } from 'luxon';
import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_ROADWORKS } from '../../graph/flags.ts';
import { forEachSegmentCell } from '../../graph/grid.ts';
import { isClosed } from '../../graph/rules.ts';
import { LocalProjection } from '../../geo.ts';
import type { RoutingNetwork } from '../network/network.ts';
import type { AvoidanceEffect, AvoidanceItem } from '../../report-avoidances.ts';
import type { LocatedAvoidance } from '../avoidances/locate-avoidances.ts';
import type { Position } from '../../geo.ts';

/**
 * Temporary road disruptions near a route (spec 4.1 `disruptions`): closures with a date window
 * or weekly hours that are in force at departure or begin within the hour, and roadworks, from
 * the city graph (OSM conditional tags, highway=construction); and what accepted road reports
 * do to the roads near it (core/routing/avoidances/locate-avoidances.ts). Never reported on walking routes.
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

/** Grid cells near a route, and the columns and rows they span. */
interface CellsNear {
  readonly cells: Set<number>;
  readonly west: number;
  readonly east: number;
  readonly south: number;
  readonly north: number;
}

/**
 * The grid cells within one cell of a route point, in the order the route first comes near them
 * (the spatial index of docs/graph-format.md): what "near the route" is searched in. Consecutive
 * points in one cell add nothing new, so they are skipped.
 */
function cellsNear(network: RoutingNetwork, route: Position[]): CellsNear {
  const grid = network.graph.header.grid;
  const cells = new Set<number>();
  let lastX = NaN;
  let lastY = NaN;
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const [lon, lat] of route) {
    const x = Math.floor((lon * COORDINATE_SCALE - grid.min_lon_e7) / grid.cell_lon_e7);
    const y = Math.floor((lat * COORDINATE_SCALE - grid.min_lat_e7) / grid.cell_lat_e7);
    if (x === lastX && y === lastY) continue;
    lastX = x;
    lastY = y;
    west = Math.min(west, x - 1);
    east = Math.max(east, x + 1);
    south = Math.min(south, y - 1);
    north = Math.max(north, y + 1);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (x + dx >= 0 && x + dx < grid.cols && y + dy >= 0 && y + dy < grid.rows) cells.add((y + dy) * grid.cols + x + dx);
      }
    }
  }
  return { cells, west, east, south, north };
}

/**
 * The segments with a closure rule or roadworks that the cells near the route list, in the order
 * the cells and the grid list them, found through the graph's disruption index (the few cells
 * that list such a segment; docs/graph-format.md) rather than by reading every segment near the
 * route.
 */
function disruptedSegmentsNear(network: RoutingNetwork, route: Position[]): Set<number> {
  const { disruptionCells, disruptionCellFirst, disruptionCellSegments } = network.graph;
  const found = new Set<number>();
  if (disruptionCells.length === 0) return found;
  for (const cell of cellsNear(network, route).cells) {
    let low = 0;
    let high = disruptionCells.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (disruptionCells[middle]! < cell) low = middle + 1;
      else high = middle;
    }
    if (disruptionCells[low] !== cell) continue;
    for (let i = disruptionCellFirst[low]!; i < disruptionCellFirst[low + 1]!; i++) found.add(disruptionCellSegments[i]!);
  }
  return found;
}

/**
 * Whether a cell near the route lists the segment (as the grid lists it: forEachSegmentCell). The
 * cells listing a segment lie within the columns and rows its points span, so a segment whose span
 * misses the cells' is not listed in them.
 */
function listedNear(network: RoutingNetwork, segment: number, near: CellsNear): boolean {
  const graph = network.graph;
  const grid = graph.header.grid;
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (let p = graph.segmentFirstPoint[segment]!; p < graph.segmentFirstPoint[segment + 1]!; p++) {
    const x = Math.floor((graph.pointCoords[2 * p]! - grid.min_lon_e7) / grid.cell_lon_e7);
    const y = Math.floor((graph.pointCoords[2 * p + 1]! - grid.min_lat_e7) / grid.cell_lat_e7);
    west = Math.min(west, x);
    east = Math.max(east, x);
    south = Math.min(south, y);
    north = Math.max(north, y);
  }
  if (west > near.east || east < near.west || south > near.north || north < near.south) return false;
  let listed = false;
  forEachSegmentCell(graph.pointCoords, graph.segmentFirstPoint, grid, segment, (cell) => {
    if (near.cells.has(cell)) listed = true;
  });
  return listed;
}

/**
 * The segment's point nearest to a route point, and how far it is; only route points within
 * NEAR_ROUTE_METRES of the segment's extent are measured (a farther one cannot be near enough to
 * matter), so a segment with none reads as infinitely far.
 */
function nearestPoint(network: RoutingNetwork, segment: number, route: Position[], projection: LocalProjection): { point: Position; metres: number } {
  const graph = network.graph;
  const first = graph.segmentFirstPoint[segment]!;
  const last = graph.segmentFirstPoint[segment + 1]!;
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (let p = first; p < last; p++) {
    west = Math.min(west, network.pointLon(p));
    east = Math.max(east, network.pointLon(p));
    south = Math.min(south, network.pointLat(p));
    north = Math.max(north, network.pointLat(p));
  }
  // A metre more than the limit, so rounding never leaves out a point at the limit.
  const marginLon = (NEAR_ROUTE_METRES + 1) / projection.metresPerDegreeLon;
  const marginLat = (NEAR_ROUTE_METRES + 1) / projection.metresPerDegreeLat;
  const close = route.filter(([lon, lat]) => lon >= west - marginLon && lon <= east + marginLon && lat >= south - marginLat && lat <= north + marginLat);
  let best = { point: [0, 0] as Position, metres: Infinity };
  for (let p = first; p < last; p++) {
    const lon = network.pointLon(p);
    const lat = network.pointLat(p);
    for (const [routeLon, routeLat] of close) {
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
  for (const segment of disruptedSegmentsNear(network, route)) {
    for (let side = 0; side < 2; side++) {
      const edge = side === 0 ? graph.segmentForwardEdge[segment]! : graph.segmentBackwardEdge[segment]!;
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

/** A report's period in the city's local time, per report and zone (see reportPeriod). */
const reportPeriods = new WeakMap<AvoidanceItem, { timeZone: string; starts_at: string | null; ends_at: string | null }>();

/**
 * When a report applies, as local ISO times: formatted once per report, since the zone
 * arithmetic costs more than finding the report near a route, and the same reports are listed
 * on route after route.
 */
function reportPeriod(item: AvoidanceItem, timeZone: string): { starts_at: string | null; ends_at: string | null } {
  const known = reportPeriods.get(item);
  if (known?.timeZone === timeZone) return { starts_at: known.starts_at, ends_at: known.ends_at };
  const local = (instant: string) => DateTime.fromISO(instant).setZone(timeZone).toISO({ suppressMilliseconds: true });
  const period = { timeZone, starts_at: local(item.accepted_at), ends_at: item.until ? local(item.until) : null };
  reportPeriods.set(item, period);
  return { starts_at: period.starts_at, ends_at: period.ends_at };
}

/**
 * Accepted reports acting on roads near the route that are in force at the departure. Reports
 * apply from their acceptance, so none starts later; a temporary closure ends at its `until`.
 */
export function reportDisruptions(network: RoutingNetwork, avoidances: readonly LocatedAvoidance[], route: Position[], departureMinute: number): Disruption[] {
  const graph = network.graph;
  const timeZone = graph.header.time_zone;
  const projection = new LocalProjection(route[0]![1]);
  const inForce = avoidances.filter(({ untilMinute, edges }) => departureMinute < untilMinute && edges.length > 0);
  if (inForce.length === 0) return [];
  const near = cellsNear(network, route);
  const found: Disruption[] = [];
  for (const { item, edges } of inForce) {
    const segment = edges.map((edge) => graph.edgeSegment[edge]!).find((candidate) => listedNear(network, candidate, near));
    if (segment === undefined) continue;
    const closest = nearestPoint(network, segment, route, projection);
    if (closest.metres > NEAR_ROUTE_METRES) continue;
    found.push({
      id: `report-${item.report_id}`,
      type: REPORT_TYPES[item.effect],
      road_name: item.road_name ?? (graph.string(graph.segmentName[segment]!) || null),
      location: [Math.round(closest.point[0] * 1e6) / 1e6, Math.round(closest.point[1] * 1e6) / 1e6],
      active_at_departure: true,
      ...reportPeriod(item, timeZone),
      source: 'report',
      detail: `${item.issue_type}${item.issue_subtype ? `/${item.issue_subtype}` : ''}`,
    });
  }
  return found;
}
