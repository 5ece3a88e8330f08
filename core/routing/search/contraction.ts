import { MinHeap } from './heap.ts';

/**
 * Contraction hierarchies (Geisberger, Sanders, Schultes and Delling, 2008) of a directed node
 * graph with non-negative weights, built greedily: the node ranked first by twice its edge
 * difference (shortcuts added less arcs removed) plus its contracted neighbours and its depth
 * (which spread the contraction evenly) is contracted next, a neighbour whose surroundings changed
 * being ranked again only when it comes first (lazy updates); a shortcut u→w replaces u→v→w unless a bounded witness search finds a path
 * from u to w avoiding v that is no longer. A witness search that gives up early only adds a
 * shortcut that was not needed, so the hierarchy is always exact: for any s and t, the least
 * cost is the least over meeting nodes m of an upward path s→m plus a path m→t whose arcs,
 * reversed, lead upward from t.
 *
 * Greedy rather than customizable (a nested-dissection order customized per metric): each metric
 * contracts its own graph, whose order then fits its costs (cycling drops footways, walking
 * keeps them), and the greedy order needs no graph partitioner.
 */

/** A directed node graph as compressed rows by tail. */
export interface WeightedArcs {
  /** N+1 offsets into `head` and `weight`. */
  readonly first: Uint32Array;
  readonly head: Uint32Array;
  readonly weight: Float64Array;
}

/** The hierarchy's arcs, each stored at its lower endpoint (the one contracted first). */
export interface ContractedArcs {
  /** N+1 offsets: the arcs v→w to higher nodes w are up[upFirst[v] .. upFirst[v+1]-1]. */
  readonly upFirst: Uint32Array;
  readonly upHead: Uint32Array;
  /** Seconds, rounded down to single precision. */
  readonly upWeight: Float32Array;
  /** N+1 offsets: the arcs x→v from higher nodes x, stored at v as x. */
  readonly downFirst: Uint32Array;
  readonly downTail: Uint32Array;
  readonly downWeight: Float32Array;
}

/**
 * Nodes a witness search may settle before it gives up (a shortcut is then added). Larger
 * limits add fewer shortcuts but cost more per contraction; road graphs' witnesses are near.
 */
const WITNESS_SETTLE_LIMIT = 64;
/** The same for the searches that only count shortcuts to rank the nodes still to contract. */
const RANKING_SETTLE_LIMIT = 16;

/** `value` in single precision, never above it (what a stored weight or bound must be). */
export function float32Below(value: number): number {
  // Rounding to single precision moves a number by at most 2^-24 of it.
  return Math.fround(value * (1 - 2 ** -23));
}

/** A node's remaining arcs while the graph is contracted: [other node, weight, other node, weight, …]. */
type ArcList = number[];

class ContractionGraph {
  readonly outs: ArcList[];
  readonly ins: ArcList[];
  private readonly distance: Float64Array;
  private readonly reached: number[] = [];
  private readonly heap = new MinHeap(256);
  /** Marks the out-neighbours a witness search looks for: those with the current `stamp`. */
  private readonly targetStamp: Uint32Array;
  private stamp = 0;

  constructor(readonly nodeCount: number, arcs: WeightedArcs) {
    this.outs = Array.from({ length: nodeCount }, () => []);
    this.ins = Array.from({ length: nodeCount }, () => []);
    this.distance = new Float64Array(nodeCount).fill(Infinity);
    this.targetStamp = new Uint32Array(nodeCount);
    for (let tail = 0; tail < nodeCount; tail++) {
      for (let i = arcs.first[tail]!; i < arcs.first[tail + 1]!; i++) this.addArc(tail, arcs.head[i]!, arcs.weight[i]!);
    }
  }

  /** Adds tail→head, or lowers the weight of the arc there already. */
  addArc(tail: number, head: number, weight: number): void {
    if (tail === head || weight === Infinity) return;
    const out = this.outs[tail]!;
    for (let i = 0; i < out.length; i += 2) {
      if (out[i] !== head) continue;
      if (weight < out[i + 1]!) {
        out[i + 1] = weight;
        const into = this.ins[head]!;
        for (let j = 0; j < into.length; j += 2) if (into[j] === tail) into[j + 1] = weight;
      }
      return;
    }
    out.push(head, weight);
    this.ins[head]!.push(tail, weight);
  }

  /**
   * The shortcuts contracting `node` needs (added when `add`): answers how many. Per in-neighbour
   * one witness search, bounded by the dearest path through the node it could replace and stopped
   * once every out-neighbour is settled; a search to rank candidates (`add` false) gives up sooner.
   */
  shortcuts(node: number, add: boolean): number {
    const ins = this.ins[node]!;
    const outs = this.outs[node]!;
    if (ins.length === 0 || outs.length === 0) return 0;
    let count = 0;
    const pending: number[] = [];
    for (let i = 0; i < ins.length; i += 2) {
      const from = ins[i]!;
      const toNode = ins[i + 1]!;
      let farthest = -1;
      let targets = 0;
      this.stamp++;
      for (let j = 0; j < outs.length; j += 2) {
        if (outs[j] === from) continue;
        farthest = Math.max(farthest, toNode + outs[j + 1]!);
        this.targetStamp[outs[j]!] = this.stamp;
        targets++;
      }
      if (targets === 0) continue;
      this.witnessSearch(from, node, farthest, targets, add ? WITNESS_SETTLE_LIMIT : RANKING_SETTLE_LIMIT);
      for (let j = 0; j < outs.length; j += 2) {
        const to = outs[j]!;
        if (to === from) continue;
        const through = toNode + outs[j + 1]!;
        if (this.distance[to]! <= through) continue;
        count++;
        if (add) pending.push(from, to, through);
      }
      this.forgetSearch();
    }
    // Added after the searches, so that no search sees a shortcut past the node it avoids.
    for (let i = 0; i < pending.length; i += 3) this.addArc(pending[i]!, pending[i + 1]!, pending[i + 2]!);
    return count;
  }

  /**
   * Least costs from `source` avoiding `avoid`, until the nodes marked with the current stamp
   * (`targets` of them) are settled, the costs pass `limit`, or `settleLimit` nodes are settled.
   */
  private witnessSearch(source: number, avoid: number, limit: number, targets: number, settleLimit: number): void {
    const { distance, heap, reached, outs, targetStamp, stamp } = this;
    heap.clear();
    distance[source] = 0;
    reached.push(source);
    heap.push(0, source);
    let settled = 0;
    let targetsLeft = targets;
    while (heap.size > 0) {
      const key = heap.peekKey();
      if (key > limit || settled === settleLimit) break;
      const node = heap.pop();
      if (key > distance[node]!) continue;
      settled++;
      if (targetStamp[node] === stamp && --targetsLeft === 0) break;
      const out = outs[node]!;
      for (let i = 0; i < out.length; i += 2) {
        const next = out[i]!;
        if (next === avoid) continue;
        const total = key + out[i + 1]!;
        if (total < distance[next]!) {
          if (distance[next] === Infinity) reached.push(next);
          distance[next] = total;
          heap.push(total, next);
        }
      }
    }
  }

  private forgetSearch(): void {
    for (const node of this.reached) this.distance[node] = Infinity;
    this.reached.length = 0;
  }

  /** Removes the contracted node from its neighbours' lists. */
  detach(node: number): void {
    const remove = (list: ArcList, other: number) => {
      for (let i = 0; i < list.length; i += 2) {
        if (list[i] !== other) continue;
        list[i] = list[list.length - 2]!;
        list[i + 1] = list[list.length - 1]!;
        list.length -= 2;
        return;
      }
    };
    const outs = this.outs[node]!;
    const ins = this.ins[node]!;
    for (let i = 0; i < outs.length; i += 2) remove(this.ins[outs[i]!]!, node);
    for (let i = 0; i < ins.length; i += 2) remove(this.outs[ins[i]!]!, node);
  }
}

/** Arcs gathered per node as the nodes are contracted, then laid out as compressed rows. */
class ArcRows {
  private readonly owner: number[] = [];
  private readonly other: number[] = [];
  private readonly weight: number[] = [];

  add(node: number, list: ArcList): void {
    for (let i = 0; i < list.length; i += 2) {
      this.owner.push(node);
      this.other.push(list[i]!);
      this.weight.push(list[i + 1]!);
    }
  }

  rows(nodeCount: number): { first: Uint32Array; other: Uint32Array; weight: Float32Array } {
    const first = new Uint32Array(nodeCount + 1);
    for (const node of this.owner) first[node + 1]!++;
    for (let node = 0; node < nodeCount; node++) first[node + 1]! += first[node]!;
    const at = first.slice(0, nodeCount);
    const other = new Uint32Array(this.owner.length);
    const weight = new Float32Array(this.owner.length);
    this.owner.forEach((node, i) => {
      const place = at[node]!++;
      other[place] = this.other[i]!;
      weight[place] = float32Below(this.weight[i]!);
    });
    return { first, other, weight };
  }
}

/** Contracts every node of the graph; answers the hierarchy's upward and downward arcs. */
export function contractGraph(arcs: WeightedArcs): ContractedArcs {
  const nodeCount = arcs.first.length - 1;
  const graph = new ContractionGraph(nodeCount, arcs);
  const contractedNeighbours = new Uint32Array(nodeCount);
  const depth = new Uint32Array(nodeCount);
  const contracted = new Uint8Array(nodeCount);
  const priority = new Float64Array(nodeCount);
  const stale = new Uint8Array(nodeCount);
  const priorityOf = (node: number): number => {
    const removed = (graph.outs[node]!.length + graph.ins[node]!.length) / 2;
    return 2 * (graph.shortcuts(node, false) - removed) + contractedNeighbours[node]! + depth[node]!;
  };
  const queue = new MinHeap(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    priority[node] = priorityOf(node);
    queue.push(priority[node]!, node);
  }
  const up = new ArcRows();
  const down = new ArcRows();
  while (queue.size > 0) {
    const key = queue.peekKey();
    const node = queue.pop();
    if (contracted[node] || key !== priority[node]) continue;
    // Lazy updates: a node whose neighbourhood changed since it was ranked is ranked again when
    // it comes first, and waits if it then ranks behind the next.
    if (stale[node]) {
      stale[node] = 0;
      priority[node] = priorityOf(node);
      if (queue.size > 0 && priority[node]! > queue.peekKey()) {
        queue.push(priority[node]!, node);
        continue;
      }
    }
    graph.shortcuts(node, true);
    contracted[node] = 1;
    up.add(node, graph.outs[node]!);
    down.add(node, graph.ins[node]!);
    graph.detach(node);
    const neighbours = new Set<number>();
    for (const list of [graph.outs[node]!, graph.ins[node]!]) for (let i = 0; i < list.length; i += 2) neighbours.add(list[i]!);
    graph.outs[node] = [];
    graph.ins[node] = [];
    for (const neighbour of neighbours) {
      contractedNeighbours[neighbour]!++;
      depth[neighbour] = Math.max(depth[neighbour]!, depth[node]! + 1);
      stale[neighbour] = 1;
    }
  }
  const upRows = up.rows(nodeCount);
  const downRows = down.rows(nodeCount);
  return {
    upFirst: upRows.first, upHead: upRows.other, upWeight: upRows.weight,
    downFirst: downRows.first, downTail: downRows.other, downWeight: downRows.weight,
  };
}
