import { LocalProjection } from '../../../core/geo.ts';
import {
  EDGE_CYCLE_ROUTE,
  EDGE_CYCLING,
  EDGE_DISMOUNT,
  EDGE_WALKING,
  LIT_ASSUMED,
  LIT_NO,
  LIT_YES,
  NODE_CROSSING_SIGNALS,
  NODE_TRAFFIC_SIGNALS,
  ROAD_CLASSES,
  SAFETY_CLASSES,
  litOf,
  roadClassOf,
  safetyClassOf,
} from '../../../core/graph/flags.ts';
import { COORDINATE_SCALE, type Graph } from '../../../core/graph/layout.ts';

/**
 * The playground's base map: a city's routing graph as the page draws it, one feature per
 * segment (the stretch of one way between two graph nodes), with what a rider judges a street
 * by: its safety class, whether it is lit, whether it is on a signed cycle route, its name.
 * There is no tile server here, so this is the map. Columnar JSON with integer, delta-encoded
 * coordinates keeps New York's 57,000 segments near 2 MB (about 0.6 MB gzipped) and quick to
 * parse; the page indexes and draws it on canvas tiles (web/base-map.js).
 */

/**
 * What each segment is drawn as: the five safety classes of its cycling edge, `push` where a
 * bike may only be pushed (footways, steps; docs/routing.md "Pushing the bike"), `foot` where
 * only walking routes go.
 */
export const BASE_MAP_KINDS = [...SAFETY_CLASSES, 'push', 'foot'] as const;
export type BaseMapKind = (typeof BASE_MAP_KINDS)[number];
const KIND_PUSH = BASE_MAP_KINDS.indexOf('push');
const KIND_FOOT = BASE_MAP_KINDS.indexOf('foot');

/** Bits of a segment's `flags`. Lighting is known only in cities with lighting data. */
export const BASE_MAP_FLAGS = {
  lit: 1,
  /** A public street the builder takes as lit where the city's data lights streets as a rule. */
  lit_assumed: 2,
  unlit: 4,
  cycle_route: 8,
  /** trunk, primary or secondary: drawn wider. */
  major_road: 16,
} as const;

/** Coordinates are integers in millionths of a degree (about 0.1 m). */
export const BASE_MAP_SCALE = 1e6;
/** Points closer than this to the simplified line are dropped (Douglas-Peucker). */
export const SIMPLIFY_TOLERANCE_METRES = 0.5;

const MAJOR_ROAD_CLASSES = new Set<number>(['trunk', 'primary', 'secondary'].map((name) => ROAD_CLASSES.indexOf(name as (typeof ROAD_CLASSES)[number])));

export interface BaseMap {
  city: string;
  graph_version: string;
  lighting_data: boolean;
  /** Nodes whose heights an elevation model gave (0 where none covers the city: flat). */
  elevation_nodes: number;
  /** [min lon, min lat, max lon, max lat], degrees. */
  bbox: readonly [number, number, number, number];
  /** Where the page opens the city: `busiestSquare` of the graph, [west, south, east, north]. */
  opening_view: readonly [number, number, number, number];
  kinds: readonly BaseMapKind[];
  flag_bits: typeof BASE_MAP_FLAGS;
  scale: number;
  /** The segments' first points are relative to this, in `scale` units. */
  origin: [number, number];
  /** Street names (or road references where a way has no name); 0 is "no name". */
  names: string[];
  segments: {
    count: number;
    /** Index into `kinds`. */
    kind: number[];
    flags: number[];
    /** Index into `names`. */
    name: number[];
    /** Points of each segment, in order. */
    points: number[];
    /**
     * Per point lon, lat: a segment's first point relative to `origin`, each next one relative
     * to the point before it.
     */
    coords: number[];
  };
}

/**
 * Douglas-Peucker on one line in local metres: the indices of the points to keep (always the
 * two ends), so the kept line stays within `tolerance` of every original point.
 */
export function simplifyLine(xs: readonly number[], ys: readonly number[], tolerance: number): number[] {
  const last = xs.length - 1;
  if (last < 2) return xs.map((_, index) => index);
  const keep = new Uint8Array(xs.length);
  keep[0] = 1;
  keep[last] = 1;
  const stack: [number, number][] = [[0, last]];
  while (stack.length) {
    const [first, end] = stack.pop()!;
    const dx = xs[end]! - xs[first]!;
    const dy = ys[end]! - ys[first]!;
    const lengthSquared = dx * dx + dy * dy;
    let farthest = -1;
    let farthestDistance = tolerance;
    for (let index = first + 1; index < end; index++) {
      const px = xs[index]! - xs[first]!;
      const py = ys[index]! - ys[first]!;
      const along = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / lengthSquared));
      const distance = Math.hypot(px - along * dx, py - along * dy);
      if (distance > farthestDistance) {
        farthest = index;
        farthestDistance = distance;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push([first, farthest], [farthest, end]);
  }
  return [...keep.keys()].filter((index) => keep[index]);
}

function litFlags(flags: number): number {
  switch (litOf(flags)) {
    case LIT_YES:
      return BASE_MAP_FLAGS.lit;
    case LIT_ASSUMED:
      return BASE_MAP_FLAGS.lit | BASE_MAP_FLAGS.lit_assumed;
    case LIT_NO:
      return BASE_MAP_FLAGS.unlit;
    default:
      return 0;
  }
}

/** The side of the square the page opens a city on: about what a 900-pixel map shows at zoom 15. */
export const OPENING_VIEW_METRES = 2_000;
/** The grid the square moves on. */
export const OPENING_VIEW_STEP_METRES = 250;

/**
 * The busiest part of a city's extract, where the page opens it rather than on the whole extract
 * (which can span several neighbourhoods, or a suburb far from the centre, at a zoom where no
 * street can be told from another): the square of OPENING_VIEW_METRES a side, on a grid of
 * OPENING_VIEW_STEP_METRES, with the most signal-controlled junctions and crossings (where
 * traffic and people are densest: London's extracts reach from Westminster to the outer North
 * London suburbs, whose streets are as many but whose signals are not), then, where signals do
 * not decide (extracts without any), the most metres of street a bike can ride (cycling edges,
 * pushed ways excepted, each piece counted in the grid cell of its midpoint). An extract smaller
 * than the square is shown whole. [west, south, east, north], degrees.
 */
export function busiestSquare(graph: Graph): [number, number, number, number] {
  const [minLon, minLat, maxLon, maxLat] = graph.header.bbox;
  const projection = new LocalProjection((minLat + maxLat) / 2);
  const x0 = projection.x(minLon);
  const y0 = projection.y(minLat);
  const step = OPENING_VIEW_STEP_METRES;
  const columns = Math.max(1, Math.ceil((projection.x(maxLon) - x0) / step));
  const rows = Math.max(1, Math.ceil((projection.y(maxLat) - y0) / step));
  const cellOf = (x: number, y: number) =>
    Math.min(rows - 1, Math.max(0, Math.floor(y / step))) * columns + Math.min(columns - 1, Math.max(0, Math.floor(x / step)));
  const signals = new Float64Array(columns * rows);
  for (let node = 0; node < graph.nodeCount; node++) {
    if (!(graph.nodeFlags[node]! & (NODE_TRAFFIC_SIGNALS | NODE_CROSSING_SIGNALS))) continue;
    const x = projection.x(graph.nodeCoords[2 * node]! / COORDINATE_SCALE) - x0;
    const y = projection.y(graph.nodeCoords[2 * node + 1]! / COORDINATE_SCALE) - y0;
    signals[cellOf(x, y)]! += 1;
  }
  const metres = new Float64Array(columns * rows);
  for (let segment = 0; segment < graph.segmentCount; segment++) {
    const rideable = [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!].some(
      (edge) => edge >= 0 && graph.edgeFlags[edge]! & EDGE_CYCLING && !(graph.edgeFlags[edge]! & EDGE_DISMOUNT),
    );
    if (!rideable) continue;
    const first = graph.segmentFirstPoint[segment]!;
    const end = graph.segmentFirstPoint[segment + 1]!;
    for (let point = first; point + 1 < end; point++) {
      const ax = projection.x(graph.pointCoords[2 * point]! / COORDINATE_SCALE) - x0;
      const ay = projection.y(graph.pointCoords[2 * point + 1]! / COORDINATE_SCALE) - y0;
      const bx = projection.x(graph.pointCoords[2 * point + 2]! / COORDINATE_SCALE) - x0;
      const by = projection.y(graph.pointCoords[2 * point + 3]! / COORDINATE_SCALE) - y0;
      metres[cellOf((ax + bx) / 2, (ay + by) / 2)]! += Math.hypot(bx - ax, by - ay);
    }
  }
  const side = Math.round(OPENING_VIEW_METRES / step);
  const height = Math.min(side, rows);
  const width = Math.min(side, columns);
  const signalsIn = windowSums(signals, rows, columns, height, width);
  const metresIn = windowSums(metres, rows, columns, height, width);
  let best = { row: 0, column: 0, signals: -1, metres: -1 };
  for (let row = 0; row + height <= rows; row++) {
    for (let column = 0; column + width <= columns; column++) {
      const candidate = { row, column, signals: signalsIn(row, column), metres: metresIn(row, column) };
      if (candidate.signals > best.signals || (candidate.signals === best.signals && candidate.metres > best.metres)) best = candidate;
    }
  }
  const lon = (x: number) => (x0 + x) / projection.metresPerDegreeLon;
  const lat = (y: number) => (y0 + y) / projection.metresPerDegreeLat;
  return [
    Math.max(minLon, lon(best.column * step)),
    Math.max(minLat, lat(best.row * step)),
    Math.min(maxLon, lon((best.column + width) * step)),
    Math.min(maxLat, lat((best.row + height) * step)),
  ];
}

/** The sum over the height x width window whose top-left cell is (row, column), from a table of prefix sums. */
function windowSums(cells: Float64Array, rows: number, columns: number, height: number, width: number): (row: number, column: number) => number {
  const stride = columns + 1;
  const total = new Float64Array((rows + 1) * stride);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      total[(row + 1) * stride + column + 1] = cells[row * columns + column]! + total[row * stride + column + 1]! + total[(row + 1) * stride + column]! - total[row * stride + column]!;
    }
  }
  return (row, column) =>
    total[(row + height) * stride + column + width]! - total[row * stride + column + width]! - total[(row + height) * stride + column]! + total[row * stride + column]!;
}

/** The base map of one graph: every segment either profile may use, simplified. */
export function baseMapOf(graph: Graph): BaseMap {
  const [minLon, minLat] = graph.header.bbox;
  const origin: [number, number] = [Math.floor(minLon * BASE_MAP_SCALE), Math.floor(minLat * BASE_MAP_SCALE)];
  const projection = new LocalProjection((graph.header.bbox[1] + graph.header.bbox[3]) / 2);
  const toScale = BASE_MAP_SCALE / COORDINATE_SCALE;
  const names: string[] = [''];
  const nameIndex = new Map<number, number>();
  const segments: BaseMap['segments'] = { count: 0, kind: [], flags: [], name: [], points: [], coords: [] };

  for (let segment = 0; segment < graph.segmentCount; segment++) {
    const forward = graph.segmentForwardEdge[segment]!;
    const backward = graph.segmentBackwardEdge[segment]!;
    const edgeFlags = [forward, backward].filter((edge) => edge >= 0).map((edge) => graph.edgeFlags[edge]!);
    // The class a rider meets: the cycling edge's (the two directions share it but for a handful of ways).
    const cycling = edgeFlags.find((flags) => flags & EDGE_CYCLING);
    const walking = edgeFlags.find((flags) => flags & EDGE_WALKING);
    const flags = cycling ?? walking;
    if (flags === undefined) continue;
    const kind = cycling === undefined ? KIND_FOOT : cycling & EDGE_DISMOUNT ? KIND_PUSH : safetyClassOf(cycling);
    let segmentFlags = litFlags(flags);
    if (flags & EDGE_CYCLE_ROUTE) segmentFlags |= BASE_MAP_FLAGS.cycle_route;
    if (MAJOR_ROAD_CLASSES.has(roadClassOf(flags))) segmentFlags |= BASE_MAP_FLAGS.major_road;

    const nameId = graph.segmentName[segment]! || graph.segmentRef[segment]!;
    let name = 0;
    if (nameId) {
      name = nameIndex.get(nameId) ?? names.push(graph.string(nameId)) - 1;
      nameIndex.set(nameId, name);
    }

    const first = graph.segmentFirstPoint[segment]!;
    const end = graph.segmentFirstPoint[segment + 1]!;
    const lons: number[] = [];
    const lats: number[] = [];
    for (let point = first; point < end; point++) {
      lons.push(graph.pointCoords[2 * point]!);
      lats.push(graph.pointCoords[2 * point + 1]!);
    }
    const kept = simplifyLine(
      lons.map((lon) => projection.x(lon / COORDINATE_SCALE)),
      lats.map((lat) => projection.y(lat / COORDINATE_SCALE)),
      SIMPLIFY_TOLERANCE_METRES,
    );
    let [previousLon, previousLat] = origin;
    for (const index of kept) {
      const lon = Math.round(lons[index]! * toScale);
      const lat = Math.round(lats[index]! * toScale);
      segments.coords.push(lon - previousLon, lat - previousLat);
      previousLon = lon;
      previousLat = lat;
    }
    segments.count++;
    segments.kind.push(kind);
    segments.flags.push(segmentFlags);
    segments.name.push(name);
    segments.points.push(kept.length);
  }

  return {
    city: graph.header.city,
    graph_version: graph.header.graph_version,
    lighting_data: graph.header.lighting_data,
    elevation_nodes: graph.header.elevation.nodes_by_source.dem,
    bbox: graph.header.bbox,
    opening_view: busiestSquare(graph),
    kinds: BASE_MAP_KINDS,
    flag_bits: BASE_MAP_FLAGS,
    scale: BASE_MAP_SCALE,
    origin,
    names,
    segments,
  };
}
