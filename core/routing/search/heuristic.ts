import type { Costing } from '../costing/costing.ts';
import { hierarchyFor, HierarchyPotential, type PotentialSeed } from './hierarchy.ts';
import { LandmarkBound } from './landmarks.ts';
import type { EdgePosition, SearchWorkspace } from './workspace.ts';

/** Metres per degree of latitude (and of longitude at the equator) on the mean Earth sphere. */
const METRES_PER_DEGREE = 111_194.9;

/**
 * The A* heuristic of one query: a lower bound on the cost still to come after arriving along an
 * edge: where the router holds one for the costing's metric, the exact least cost to the targets
 * in the metric's lower-bound graph, from a contraction hierarchy (hierarchy.ts); else, where the
 * graph carries them, landmark bounds (landmarks.ts), which also count the waits at junctions;
 * elsewhere the straight-line distance to the target at the cheapest cost per metre any edge can
 * have. None overestimates, so the route is optimal. The part that depends on the node alone is computed once per node and query
 * (a node is reached along several edges), in the workspace's per-node buffers.
 */
export class CostStillToCome {
  private readonly targetLon: number;
  private readonly targetLat: number;
  private readonly cosLat: number;
  private readonly scale: number;
  private readonly landmarkBound: Pick<LandmarkBound, 'fromNode' | 'separated'> | null;
  private readonly potential: HierarchyPotential | null;
  /** The share of the metric's hierarchy potential that bounds the costing's costs (below 1 for a bicycle type other than `hybrid`). */
  private readonly potentialShare: number;
  private readonly edgeHead: Uint32Array;
  private readonly nodeBound: Float32Array;
  /**
   * Per edge, in half-seconds, the least cost of leaving it (leaving.ts) that the bound adds to
   * its head's; null where the bound goes without. Times `leaveScale` it is in the costing's
   * seconds. With the workspace's `nodeBound` and `fromNode`, what the search's inner loop reads
   * itself (`afterEdge` is the same, as a call).
   */
  readonly leaveHalfSeconds: Uint8Array | null;
  /** Seconds per half-second of `leaveHalfSeconds`: 0.5, or 0.5 × the hierarchy's share for a bicycle type other than `hybrid`. */
  readonly leaveScale: number;
  /** The landmark tables say the ends lie in separate networks: there is no route. */
  readonly separated: boolean;

  constructor(
    private readonly costing: Costing,
    private readonly workspace: SearchWorkspace,
    sources: readonly EdgePosition[],
    targets: readonly EdgePosition[],
    targetPoint: readonly [number, number],
  ) {
    const graph = costing.network.graph;
    this.edgeHead = graph.edgeHead;
    this.nodeBound = workspace.nodeBound;
    [this.targetLon, this.targetLat] = targetPoint;
    this.cosLat = Math.cos((this.targetLat * Math.PI) / 180);
    // 0.98 absorbs the flat-earth approximation so the bound stays below the true distance.
    this.scale = costing.minSecondsPerMetre * METRES_PER_DEGREE * 0.98;
    // One metric's costs take its hierarchy where the router holds one. Costs that are a weighted
    // sum of several metrics' (Costing.metricShares: the graded safety costing) take the same sum
    // of each metric's landmark bound.
    // A bicycle type other than `hybrid` takes one metric's bounds at a share below 1 (a lower bound still).
    const shares = costing.metricShares();
    const whole = shares.length === 1 && shares[0]!.share === 1;
    // At night the metric's night hierarchy, where the graph has one: it holds the lighting factors.
    const hierarchy = shares.length === 1 ? hierarchyFor(workspace.hierarchies, shares[0]!.metric, costing.options.night) : undefined;
    this.potentialShare = shares.length === 1 ? shares[0]!.share : 1;
    this.potential = hierarchy && targets.length > 0
      ? new HierarchyPotential(hierarchy, workspace.potentialBuffers(graph.nodeCount), targetSeeds(costing, targets))
      : null;
    // The hierarchy's bound and the landmarks' both count the least cost of leaving the edge
    // arrived along apart from the node's (leaving.ts), at the same share as the node's bound,
    // read from the landmark tables of the metric. Without them (walking, which has none) the
    // bound is the node's alone: a lower bound still, and consistent but where leaving an edge
    // costs something (for walking only the turn back at a dead end). A combination of metrics'
    // landmarks goes without it too.
    const landmarks = whole || hierarchy ? workspace.landmarks[shares[0]!.metric] : undefined;
    const bounds = this.potential !== null ? [] : shares.map(({ metric }) => {
      const tables = workspace.landmarks[metric];
      return tables && sources.length > 0 && targets.length > 0
        ? new LandmarkBound(tables, targets.map((target) => graph.edgeTail[target.edge]!), sources.map((source) => graph.edgeHead[source.edge]!))
        : null;
    });
    this.landmarkBound = bounds.length > 0 && bounds.every((bound) => bound !== null)
      ? (whole ? bounds[0]! : new SharedLandmarkBound(bounds, shares.map(({ share }) => share)))
      : null;
    this.separated = this.landmarkBound?.separated ?? false;
    this.leaveHalfSeconds = landmarks && (this.potential !== null || whole) ? landmarks.leaveHalfSeconds : null;
    this.leaveScale = this.potential !== null ? 0.5 * this.potentialShare : 0.5;
  }

  /** The bound after arriving along `edge`: its head's bound plus, with landmarks, the edge's own share. */
  afterEdge(edge: number): number {
    const head = this.edgeHead[edge]!;
    let bound = this.nodeBound[head]!;
    if (bound < 0) bound = this.fromNode(head);
    return this.leaveHalfSeconds !== null ? this.leaveHalfSeconds[edge]! * this.leaveScale + bound : bound;
  }

  /**
   * The node's bound, computed and kept for the rest of the query (read the workspace's `nodeBound`
   * first: -1 where it is not there). Where the landmarks bound the node, their bound alone: the
   * straight line is seldom the larger (New York settles 1% more states without it), and leaving
   * it out spares every node's coordinates and a square root.
   */
  fromNode(node: number): number {
    if (this.potential !== null) return this.workspace.keepBound(node, this.potentialShare === 1 ? this.potential.at(node) : this.potential.at(node) * this.potentialShare);
    const landmarks = this.landmarkBound !== null ? this.landmarkBound.fromNode(node, -1) : -1;
    if (landmarks >= 0) return this.workspace.keepBound(node, landmarks);
    const network = this.costing.network;
    const dx = (network.nodeLon(node) - this.targetLon) * this.cosLat;
    const dy = network.nodeLat(node) - this.targetLat;
    return this.workspace.keepBound(node, Math.sqrt(dx * dx + dy * dy) * this.scale);
  }
}

/**
 * The landmark bound of a costing whose costs are a weighted sum of several metrics' (the graded
 * safety costing): the same weighted sum of each metric's bound, a lower bound of the sum since
 * each is of its part.
 */
class SharedLandmarkBound {
  readonly separated: boolean;

  constructor(
    private readonly bounds: readonly LandmarkBound[],
    private readonly shares: readonly number[],
  ) {
    this.separated = bounds.some((bound) => bound.separated);
  }

  /** As `LandmarkBound.fromNode`: `atLeast` where a metric's landmarks do not bound the node. */
  fromNode(node: number, atLeast: number): number {
    let sum = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      const bound = this.bounds[i]!.fromNode(node, -1);
      if (bound < 0) return atLeast;
      sum += this.shares[i]! * bound;
    }
    return Math.max(atLeast, sum);
  }
}

/**
 * Where the hierarchy's search from the targets starts: each usable target edge's tail, with the
 * least a route still pays from there (the edge's least cost up to the target point, and the cost
 * of joining the coordinate; the turn onto the edge is the edge before's leaving cost): what the
 * search adds when it reaches the edge is never less.
 */
function targetSeeds(costing: Costing, targets: readonly EdgePosition[]): PotentialSeed[] {
  const graph = costing.network.graph;
  const seeds: PotentialSeed[] = [];
  for (const target of targets) {
    if (!costing.usable(target.edge)) continue;
    const least = costing.leastEdgeCost(target.edge);
    if (least !== Infinity) seeds.push({ node: graph.edgeTail[target.edge]!, cost: target.fraction * least + (target.cost ?? 0) });
  }
  return seeds;
}
