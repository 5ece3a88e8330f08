/**
 * The compiled routing graph: one binary file per city, written by `graph-builder` and opened by
 * the router without parsing. This module is the single definition of the layout; the builder's
 * writer and the router's reader both use it, so they cannot drift apart.
 *
 * File layout (all integers little-endian):
 *   bytes 0..7    magic `SPKGRAPH`
 *   bytes 8..11   u32 format version ({@link GRAPH_FORMAT_VERSION})
 *   bytes 12..15  u32 byte length of the JSON header
 *   bytes 16..    UTF-8 JSON {@link GraphHeader}
 *   then every section of {@link sectionTypes}, each starting on an 8-byte boundary at the absolute
 *   offset the header records, so a typed array can view it in place.
 *
 * See docs/graph-format.md for the meaning of every section and bit.
 */

export const GRAPH_MAGIC = 'SPKGRAPH';
export const GRAPH_FORMAT_VERSION = 2;
export const PRELUDE_BYTES = 16;
export const SECTION_ALIGNMENT = 8;

/** Coordinates are stored as Int32 in units of 1e-7 degrees (OSM's own precision, ~1 cm). */
export const COORDINATE_SCALE = 1e7;

export type ElementType = 'u8' | 'u16' | 'u32' | 'i32' | 'f32' | 'f64';

const arrayConstructors = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

type ArrayOf<T extends ElementType> = T extends 'u8' ? Uint8Array
  : T extends 'u16' ? Uint16Array
  : T extends 'u32' ? Uint32Array
  : T extends 'i32' ? Int32Array
  : T extends 'f32' ? Float32Array
  : Float64Array;

/**
 * Every section, in file order, with its element type. N = nodes, E = directed edges,
 * S = segments (undirected stretches of one way between two graph nodes, shared by the two
 * directed edges over them), P = geometry points.
 */
export const sectionTypes = {
  /** 2N: lon, lat of each node (1e-7 degrees). Nodes are in Hilbert-curve order for locality. */
  nodeCoords: 'i32',
  /** N: metres above sea level (0 when the header says `flat`). */
  nodeElevation: 'f32',
  /** N: NODE_* bits (control present at the node, barriers, junction). */
  nodeFlags: 'u16',
  /** N+1: forward CSR; the edges leaving node v are firstOut[v] .. firstOut[v+1]-1. */
  firstOut: 'u32',
  /** E: node each directed edge arrives at. */
  edgeHead: 'u32',
  /** E: node each directed edge leaves from (also implied by firstOut; stored for edge-based search). */
  edgeTail: 'u32',
  /** E: metres along the geometry. */
  edgeLength: 'f32',
  /** E: packed attributes, see EDGE_* below. */
  edgeFlags: 'u32',
  /** E: segment the edge runs over (geometry, names, way id); EDGE_REVERSED says in which direction. */
  edgeSegment: 'u32',
  /** E: 0 = no time rule; else 1 + index of the first of the edge's closures (see CLOSURE_CONTINUES). */
  edgeClosure: 'u16',
  /** N+1: reverse CSR; the edges arriving at node v are inEdges[firstIn[v] .. firstIn[v+1]-1]. */
  firstIn: 'u32',
  /** E: edge ids grouped by head node. */
  inEdges: 'u32',
  /** S+1: segment s has points segmentFirstPoint[s] .. segmentFirstPoint[s+1]-1 (both end nodes included). */
  segmentFirstPoint: 'u32',
  /** 2P: lon, lat of every geometry point (1e-7 degrees). */
  pointCoords: 'i32',
  /** S: OSM way id (exact up to 2^53). */
  segmentWayId: 'f64',
  /** S: string id of the street name (0 = none). */
  segmentName: 'u32',
  /** S: string id of the road reference such as `A400` (0 = none). */
  segmentRef: 'u32',
  /** S: route-set id: the named signed cycle routes along the segment (0 = none). */
  segmentRouteSet: 'u32',
  /** S: decimetres climbed along the geometry direction. */
  segmentAscent: 'u16',
  /** S: decimetres descended along the geometry direction. */
  segmentDescent: 'u16',
  /** S: edge along the geometry direction, or -1. */
  segmentForwardEdge: 'i32',
  /** S: edge against the geometry direction, or -1. */
  segmentBackwardEdge: 'i32',
  /** K+1: byte offsets of each string in stringBytes. String 0 is the empty string. */
  stringOffsets: 'u32',
  /** UTF-8 bytes of all strings. */
  stringBytes: 'u8',
  /** R+1: route set r holds routeSetMembers[routeSetFirst[r] .. routeSetFirst[r+1]-1]. Set 0 is empty. */
  routeSetFirst: 'u32',
  /** string ids of cycle route names. */
  routeSetMembers: 'u32',
  /** T+1: turn restriction t forbids the edge sequence restrictionEdges[restrictionFirst[t] .. restrictionFirst[t+1]-1]. Sorted by first edge. */
  restrictionFirst: 'u32',
  /** Edge sequences: from edge, any via edges, to edge. */
  restrictionEdges: 'u32',
  /** T: RESTRICTION_* bits. */
  restrictionFlags: 'u8',
  /** T: 0 = always in force; else 1 + time-window index (in force only while the window is active). */
  restrictionWindow: 'u16',
  /** C: time-window index of each closure. */
  closureWindow: 'u16',
  /** C: CLOSURE_* bits. */
  closureFlags: 'u8',
  /** C: string id of the original tag, e.g. `access:conditional=no @ (2026 Jun 01-2026 Aug 31)`. */
  closureSource: 'u32',
  /** W: TIME_WINDOW_WEEKLY or TIME_WINDOW_DATES. */
  windowKind: 'u8',
  /** W+1: window w has intervals windowFirst[w] .. windowFirst[w+1]-1. */
  windowFirst: 'u32',
  /** 2 per interval: [start, end) in local minutes (see TIME_WINDOW_*), sorted, disjoint. */
  windowIntervals: 'i32',
  /** W: string id of the opening_hours expression the window was compiled from. */
  windowSource: 'u32',
  /** cols*rows+1: grid cell c lists gridSegments[gridFirst[c] .. gridFirst[c+1]-1]. */
  gridFirst: 'u32',
  /** Segment ids whose geometry touches the cell. */
  gridSegments: 'u32',
  /** A: string id of each named area (e.g. London boroughs, for parking rules). */
  areaName: 'u32',
  /** A+1: area a has rings areaFirstRing[a] .. areaFirstRing[a+1]-1 (outer rings and holes; even-odd rule). */
  areaFirstRing: 'u32',
  /** Rings+1: ring r has points ringFirstPoint[r] .. ringFirstPoint[r+1]-1 in areaCoords. */
  ringFirstPoint: 'u32',
  /** 2 per point: lon, lat (1e-7 degrees). */
  areaCoords: 'i32',
  /** M*L: the L landmark nodes of each of the header's M landmark metrics. */
  landmarkNodes: 'u32',
  /** M*E: least cost of any turn out of each edge, half-seconds (255: none follows). */
  landmarkLeave: 'u8',
  /** M*L*N: least cost from each landmark to each node, in the metric's unit (65535: unreachable). */
  landmarkFrom: 'u16',
  /** M*L*N: least cost from each node to each landmark, in the metric's unit (65535: unreachable). */
  landmarkTo: 'u16',
} as const satisfies Record<string, ElementType>;

export type SectionName = keyof typeof sectionTypes;
export type GraphSections = { readonly [K in SectionName]: ArrayOf<(typeof sectionTypes)[K]> };
export const sectionNames = Object.keys(sectionTypes) as SectionName[];

// ---- node flags (nodeFlags, u16) ----
export const NODE_TRAFFIC_SIGNALS = 1 << 0;
export const NODE_STOP = 1 << 1;
export const NODE_ALL_WAY_STOP = 1 << 2;
export const NODE_GIVE_WAY = 1 << 3;
/** A pedestrian crossing of a carriageway (any kind). */
export const NODE_CROSSING = 1 << 4;
/** A crossing with pedestrian signals. */
export const NODE_CROSSING_SIGNALS = 1 << 5;
/** A barrier cyclists cannot pass even pushing (stile, turnstile, bicycle=no). */
export const NODE_BARRIER_NO_CYCLING = 1 << 6;
/** A barrier pedestrians cannot pass. */
export const NODE_BARRIER_NO_WALKING = 1 << 7;
/** A barrier cyclists pass only pushing (kissing gate, cycle barrier, bicycle=dismount). */
export const NODE_BARRIER_DISMOUNT = 1 << 8;
/** Three or more distinct neighbours: a real junction (for guidance). */
export const NODE_JUNCTION = 1 << 9;
export const NODE_MINI_ROUNDABOUT = 1 << 10;

// ---- edge flags (edgeFlags, u32) ----
export const SAFETY_CLASSES = ['quiet', 'cycleway', 'moderate', 'busy', 'shared'] as const;
export type SafetyClass = (typeof SAFETY_CLASSES)[number];
export const SAFETY_QUIET = 0;
export const SAFETY_CYCLEWAY = 1;
export const SAFETY_MODERATE = 2;
export const SAFETY_BUSY = 3;
export const SAFETY_SHARED = 4;

export const EDGE_SAFETY_MASK = 0b111; // bits 0-2
export const EDGE_CYCLING = 1 << 3;
export const EDGE_WALKING = 1 << 4;
export const EDGE_LIT_SHIFT = 5; // bits 5-6: LIT_* (unknown, no, yes, assumed)
export const EDGE_SURFACE_SHIFT = 7; // bits 7-8: surface penalty 0 (smooth) .. 3 (very rough)
export const EDGE_ROADWORKS = 1 << 9;
/** Cycling is allowed only pushing the bike (walking pace). */
export const EDGE_DISMOUNT = 1 << 10;
export const EDGE_WALK_KIND_SHIFT = 11; // bits 11-12: WALK_*
export const EDGE_STEPS = 1 << 13;
/** The edge runs against its segment's geometry direction. */
export const EDGE_REVERSED = 1 << 14;
export const EDGE_ROUNDABOUT = 1 << 15;
export const EDGE_ROAD_CLASS_SHIFT = 16; // bits 16-19: ROAD_CLASSES index
/** Cycling against a one-way street where bicycles are exempt (contraflow). */
export const EDGE_CONTRAFLOW = 1 << 20;
/** At least one restriction sequence starts with this edge. */
export const EDGE_RESTRICTION_FROM = 1 << 21;
export const EDGE_ARRIVAL_CONTROL_SHIFT = 22; // bits 22-24: CONTROL_*
/** Signals or an all-way stop govern this approach to the junction at the edge's head. */
export const EDGE_JUNCTION_CONTROLLED = 1 << 25;
/** The segment is on a signed cycle route (route relation or lcn/rcn/ncn tag). */
export const EDGE_CYCLE_ROUTE = 1 << 26;
/** A `*_link` slip road. */
export const EDGE_LINK = 1 << 27;

export const LIT_UNKNOWN = 0;
export const LIT_NO = 1;
export const LIT_YES = 2;
/**
 * No lit tag, but a public street in a city with street-lighting data (London, New York), where
 * such streets are lit as a rule. Treat as lit; kept apart from LIT_YES so costs can weigh it less.
 */
export const LIT_ASSUMED = 3;

/** How a walking edge relates to traffic. */
export const WALK_CARRIAGEWAY = 0; // walking in the road: no pavement mapped either way
export const WALK_PAVEMENT = 1; // a road whose pavement is tagged on it (sidewalk=*)
export const WALK_PATH = 2; // footway, path, pedestrian street, steps
export const WALK_CROSSING = 3; // footway=crossing

/** Control met on arriving at an edge's head node through this edge. */
export const CONTROL_NONE = 0;
export const CONTROL_TRAFFIC_SIGNALS = 1;
export const CONTROL_ALL_WAY_STOP = 2;
export const CONTROL_TWO_WAY_STOP = 3;
export const CONTROL_GIVE_WAY = 4;
export const STOP_TYPES = [null, 'traffic_signal', 'stop_sign', 'two_way_stop', 'give_way'] as const;

export const ROAD_CLASSES = [
  'other', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street',
  'service', 'track', 'cycleway', 'path', 'footway', 'pedestrian', 'steps', 'bridleway',
] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];

export const safetyClassOf = (flags: number): number => flags & EDGE_SAFETY_MASK;
export const litOf = (flags: number): number => (flags >>> EDGE_LIT_SHIFT) & 0b11;
export const surfacePenaltyOf = (flags: number): number => (flags >>> EDGE_SURFACE_SHIFT) & 0b11;
export const walkKindOf = (flags: number): number => (flags >>> EDGE_WALK_KIND_SHIFT) & 0b11;
export const roadClassOf = (flags: number): number => (flags >>> EDGE_ROAD_CLASS_SHIFT) & 0b1111;
export const arrivalControlOf = (flags: number): number => (flags >>> EDGE_ARRIVAL_CONTROL_SHIFT) & 0b111;

// ---- turn restrictions (restrictionFlags, u8) ----
/** Every stored restriction forbids its edge sequence; this bit says it was derived from an only_* relation. */
export const RESTRICTION_FROM_ONLY = 1 << 0;
/** From `restriction:bicycle=*` rather than the general `restriction=*`. */
export const RESTRICTION_BICYCLE_SPECIFIC = 1 << 1;
/** Spec 1.2.4: both approaches are on the same cycleway, so the router sets this no-turn aside. */
export const RESTRICTION_SAME_CYCLEWAY = 1 << 2;
/** The sequence has via edges (a via-way restriction) rather than a single via node. */
export const RESTRICTION_VIA_WAY = 1 << 3;

// ---- closures (closureFlags, u8) ----
export const CLOSURE_CYCLING = 1 << 0;
export const CLOSURE_WALKING = 1 << 1;
/** Closed while the window is NOT active (opening hours, `access=no` + `access:conditional=yes @ ...`). */
export const CLOSURE_OUTSIDE_WINDOW = 1 << 2;
/** The window has fixed dates (spec 1.2.6 date-range closure); otherwise a recurring schedule. */
export const CLOSURE_DATED = 1 << 3;
/** The next closure record applies to the same edges too (an edge's closures are consecutive). */
export const CLOSURE_CONTINUES = 1 << 4;

// ---- time windows ----
/** Intervals are minutes of the local week, Monday 00:00 = 0, up to 10080. */
export const TIME_WINDOW_WEEKLY = 0;
/**
 * Intervals are local wall-clock minutes since 1970-01-01T00:00 (the wall clock read as if it
 * were UTC, see {@link localMinutes}), expanded at build time over `header.time_windows.horizon`.
 * Used for date ranges, public holidays and sunrise/sunset-based hours.
 */
export const TIME_WINDOW_DATES = 1;
export const MINUTES_PER_WEEK = 7 * 24 * 60;

export interface SectionEntry {
  /** Absolute byte offset in the file, a multiple of 8. */
  readonly offset: number;
  /** Number of elements. */
  readonly length: number;
  readonly type: ElementType;
}

export type ElevationSource = 'dem' | 'osm' | 'flat';

/** The spatial index's grid: origin and cell size in 1e-7 degrees, and its dimensions. */
export interface GridSpec {
  readonly min_lon_e7: number;
  readonly min_lat_e7: number;
  readonly cell_lon_e7: number;
  readonly cell_lat_e7: number;
  readonly cols: number;
  readonly rows: number;
}

export interface GraphCounts {
  readonly nodes: number;
  readonly edges: number;
  readonly segments: number;
  readonly points: number;
  readonly strings: number;
  readonly route_sets: number;
  readonly restrictions: number;
  readonly closures: number;
  readonly time_windows: number;
  readonly areas: number;
}

export interface LandmarkHeader {
  /** Fingerprint of the costing weights the tables were computed under. */
  readonly costing: string;
  /** Landmarks per metric (L). */
  readonly count: number;
  /** In section order; `unit` is the seconds one step of the 16-bit distances stands for. */
  readonly metrics: readonly { readonly name: string; readonly unit: number }[];
}

export interface GraphHeader {
  readonly format_version: number;
  readonly city: string;
  /** `<city>-<UTC yyyymmddThhmmss>-<first 8 hex of source_hash>`. */
  readonly graph_version: string;
  readonly built_at: string;
  readonly builder_version: string;
  /** SHA-256 of the builder version, the city's build configuration and every input file. */
  readonly source_hash: string;
  readonly sources: readonly { readonly name: string; readonly bytes: number; readonly sha256: string }[];
  readonly time_zone: string;
  readonly lighting_data: boolean;
  readonly elevation: {
    /** Where most nodes' elevation came from. */
    readonly source: ElevationSource;
    readonly nodes_by_source: Readonly<Record<ElevationSource, number>>;
  };
  /** [min lon, min lat, max lon, max lat] of the nodes, degrees. */
  readonly bbox: readonly [number, number, number, number];
  readonly grid: GridSpec;
  readonly time_windows: {
    /** [start, end) in local wall-clock minutes: TIME_WINDOW_DATES windows are exact inside it. */
    readonly horizon: readonly [number, number];
  };
  readonly counts: GraphCounts;
  /** The precomputed search bounds in the landmark sections (see functions/routing/landmarks.ts). */
  readonly landmarks: LandmarkHeader;
  readonly sections: Readonly<Record<SectionName, SectionEntry>>;
}

/** What a graph knows about itself: the header, less where its sections sit in a file. */
export type GraphInfo = Omit<GraphHeader, 'sections'>;

export interface Graph extends GraphSections {
  readonly header: GraphInfo;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly segmentCount: number;
  /** Decoded string `id` of the string table (cached). */
  string(id: number): string;
}

const textDecoder = new TextDecoder();

function readPrelude(bytes: Uint8Array): { header: GraphHeader; headerEnd: number } {
  if (bytes.byteLength < PRELUDE_BYTES) throw new Error('Not a graph file: too short');
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== GRAPH_MAGIC) throw new Error('Not a graph file: bad magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== GRAPH_FORMAT_VERSION) {
    throw new Error(`Graph format version ${version} is not supported (expected ${GRAPH_FORMAT_VERSION})`);
  }
  const headerLength = view.getUint32(12, true);
  if (PRELUDE_BYTES + headerLength > bytes.byteLength) throw new Error('Graph file truncated in its header');
  const header = JSON.parse(textDecoder.decode(bytes.subarray(PRELUDE_BYTES, PRELUDE_BYTES + headerLength))) as GraphHeader;
  return { header, headerEnd: PRELUDE_BYTES + headerLength };
}

/** Reads only the JSON header (for staleness checks and listings). */
export function readGraphHeader(bytes: Uint8Array): GraphHeader {
  return readPrelude(bytes).header;
}

/**
 * Opens a graph in place: every section becomes a typed-array view on `bytes`, nothing is parsed
 * or copied. If `bytes` does not start on an 8-byte boundary (a slice of Node's Buffer pool), it
 * is copied once so the views can be aligned.
 */
export function openGraph(bytes: Uint8Array): Graph {
  const aligned = bytes.byteOffset % SECTION_ALIGNMENT === 0 ? bytes : bytes.slice();
  const { header } = readPrelude(aligned);
  const sections = {} as Record<SectionName, ArrayOf<ElementType>>;
  for (const name of sectionNames) {
    const entry = header.sections[name];
    if (!entry) throw new Error(`Graph file has no section ${name}`);
    const Constructor = arrayConstructors[sectionTypes[name]];
    const end = entry.offset + entry.length * Constructor.BYTES_PER_ELEMENT;
    if (end > aligned.byteLength) throw new Error(`Graph file truncated in section ${name}`);
    sections[name] = new Constructor(aligned.buffer as ArrayBuffer, aligned.byteOffset + entry.offset, entry.length);
  }
  return graphOf(header, sections as unknown as GraphSections);
}

/** A graph over sections already in memory: a file's views (openGraph) or the builder's arrays. */
export function graphOf(header: GraphInfo, sections: GraphSections): Graph {
  const stringCache = new Map<number, string>();
  return {
    ...sections,
    header,
    nodeCount: header.counts.nodes,
    edgeCount: header.counts.edges,
    segmentCount: header.counts.segments,
    string(id: number): string {
      if (id === 0) return '';
      let text = stringCache.get(id);
      if (text === undefined) {
        text = textDecoder.decode(sections.stringBytes.subarray(sections.stringOffsets[id], sections.stringOffsets[id + 1]));
        stringCache.set(id, text);
      }
      return text;
    },
  };
}

/** Byte layout for a set of section lengths; the writer fills the sections at these offsets. */
export function layoutSections(
  headerByteLength: number,
  lengths: Readonly<Record<SectionName, number>>,
): { sections: Record<SectionName, SectionEntry>; totalBytes: number } {
  let offset = alignUp(PRELUDE_BYTES + headerByteLength);
  const sections = {} as Record<SectionName, SectionEntry>;
  for (const name of sectionNames) {
    const type = sectionTypes[name];
    sections[name] = { offset, length: lengths[name], type };
    offset = alignUp(offset + lengths[name] * arrayConstructors[type].BYTES_PER_ELEMENT);
  }
  return { sections, totalBytes: offset };
}

export const alignUp = (value: number): number => Math.ceil(value / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;
export const bytesPerElement = (type: ElementType): number => arrayConstructors[type].BYTES_PER_ELEMENT;

// ---- reading helpers the router needs ----

/** Range [start, end) of restrictions whose sequence starts with `edge` (restrictions are sorted by first edge). */
export function restrictionsFrom(graph: Graph, edge: number): [number, number] {
  const count = graph.restrictionFlags.length;
  const firstEdgeOf = (t: number): number => graph.restrictionEdges[graph.restrictionFirst[t]!]!;
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (firstEdgeOf(mid) < edge) low = mid + 1;
    else high = mid;
  }
  let end = low;
  while (end < count && firstEdgeOf(end) === edge) end++;
  return [low, end];
}

/** Local wall-clock minutes since 1970-01-01T00:00 for a wall-clock time in the city's zone. */
export function localMinutes(year: number, month: number, day: number, hour: number, minute: number): number {
  return Date.UTC(year, month - 1, day, hour, minute) / 60_000;
}

/** Minute of the local week (Monday 00:00 = 0) of a {@link localMinutes} value. */
export function minuteOfWeek(localMinuteValue: number): number {
  // 1970-01-01 was a Thursday: day 3 of a Monday-based week.
  const days = Math.floor(localMinuteValue / 1440);
  return (((days + 3) % 7) + 7) % 7 * 1440 + (localMinuteValue - days * 1440);
}

/** Whether time window `window` is active at local wall-clock minute `localMinuteValue`. */
export function isWindowActive(graph: Graph, window: number, localMinuteValue: number): boolean {
  const time = graph.windowKind[window] === TIME_WINDOW_WEEKLY ? minuteOfWeek(localMinuteValue) : localMinuteValue;
  let low = graph.windowFirst[window]!;
  let high = graph.windowFirst[window + 1]!;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (graph.windowIntervals[2 * mid + 1]! <= time) low = mid + 1;
    else high = mid;
  }
  return low < graph.windowFirst[window + 1]! && graph.windowIntervals[2 * low]! <= time;
}

/**
 * Whether closure `closure` (0-based: an edge's `edgeClosure` minus 1) closes the edge for a
 * profile at a local wall-clock minute. An edge's closures are consecutive records linked by
 * CLOSURE_CONTINUES; all of them are checked.
 */
export function isClosed(graph: Graph, closure: number, profile: 'cycling' | 'walking', localMinuteValue: number): boolean {
  const profileBit = profile === 'cycling' ? CLOSURE_CYCLING : CLOSURE_WALKING;
  for (let record = closure; ; record++) {
    const flags = graph.closureFlags[record]!;
    if (flags & profileBit) {
      const active = isWindowActive(graph, graph.closureWindow[record]!, localMinuteValue);
      if (flags & CLOSURE_OUTSIDE_WINDOW ? !active : active) return true;
    }
    if (!(flags & CLOSURE_CONTINUES)) return false;
  }
}

// ---- object-store layout ----

export interface CurrentGraphPointer {
  readonly graph_version: string;
  readonly key: string;
  readonly built_at: string;
  readonly source_hash: string;
}

/** Key of one built graph, e.g. `cities/london/graphs/london-20261121T030000-1a2b3c4d.graph`. */
export const graphKey = (city: string, graphVersion: string): string => `cities/${city}/graphs/${graphVersion}.graph`;
/** Key of the JSON pointer ({@link CurrentGraphPointer}) to a city's current graph. */
export const currentPointerKey = (city: string): string => `cities/${city}/current.json`;
