import { PotentialBuffers, type HierarchySet } from './hierarchy.ts';
import type { LandmarkSet } from './landmarks.ts';
import { MinHeap } from './heap.ts';
import { ViaWayStates } from './via-way-states.ts';

/**
 * What a search reads and writes besides the graph and the costing: where routes start and end,
 * and the buffers one graph's queries reuse. Apart from search.ts so the heuristic, the snap and
 * the planner can name them without importing the search.
 */

/** Where a route starts or ends on an edge: the fraction of the edge's length before the point. */
export interface EdgePosition {
  edge: number;
  /** 0 at the edge's tail, 1 at its head. */
  fraction: number;
  /**
   * Seconds of cost to reach this start from the request's coordinate, or the coordinate from this
   * end (a way a few metres beyond the nearest, joined on foot); none for the nearest way.
   */
  cost?: number;
}

/** `SearchWorkspace.parent` of a source: reached from nothing. */
export const PARENT_NONE = 255;
/** `SearchWorkspace.parent` of a state reached from a via-way state (kept in `viaParent`). */
export const PARENT_VIA = 254;
/**
 * Edges arriving at one node that `SearchWorkspace.parent` can tell apart; the builder refuses a
 * graph with a node that has more (road junctions have a handful).
 */
export const MAX_ARRIVING_EDGES = PARENT_VIA;

/** Search buffers sized for one graph, reused by every query on it (queries never interleave). */
export class SearchWorkspace {
  /**
   * Per state (directed edge), the query's cost of arriving along it, Infinity where the query has
   * not reached it. The next query resets the states this one touched (`touched`), so nothing is
   * cleared whole and no generation stamps are kept; a heap entry is stale when its key is no
   * longer the state's cost plus its bound, so no settled marks are kept either.
   */
  readonly cost: Float64Array;
  /**
   * Per state, the state it was reached from, as the place of that state's edge among the edges
   * arriving at the state's tail (`inEdges`): a byte where a state number would take four. A
   * source has PARENT_NONE; a state reached from a via-way state has PARENT_VIA and the via-way
   * state in `viaParent`.
   */
  readonly parent: Uint8Array;
  /** The via-way state each state with PARENT_VIA was reached from. */
  readonly viaParent = new Map<number, number>();
  /** The states the query reached, in `touched[0 .. touchedCount - 1]` (grown as needed). */
  touched: Int32Array = new Int32Array(1024);
  touchedCount = 0;
  readonly heap = new MinHeap(4096);
  /**
   * Per node, the heuristic's bound on the cost still to come from it (before the edge's own
   * share), computed once per query (a node is reached along several edges); -1 where not yet.
   * Reset the same way from `boundNodes`; allocated on the first search. Single precision,
   * rounded down so that it stays a lower bound.
   */
  nodeBound: Float32Array = new Float32Array(0);
  boundNodes: Int32Array = new Int32Array(1024);
  boundNodeCount = 0;
  /** States beyond the edges: via-way restrictions being followed. */
  readonly viaWays: ViaWayStates;

  constructor(
    readonly edgeCount: number,
    /** Precomputed bounds per costing metric; a metric without them falls back to the straight line. */
    readonly landmarks: LandmarkSet = {},
    /** Contraction hierarchies per costing metric (hierarchy.ts): where present, the bound of choice. */
    readonly hierarchies: HierarchySet = {},
  ) {
    this.cost = new Float64Array(edgeCount).fill(Infinity);
    this.parent = new Uint8Array(edgeCount);
    this.viaWays = new ViaWayStates(edgeCount);
  }

  /** Starts a query on a graph of `nodeCount` nodes: forgets what the last one reached. */
  startQuery(nodeCount: number): void {
    if (this.nodeBound.length !== nodeCount) this.nodeBound = new Float32Array(nodeCount).fill(-1);
    const { cost, touched, nodeBound, boundNodes } = this;
    for (let i = 0; i < this.touchedCount; i++) cost[touched[i]!] = Infinity;
    for (let i = 0; i < this.boundNodeCount; i++) nodeBound[boundNodes[i]!] = -1;
    this.touchedCount = 0;
    this.boundNodeCount = 0;
    this.heap.clear();
    this.viaWays.clear();
    this.viaParent.clear();
  }

  /** The hierarchy potential's per-node buffers, allocated on the first query that uses a hierarchy. */
  potentialBuffers(nodeCount: number): PotentialBuffers {
    if (this.potential?.nodeCount !== nodeCount) this.potential = new PotentialBuffers(nodeCount);
    return this.potential;
  }

  private potential: PotentialBuffers | undefined;

  /** `touched`, twice as long, for the states still to come. */
  growTouched(): Int32Array {
    const grown = new Int32Array(this.touched.length * 2);
    grown.set(this.touched);
    return (this.touched = grown);
  }

  /** Keeps the node's bound for the rest of the query, in single precision below it; answers what is kept. */
  keepBound(node: number, bound: number): number {
    if (this.boundNodeCount === this.boundNodes.length) {
      const grown = new Int32Array(this.boundNodes.length * 2);
      grown.set(this.boundNodes);
      this.boundNodes = grown;
    }
    this.boundNodes[this.boundNodeCount++] = node;
    // Rounding to single precision moves a number by at most 2^-24 of it: lowered first by 2^-22,
    // the bound is never rounded up, so it still never overestimates.
    const kept = Math.fround(bound * (1 - 2 ** -22));
    this.nodeBound[node] = kept;
    return kept;
  }
}

