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
export const GRAPH_FORMAT_VERSION = 6;
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
  /** S: SEGMENT_* bits (unpaved, cobbles, rough, narrow): what the bicycle types weigh beyond the surface penalty. */
  segmentRideFlags: 'u8',
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
  /** D: the cells of the grid that list a segment with a closure rule or roadworks, ascending (the disruption index). */
  disruptionCells: 'u32',
  /** D+1: disruptionCells[i] lists disruptionCellSegments[disruptionCellFirst[i] .. disruptionCellFirst[i+1]-1]. */
  disruptionCellFirst: 'u32',
  /** Those segments, in the order gridSegments lists them in the cell. */
  disruptionCellSegments: 'u32',
  /** A: string id of each named area (e.g. London boroughs, for parking rules). */
  areaName: 'u32',
  /** A+1: area a has rings areaFirstRing[a] .. areaFirstRing[a+1]-1 (outer rings and holes; even-odd rule). */
  areaFirstRing: 'u32',
  /** Rings+1: ring r has points ringFirstPoint[r] .. ringFirstPoint[r+1]-1 in areaCoords. */
  ringFirstPoint: 'u32',
  /** 2 per point: lon, lat (1e-7 degrees). */
  areaCoords: 'i32',
  /**
   * E: OPEN_CORE_* bits (core/routing/network/network.ts): the edge lies in the profile's open
   * core, the network snapping checks candidates against, as defined by header `open_core`.
   */
  openCore: 'u8',
  /**
   * N+1: node v's turns start at entry turnRowFirst[v] of each turn table: one row per edge
   * arriving at v that has a turn row (header `cost_tables.row_flags`), in inEdges order, one
   * column per edge leaving v, in firstOut order.
   */
  turnRowFirst: 'u32',
  /** M*E: each edge's least cost under each of the header's M stored cost metrics, seconds (Infinity: not usable). */
  leastCost: 'f32',
  /** M*T: each turn's cost under each stored metric, half-seconds (255: never allowed). */
  turnCost: 'u8',
  /** M*R*L: the L landmark nodes of each of the R regions, per landmark metric (0xffffffff: a region with fewer). */
  landmarkNodes: 'u32',
  /** ceil(N/32): bit v % 32 of word v / 32 says node v has a landmark row. */
  landmarkRowBits: 'u32',
  /** ceil(N/32): the landmark rows of the nodes before word w (the row of node v is this plus the set bits before it). */
  landmarkRowRank: 'u32',
  /** Rows: the region (connected network) of each row's node. */
  landmarkRowRegion: 'u16',
  /** M*E: least cost of any turn out of each edge, half-seconds (255: none follows). */
  landmarkLeave: 'u8',
  /**
   * M*rows*L*2: per metric and row, per landmark l of the row's region, the least cost from l to
   * the row's node, then from the node to l, in the metric's unit (65535: unreachable).
   */
  landmarkDistances: 'u16',
  /**
   * M*(N+1): per hierarchy metric, node v's upward arcs (to nodes contracted after it) are
   * entries hierarchyUpFirst[m*(N+1) + v] .. [m*(N+1) + v + 1] - 1 of the metric's part of
   * hierarchyUpHead and hierarchyUpWeight (offsets within the part; the header gives each part's length).
   */
  hierarchyUpFirst: 'u32',
  /** Per metric, its upward arcs' heads. */
  hierarchyUpHead: 'u32',
  /** Per metric, its upward arcs' costs in seconds, rounded down to single precision. */
  hierarchyUpWeight: 'f32',
  /** M*(N+1): per metric, node v's arcs from nodes contracted after it, laid out as hierarchyUpFirst. */
  hierarchyDownFirst: 'u32',
  /** Per metric, those arcs' tails. */
  hierarchyDownTail: 'u32',
  /** Per metric, those arcs' costs in seconds, rounded down to single precision. */
  hierarchyDownWeight: 'f32',
} as const satisfies Record<string, ElementType>;

export type SectionName = keyof typeof sectionTypes;
export type GraphSections = { readonly [K in SectionName]: ArrayOf<(typeof sectionTypes)[K]> };
export const sectionNames = Object.keys(sectionTypes) as SectionName[];

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
  /** Landmarks per region and metric (L). */
  readonly count: number;
  /** Regions (R): the separate networks the landmark metrics' edges form, each with landmarks of its own. */
  readonly regions: number;
  /** In section order; `unit` is the seconds one step of the 16-bit distances stands for. */
  readonly metrics: readonly { readonly name: string; readonly unit: number }[];
}

export interface HierarchyHeader {
  /** Fingerprint of the costing and lower-bound graph the hierarchies were computed under (`HIERARCHY_FINGERPRINT`). */
  readonly costing: string;
  /** In section order: each metric's name and how many upward and downward arcs its parts hold. */
  readonly metrics: readonly { readonly name: string; readonly up_arcs: number; readonly down_arcs: number }[];
}

export interface CostTableHeader {
  /** Fingerprint of the costing the tables were computed under. */
  readonly costing: string;
  /** Edge flags of the edges that have turn rows: an edge usable under any stored metric's profile. */
  readonly row_flags: number;
  /** The stored metrics (M), in section order. */
  readonly metrics: readonly string[];
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
  /** Accepted road reports folded into this graph's ways by the nightly rebuild (core/report-avoidances.ts). */
  readonly folded_reports?: readonly string[];
  readonly elevation: {
    /** Where most nodes' elevation came from. */
    readonly source: ElevationSource;
    readonly nodes_by_source: Readonly<Record<ElevationSource, number>>;
    /** The elevation models the build read, best first, and the nodes each gave a height. */
    readonly models?: readonly { readonly name: string; readonly nodes: number }[];
  };
  /** [min lon, min lat, max lon, max lat] of the nodes, degrees. */
  readonly bbox: readonly [number, number, number, number];
  readonly grid: GridSpec;
  readonly time_windows: {
    /** [start, end) in local wall-clock minutes: TIME_WINDOW_DATES windows are exact inside it. */
    readonly horizon: readonly [number, number];
  };
  readonly counts: GraphCounts;
  /** Every edge's and every turn's cost under the standard metrics (see graph-builder/stages/cost-tables.ts, which writes them). */
  readonly cost_tables: CostTableHeader;
  /** The definition the `openCore` section was computed under (`OPEN_CORE_DEFINITION`); a router with another computes its own. */
  readonly open_core: string;
  /** The precomputed search bounds in the landmark sections (see core/routing/search/landmarks.ts). */
  readonly landmarks: LandmarkHeader;
  /** The contraction hierarchies in the hierarchy sections (see core/routing/search/hierarchy.ts). */
  readonly hierarchies: HierarchyHeader;
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

export const bytesPerElement = (type: ElementType): number => arrayConstructors[type].BYTES_PER_ELEMENT;
