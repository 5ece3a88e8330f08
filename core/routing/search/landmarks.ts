import type { CostMetric, Costing } from '../costing/costing.ts';
import { metricCosting } from '../costing/create-costing.ts';
import { COSTING_FINGERPRINT } from '../costing/weights.ts';
import type { Graph, LandmarkHeader } from '../../graph/layout.ts';
import { DisjointSets } from '../network/disjoint-sets.ts';
import { MinHeap } from './heap.ts';
import { leastLeavingHalfSeconds, NO_FOLLOWING_EDGE } from './leaving.ts';
import type { RoutingNetwork } from '../network/network.ts';

/**
 * Landmarks for A* (ALT: A*, landmarks and the triangle inequality; Goldberg and Harrelson, 2005).
 * For a few nodes L the graph stores the least cost from L to every node and from every node to L.
 * For any u and t, d(u,t) >= d(L,t) - d(L,u) and d(u,t) >= d(u,L) - d(t,L), which bounds the cost
 * still to come far more tightly than a straight line does where waits at signals and turns are a
 * large part of a route's cost, as on a city grid.
 *
 * A city's graph can be several networks that do not touch (London is six extracts; the tiled
 * city is many copies): its regions, the connected pieces of the landmark metrics' edges. A route
 * never leaves its region, and a landmark in another region bounds nothing, so every region has L
 * landmarks of its own. The tables hold one row per node such an edge touches: slot l of a row is
 * the distance to or from the l-th landmark of the row's region, so the tables are L rows deep
 * however many regions there are, and nodes only walkers use take no room. Ends in two regions
 * have no route at all, which the search answers without searching.
 *
 * Distances are over a node graph whose edge weight is the edge's least cost plus the least cost
 * of leaving it onto any next edge (every turn cost includes the wait at the junction the edge
 * arrives at). A route from a search state (edge e, arrived at its head u) to a target edge t
 * pays at least leave(e) + d(u, tail t); that is the bound, and it is consistent, so A* stays
 * optimal. Least costs are time-independent (closures open, by day), so the tables hold for every
 * departure; the graph records the costing fingerprint they were computed under.
 *
 * Tables are 16-bit: a distance is stored as floor(d / unit), so a difference of two is at most
 * one unit above the true difference, and every bound gives that unit back. A row keeps its
 * node's distances together, from and to each landmark in turn, so the bound of a node the search
 * reaches reads one or two cache lines rather than one per landmark and direction.
 */

/**
 * Landmarks per region. Sixteen settle a third fewer states than ten at p95 on New York's
 * supersafe searches (4,099 against 6,209) and a row's distances still fill one 64-byte run;
 * twenty-four settle a seventh fewer again but cost as much more per node bounded as they save.
 */
export const LANDMARK_COUNT = 16;
/**
 * Landmarks consulted per query: those that bound the distance between its ends best (every
 * stored one today: on New York the best 12 of 24 settle a third more states than all 24, and
 * with a node's distances in one run the extra landmarks cost less than the states they save).
 */
export const ACTIVE_LANDMARKS = 16;
/**
 * Walking goes without for now: on New York's sidewalk grid its own landmarks settle half to a
 * fifth of the states the straight line does but leave a long tail of equal-cost routes, for 7 to
 * 22 bytes per directed edge more (docs/benchmarks.md, "Walking beside cycling").
 */
export const LANDMARK_METRICS: readonly CostMetric[] = ['cycling-supersafe', 'cycling-direct'];

const UNREACHABLE = 0xffff;
const LARGEST_DISTANCE = UNREACHABLE - 1;
/** `landmarkNodes`' entry for a slot a small region cannot fill. */
export const NO_LANDMARK = 0xffffffff;
/** Regions are numbered in 16 bits. */
const MOST_REGIONS = 0xffff;

/** Set bits of a 32-bit word. */
function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Which nodes have rows in the landmark tables, and the region of each row. */
export class LandmarkRows {
  constructor(
    /** Bit v % 32 of word v / 32: node v has a row. */
    readonly bits: Uint32Array,
    /** Per word, the rows of the nodes before it. */
    readonly rank: Uint32Array,
    /** Per row, its region. */
    readonly region: Uint16Array,
  ) {}

  get count(): number {
    return this.region.length;
  }

  /** The node's row, or -1 for a node no landmark metric's edge touches. */
  rowOf(node: number): number {
    const word = node >>> 5;
    const bit = node & 31;
    const bits = this.bits[word]!;
    if (!((bits >>> bit) & 1)) return -1;
    return this.rank[word]! + (bit === 0 ? 0 : bitCount(bits << (32 - bit)));
  }
}

/** One metric's tables, as views on the graph file or freshly computed. */
export class Landmarks {
  constructor(
    readonly rows: LandmarkRows,
    /** Landmarks per region (L): the slots of a row. */
    readonly count: number,
    /** [region * count + slot]: the landmark node, or NO_LANDMARK. */
    readonly nodes: Uint32Array,
    /** Least cost of any turn out of each edge, half-seconds; NO_FOLLOWING_EDGE where none follows. */
    readonly leaveHalfSeconds: Uint8Array,
    /**
     * In `unit`s, [(row * count + slot) * 2]: the least cost from the slot's landmark to the row's
     * node; one further on, from the node to the landmark.
     */
    readonly distances: Uint16Array,
    /** Seconds per step of the distance tables. */
    readonly unit: number,
  ) {
    this.slotDistances = new Uint32Array(distances.buffer, distances.byteOffset, distances.length / 2);
  }

  /**
   * `distances` read a slot at a time, [row * count + slot]: the cost from the landmark in the low
   * 16 bits, the cost to it in the high 16 (typed arrays, like the graph file, are little-endian
   * on every platform the router runs on), so a node's bound reads one word per landmark.
   */
  readonly slotDistances: Uint32Array;

  /** Where the row's distances for the slot start in `distances` (the cost from the landmark; the cost to it follows). */
  at(row: number, slot: number): number {
    return (row * this.count + slot) * 2;
  }
}

export type LandmarkSet = Partial<Record<CostMetric, Landmarks>>;

export interface LandmarkSections {
  header: LandmarkHeader;
  sections: {
    landmarkNodes: Uint32Array;
    landmarkRowBits: Uint32Array;
    landmarkRowRank: Uint32Array;
    landmarkRowRegion: Uint16Array;
    landmarkLeave: Uint8Array;
    landmarkDistances: Uint16Array;
  };
}

/** Every metric's tables of a set of landmark sections (a graph's, or computed), as the search reads them. */
export function landmarkSet({ header, sections }: LandmarkSections, edgeCount: number): LandmarkSet {
  const rows = new LandmarkRows(sections.landmarkRowBits, sections.landmarkRowRank, sections.landmarkRowRegion);
  const { count, regions } = header;
  const set: LandmarkSet = {};
  header.metrics.forEach(({ name, unit }, m) => {
    const table = m * 2 * count * rows.count;
    set[name as CostMetric] = new Landmarks(
      rows,
      count,
      sections.landmarkNodes.subarray(m * regions * count, (m + 1) * regions * count),
      sections.landmarkLeave.subarray(m * edgeCount, (m + 1) * edgeCount),
      sections.landmarkDistances.subarray(table, table + 2 * count * rows.count),
      unit,
    );
  });
  return set;
}

/** The graph's tables if they were computed under today's costing, else null. */
export function storedLandmarks(graph: Graph): LandmarkSet | null {
  const header = graph.header.landmarks;
  if (header.costing !== COSTING_FINGERPRINT || header.metrics.length === 0) return null;
  return landmarkSet({ header, sections: graph }, graph.edgeCount);
}

/**
 * Which nodes have rows (those an edge of a landmark metric touches) and the regions: the
 * connected pieces of those edges, ignoring direction, numbered in the order of their first row.
 */
function landmarkRows(network: RoutingNetwork, usable: (edge: number) => boolean): LandmarkRows {
  const graph = network.graph;
  const { nodeCount, edgeCount } = graph;
  const sets = new DisjointSets(nodeCount);
  const words = Math.ceil(nodeCount / 32);
  const bits = new Uint32Array(words);
  for (let edge = 0; edge < edgeCount; edge++) {
    if (!usable(edge)) continue;
    const tail = graph.edgeTail[edge]!;
    const head = graph.edgeHead[edge]!;
    sets.union(tail, head);
    bits[tail >>> 5]! |= 1 << (tail & 31);
    bits[head >>> 5]! |= 1 << (head & 31);
  }
  const rank = new Uint32Array(words);
  let rows = 0;
  for (let word = 0; word < words; word++) {
    rank[word] = rows;
    rows += bitCount(bits[word]!);
  }
  const region = new Uint16Array(rows);
  const regionOfRoot = new Map<number, number>();
  let row = 0;
  for (let node = 0; node < nodeCount; node++) {
    if (!((bits[node >>> 5]! >>> (node & 31)) & 1)) continue;
    const root = sets.find(node);
    let id = regionOfRoot.get(root);
    if (id === undefined) {
      id = regionOfRoot.size;
      if (id >= MOST_REGIONS) throw new Error(`The graph has more than ${MOST_REGIONS} separate cycling networks; landmark regions are numbered in 16 bits`);
      regionOfRoot.set(root, id);
    }
    region[row++] = id;
  }
  return new LandmarkRows(bits, rank, region);
}

/**
 * Computes the landmark sections for every metric in LANDMARK_METRICS (the builder stores them;
 * a router computes them for a graph built under other costing weights). Each metric's tables are
 * quantized straight into their place in the sections, so no metric's tables are held twice.
 */
export function computeLandmarkSections(network: RoutingNetwork, count = LANDMARK_COUNT): LandmarkSections {
  const { edgeCount } = network.graph;
  const costings = LANDMARK_METRICS.map((metric) => metricCosting(network, metric));
  const rows = landmarkRows(network, (edge) => costings.some((costing) => costing.usable(edge)));
  const regions = rows.region.reduce((most, region) => Math.max(most, region + 1), 0);
  const metrics = LANDMARK_METRICS.length;
  const sections: LandmarkSections['sections'] = {
    landmarkNodes: new Uint32Array(metrics * regions * count),
    landmarkRowBits: rows.bits,
    landmarkRowRank: rows.rank,
    landmarkRowRegion: rows.region,
    landmarkLeave: new Uint8Array(metrics * edgeCount),
    landmarkDistances: new Uint16Array(metrics * 2 * count * rows.count),
  };
  const units = costings.map((costing, m) => {
    const table = m * 2 * count * rows.count;
    const landmarks = computeLandmarks(costing, rows, count, {
      nodes: sections.landmarkNodes.subarray(m * regions * count, (m + 1) * regions * count),
      leaveHalfSeconds: sections.landmarkLeave.subarray(m * edgeCount, (m + 1) * edgeCount),
      distances: sections.landmarkDistances.subarray(table, table + 2 * count * rows.count),
    });
    return landmarks.unit;
  });
  return {
    header: { costing: COSTING_FINGERPRINT, count, regions, metrics: LANDMARK_METRICS.map((name, m) => ({ name, unit: units[m]! })) },
    sections,
  };
}

/** Where computeLandmarks writes one metric's tables. */
export interface LandmarkTablesTarget {
  readonly nodes: Uint32Array;
  readonly leaveHalfSeconds: Uint8Array;
  readonly distances: Uint16Array;
}

/**
 * Computes one metric's tables from the costing's least edge costs and turn costs, choosing each
 * region's landmarks the farthest way: the first is the region's node farthest from its centre,
 * each next one the node whose cost to and from the nearest chosen landmark is greatest, so the
 * landmarks spread around the region's edge as the costs (not the map) see it.
 */
export function computeLandmarks(costing: Costing, rows: LandmarkRows, count: number, target: LandmarkTablesTarget): Landmarks {
  const network = costing.network;
  const graph = network.graph;
  const { edgeCount, nodeCount } = graph;
  const regions = target.nodes.length / count;

  const leastCost = new Float64Array(edgeCount);
  for (let edge = 0; edge < edgeCount; edge++) leastCost[edge] = costing.leastEdgeCost(edge);
  // Each edge weighs its least cost and the least cost of leaving it (leaving.ts), the same as the hierarchies' arcs.
  const leaveHalfSeconds = leastLeavingHalfSeconds(costing, leastCost, target.leaveHalfSeconds);
  const weight = new Float64Array(edgeCount);
  for (let edge = 0; edge < edgeCount; edge++) {
    // An edge nothing follows cannot be on the way to a target (the target edge itself never
    // needs leaving), so it is left out of the distances.
    weight[edge] = leaveHalfSeconds[edge] === NO_FOLLOWING_EDGE ? Infinity : leastCost[edge]! + leaveHalfSeconds[edge]! * 0.5;
  }

  const forward = adjacency(nodeCount, (node, visit) => {
    for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) if (weight[edge] !== Infinity) visit(graph.edgeHead[edge]!, weight[edge]!);
  });
  const backward = adjacency(nodeCount, (node, visit) => {
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) {
      const edge = graph.inEdges[i]!;
      if (weight[edge] !== Infinity) visit(graph.edgeTail[edge]!, weight[edge]!);
    }
  });
  const rowNodes = new Uint32Array(rows.count);
  for (let node = 0, row = 0; node < nodeCount && row < rows.count; node++) if (rows.rowOf(node) >= 0) rowNodes[row++] = node;

  // Exact distances per slot and row, quantized once every slot is known (the unit is the largest).
  const exact = [new Float64Array(count * rows.count), new Float64Array(count * rows.count)] as const;
  const distance = new Float64Array(nodeCount);
  const nearest = new Float64Array(rows.count).fill(Infinity);
  const heap = new MinHeap(4096);
  let chosen = firstLandmarks(network, rows, rowNodes, regions);
  let greatest = 0;
  for (let slot = 0; slot < count; slot++) {
    chosen.forEach((node, region) => (target.nodes[region * count + slot] = node));
    const starts = Array.from(chosen).filter((node) => node !== NO_LANDMARK);
    [forward, backward].forEach((adjacency, direction) => {
      nodeDijkstra(starts, adjacency, distance, heap);
      const into = exact[direction]!.subarray(slot * rows.count, (slot + 1) * rows.count);
      for (let row = 0; row < rows.count; row++) {
        const value = distance[rowNodes[row]!]!;
        into[row] = value;
        if (value !== Infinity && value > greatest) greatest = value;
      }
    });
    // The next slot: per region, the row whose nearest chosen landmark (there and back) is farthest.
    chosen = new Uint32Array(regions).fill(NO_LANDMARK);
    const farthest = new Float64Array(regions);
    for (let row = 0; row < rows.count; row++) {
      const there = exact[0][slot * rows.count + row]! + exact[1][slot * rows.count + row]!;
      if (there < nearest[row]!) nearest[row] = there;
      const region = rows.region[row]!;
      if (nearest[row]! !== Infinity && nearest[row]! > farthest[region]!) {
        farthest[region] = nearest[row]!;
        chosen[region] = rowNodes[row]!;
      }
    }
  }
  const unit = Math.max(greatest, 1) / LARGEST_DISTANCE;
  const landmarks = new Landmarks(rows, count, target.nodes, leaveHalfSeconds, target.distances, unit);
  for (let slot = 0; slot < count; slot++) {
    for (let row = 0; row < rows.count; row++) {
      const at = landmarks.at(row, slot);
      exact.forEach((distances, direction) => {
        const value = distances[slot * rows.count + row]!;
        target.distances[at + direction] = value === Infinity ? UNREACHABLE : Math.min(LARGEST_DISTANCE, Math.floor(value / unit));
      });
    }
  }
  return landmarks;
}

/** Per region, its node farthest from the centre of its nodes (NO_LANDMARK for a region without). */
function firstLandmarks(network: RoutingNetwork, rows: LandmarkRows, rowNodes: Uint32Array, regions: number): Uint32Array {
  const sumLon = new Float64Array(regions);
  const sumLat = new Float64Array(regions);
  const members = new Float64Array(regions);
  for (let row = 0; row < rows.count; row++) {
    const region = rows.region[row]!;
    sumLon[region]! += network.nodeLon(rowNodes[row]!);
    sumLat[region]! += network.nodeLat(rowNodes[row]!);
    members[region]!++;
  }
  const chosen = new Uint32Array(regions).fill(NO_LANDMARK);
  const farthest = new Float64Array(regions).fill(-1);
  for (let row = 0; row < rows.count; row++) {
    const region = rows.region[row]!;
    const node = rowNodes[row]!;
    const centreLat = sumLat[region]! / members[region]!;
    const dx = (network.nodeLon(node) - sumLon[region]! / members[region]!) * Math.cos((centreLat * Math.PI) / 180);
    const dy = network.nodeLat(node) - centreLat;
    if (dx * dx + dy * dy > farthest[region]!) {
      farthest[region] = dx * dx + dy * dy;
      chosen[region] = node;
    }
  }
  return chosen;
}

interface Adjacency {
  /** N+1 offsets into node and weight. */
  first: Uint32Array;
  /** The node at the other end of each entry. */
  node: Uint32Array;
  weight: Float64Array;
}

/**
 * The node graph of the landmark distances as compressed rows of its usable entries only (edges
 * the metric cannot use, such as footways for cycling, are most of a city's): `neighbours` visits
 * a node's entries.
 */
function adjacency(nodeCount: number, neighbours: (node: number, visit: (other: number, weight: number) => void) => void): Adjacency {
  const first = new Uint32Array(nodeCount + 1);
  for (let node = 0; node < nodeCount; node++) {
    let entries = 0;
    neighbours(node, () => entries++);
    first[node + 1] = first[node]! + entries;
  }
  const node = new Uint32Array(first[nodeCount]!);
  const weight = new Float64Array(first[nodeCount]!);
  for (let from = 0, at = 0; from < nodeCount; from++) {
    neighbours(from, (other, cost) => {
      node[at] = other;
      weight[at++] = cost;
    });
  }
  return { first, node, weight };
}

/** Least costs from the nearest of `starts` to every node (Infinity where none reaches it). */
function nodeDijkstra(starts: readonly number[], adjacency: Adjacency, distance: Float64Array, heap: MinHeap): void {
  const { first, node: neighbour, weight } = adjacency;
  distance.fill(Infinity);
  heap.clear();
  for (const start of starts) {
    distance[start] = 0;
    heap.push(0, start);
  }
  while (heap.size > 0) {
    const reached = heap.peekKey();
    const node = heap.pop();
    if (reached > distance[node]!) continue;
    for (let i = first[node]!, end = first[node + 1]!; i < end; i++) {
      const total = reached + weight[i]!;
      const other = neighbour[i]!;
      if (total < distance[other]!) {
        distance[other] = total;
        heap.push(total, other);
      }
    }
  }
}

/** The regions of landmark rows (-1 for a node without a row). */
function regionsOfRows(landmarks: Landmarks, rows: readonly number[]): Set<number> {
  return new Set(rows.map((row) => (row < 0 ? -1 : landmarks.rows.region[row]!)));
}

/** Two sets of ends whose regions are all known and none shared: no way joins them, at any hour. */
const regionsApart = (sources: ReadonlySet<number>, targets: ReadonlySet<number>): boolean =>
  !targets.has(-1) && !sources.has(-1) && ![...sources].some((region) => targets.has(region));

/**
 * Whether the landmark tables place the source nodes and the target nodes in separate networks of
 * the metric (regions no way joins, closures and rules of the hour aside).
 */
export function endsSeparated(landmarks: Landmarks, sourceNodes: readonly number[], targetNodes: readonly number[]): boolean {
  const rowsOf = (nodes: readonly number[]) => nodes.map((node) => landmarks.rows.rowOf(node));
  return regionsApart(regionsOfRows(landmarks, rowsOf(sourceNodes)), regionsOfRows(landmarks, rowsOf(targetNodes)));
}

/**
 * The bound for one query: a lower bound on the cost from a search state to the nearest of the
 * target edges' tails, from the landmarks that bound the distance between the query's ends best.
 */
export class LandmarkBound {
  /** The active landmarks' slots. */
  private readonly slots: Int32Array;
  /** Per active landmark: least d(L, t) over the targets t, and greatest d(t, L). */
  private readonly landmarkToTarget: Int32Array;
  private readonly targetToLandmark: Int32Array;
  /** The ends lie in different regions: there is no route. */
  readonly separated: boolean;

  constructor(
    private readonly landmarks: Landmarks,
    targetNodes: readonly number[],
    sourceNodes: readonly number[],
    activeCount = ACTIVE_LANDMARKS,
  ) {
    const { distances, rows } = landmarks;
    const targetRows = targetNodes.map((node) => rows.rowOf(node));
    const sourceRows = sourceNodes.map((node) => rows.rowOf(node));
    const targetRegions = regionsOfRows(landmarks, targetRows);
    const sourceRegions = regionsOfRows(landmarks, sourceRows);
    this.separated = regionsApart(sourceRegions, targetRegions);
    const candidates: { slot: number; from: number; to: number; score: number }[] = [];
    // A slot means one landmark only within one region: ends spread over several go without.
    const oneRegion = targetRegions.size === 1 && sourceRegions.size === 1 && !targetRegions.has(-1) && targetRegions.has([...sourceRegions][0]!);
    for (let slot = 0; oneRegion && slot < landmarks.count; slot++) {
      let from = UNREACHABLE;
      let to = 0;
      for (const row of targetRows) {
        from = Math.min(from, distances[landmarks.at(row, slot)]!);
        to = Math.max(to, distances[landmarks.at(row, slot) + 1]!);
      }
      // A landmark that cannot reach a target, or that a target cannot reach, bounds nothing.
      if (from === UNREACHABLE || to === UNREACHABLE) continue;
      let score = Infinity;
      for (const row of sourceRows) score = Math.min(score, Math.max(from - distances[landmarks.at(row, slot)]!, distances[landmarks.at(row, slot) + 1]! - to));
      candidates.push({ slot, from, to, score });
    }
    candidates.sort((a, b) => b.score - a.score);
    const active = candidates.slice(0, activeCount);
    this.slots = Int32Array.from(active, (candidate) => candidate.slot);
    this.landmarkToTarget = Int32Array.from(active, (candidate) => candidate.from);
    this.targetToLandmark = Int32Array.from(active, (candidate) => candidate.to);
  }

  /**
   * Least cost still to come after arriving along `edge` at its head `node`, given that reaching
   * the targets from the node is already known to cost at least `atLeast` (the straight line).
   * An unreachable node reads as the largest distance: the bound it gives is then either negative
   * (no help) or says, rightly, that the node cannot reach the targets.
   */
  remaining(edge: number, node: number, atLeast: number): number {
    return this.landmarks.leaveHalfSeconds[edge]! * 0.5 + this.fromNode(node, atLeast);
  }

  /** The part of `remaining` that depends on the node alone (the search caches it per node). */
  fromNode(node: number, atLeast: number): number {
    const { slots } = this;
    if (slots.length === 0) return atLeast;
    const row = this.landmarks.rows.rowOf(node);
    if (row < 0) return atLeast;
    const { slotDistances, count } = this.landmarks;
    const { landmarkToTarget, targetToLandmark } = this;
    const rowStart = row * count;
    let steps = 1;
    for (let i = 0; i < slots.length; i++) {
      const both = slotDistances[rowStart + slots[i]!]!;
      const ahead = landmarkToTarget[i]! - (both & 0xffff);
      if (ahead > steps) steps = ahead;
      const behind = (both >>> 16) - targetToLandmark[i]!;
      if (behind > steps) steps = behind;
    }
    return Math.max(atLeast, (steps - 1) * this.landmarks.unit);
  }
}
