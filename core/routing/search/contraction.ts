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

/** Contracted nodes (or nodes ranked) between two checks of `contractGraph`'s `stop`. */
const STOP_CHECK_EVERY = 1024;

/** `contractGraph` was told to stop before it finished (its caller's time ran out). */
export class ContractionStopped extends Error {
  constructor() {
    super('The contraction was stopped before it finished');
    this.name = 'ContractionStopped';
  }
}

/** `value` in single precision, never above it (what a stored weight or bound must be). */
export function float32Below(value: number): number {
  // Rounding to single precision moves a number by at most 2^-24 of it.
  return Math.fround(value * (1 - 2 ** -23));
}

/**
 * Every node's remaining arcs while the graph is contracted, in two shared typed arrays rather
 * than a JS array per node (which cost some 200 bytes a node before its first arc). A node's arcs
 * are a block of its own, [start, start + length) with room up to start + capacity; a block that
 * fills moves to the end with twice the room (as OSRM's DynamicGraph does), and when the end
 * reaches the storage's, the blocks in use are packed to the front, into bigger storage only if
 * packing would leave little room. A list keeps its order through moves and packing: arcs are
 * appended at its end and removed by moving its last arc into the gap.
 */
class ArcLists {
  /** The other endpoint of each arc. */
  other: Uint32Array;
  weight: Float64Array;
  readonly start: Uint32Array;
  readonly length: Uint32Array;
  private readonly capacity: Uint32Array;
  /** Where the next moved block goes: storage beyond it is free. */
  private end = 0;
  /** The capacity of the blocks in use (what packing keeps). */
  private held = 0;

  /** Room for each node's `degree` arcs, in node order. */
  constructor(degree: Uint32Array) {
    const nodeCount = degree.length;
    this.start = new Uint32Array(nodeCount);
    this.length = new Uint32Array(nodeCount);
    this.capacity = new Uint32Array(nodeCount);
    for (let node = 0; node < nodeCount; node++) {
      this.start[node] = this.end;
      this.capacity[node] = degree[node]!;
      this.end += degree[node]!;
    }
    this.held = this.end;
    if (nodeCount >= 2 ** 26 || this.end >= 2 ** 25) throw new Error('A graph too big to contract');
    // Room for the first shortcuts before the first packing.
    const size = Math.max(1024, Math.ceil(this.end * 1.5));
    this.other = new Uint32Array(size);
    this.weight = new Float64Array(size);
  }

  push(node: number, other: number, weight: number): void {
    const length = this.length[node]!;
    if (length === this.capacity[node]) this.move(node, Math.max(4, 2 * length));
    const at = this.start[node]! + length;
    this.other[at] = other;
    this.weight[at] = weight;
    this.length[node] = length + 1;
  }

  /** Removes the node's arc to `other`, moving the list's last arc into its place. */
  remove(node: number, other: number): void {
    const start = this.start[node]!;
    const last = start + this.length[node]! - 1;
    for (let i = start; i <= last; i++) {
      if (this.other[i] !== other) continue;
      this.other[i] = this.other[last]!;
      this.weight[i] = this.weight[last]!;
      this.length[node]!--;
      return;
    }
  }

  /** Drops the node's list and frees its room. */
  clear(node: number): void {
    this.held -= this.capacity[node]!;
    this.length[node] = 0;
    this.capacity[node] = 0;
  }

  /** Gives the node's block room for `capacity` arcs at the end of the storage. */
  private move(node: number, capacity: number): void {
    if (this.end + capacity > this.other.length) this.pack(capacity);
    const from = this.start[node]!;
    const length = this.length[node]!;
    this.other.copyWithin(this.end, from, from + length);
    this.weight.copyWithin(this.end, from, from + length);
    this.held += capacity - this.capacity[node]!;
    this.start[node] = this.end;
    this.capacity[node] = capacity;
    this.end += capacity;
  }

  /** Packs the blocks in use to the front (in the order they lie), leaving room for `needed` more. */
  private pack(needed: number): void {
    const nodeCount = this.start.length;
    // Blocks in storage order: start and node in one double each, sorted natively (exact while
    // the storage stays below 2^27 arcs and the graph below 2^26 nodes: see the constructor).
    const order = new Float64Array(nodeCount);
    let blocks = 0;
    for (let node = 0; node < nodeCount; node++) if (this.capacity[node]! > 0) order[blocks++] = this.start[node]! * 2 ** 26 + node;
    const inOrder = order.subarray(0, blocks).sort();
    const wanted = this.held + needed;
    const grow = wanted > 0.75 * this.other.length;
    if (grow && wanted * 1.5 >= 2 ** 27) throw new Error('A graph too big to contract');
    const other = grow ? new Uint32Array(Math.ceil(wanted * 1.5)) : this.other;
    const weight = grow ? new Float64Array(other.length) : this.weight;
    let at = 0;
    for (const key of inOrder) {
      const node = key % 2 ** 26;
      const from = this.start[node]!;
      const length = this.length[node]!;
      if (grow) {
        other.set(this.other.subarray(from, from + length), at);
        weight.set(this.weight.subarray(from, from + length), at);
      } else {
        other.copyWithin(at, from, from + length);
        weight.copyWithin(at, from, from + length);
      }
      this.start[node] = at;
      at += this.capacity[node]!;
    }
    this.other = other;
    this.weight = weight;
    this.end = at;
  }
}

class ContractionGraph {
  readonly outs: ArcLists;
  readonly ins: ArcLists;
  private readonly distance: Float64Array;
  private readonly reached: number[] = [];
  private readonly heap = new MinHeap(256);
  /** Marks the out-neighbours a witness search looks for: those with the current `stamp`. */
  private readonly targetStamp: Uint32Array;
  private stamp = 0;
  /** The shortcuts one contraction adds once its witness searches are done: [tail, head, weight, …]. */
  private readonly pending: number[] = [];

  constructor(readonly nodeCount: number, arcs: WeightedArcs) {
    const outDegree = new Uint32Array(nodeCount);
    const inDegree = new Uint32Array(nodeCount);
    for (let tail = 0; tail < nodeCount; tail++) {
      for (let i = arcs.first[tail]!; i < arcs.first[tail + 1]!; i++) {
        outDegree[tail]!++;
        inDegree[arcs.head[i]!]!++;
      }
    }
    this.outs = new ArcLists(outDegree);
    this.ins = new ArcLists(inDegree);
    this.distance = new Float64Array(nodeCount).fill(Infinity);
    this.targetStamp = new Uint32Array(nodeCount);
    for (let tail = 0; tail < nodeCount; tail++) {
      for (let i = arcs.first[tail]!; i < arcs.first[tail + 1]!; i++) this.addArc(tail, arcs.head[i]!, arcs.weight[i]!);
    }
  }

  /** Adds tail→head, or lowers the weight of the arc there already. */
  addArc(tail: number, head: number, weight: number): void {
    if (tail === head || weight === Infinity) return;
    const { outs, ins } = this;
    const outStart = outs.start[tail]!;
    for (let i = outStart, end = outStart + outs.length[tail]!; i < end; i++) {
      if (outs.other[i] !== head) continue;
      if (weight < outs.weight[i]!) {
        outs.weight[i] = weight;
        const inStart = ins.start[head]!;
        for (let j = inStart, inEnd = inStart + ins.length[head]!; j < inEnd; j++) if (ins.other[j] === tail) ins.weight[j] = weight;
      }
      return;
    }
    outs.push(tail, head, weight);
    ins.push(head, tail, weight);
  }

  /**
   * The shortcuts contracting `node` needs (added when `add`): answers how many. Per in-neighbour
   * one witness search, bounded by the dearest path through the node it could replace and stopped
   * once every out-neighbour is settled; a search to rank candidates (`add` false) gives up sooner.
   */
  shortcuts(node: number, add: boolean): number {
    const { outs, ins, pending } = this;
    const inStart = ins.start[node]!;
    const inEnd = inStart + ins.length[node]!;
    const outStart = outs.start[node]!;
    const outEnd = outStart + outs.length[node]!;
    if (inStart === inEnd || outStart === outEnd) return 0;
    let count = 0;
    for (let i = inStart; i < inEnd; i++) {
      const from = ins.other[i]!;
      const toNode = ins.weight[i]!;
      let farthest = -1;
      let targets = 0;
      this.stamp++;
      for (let j = outStart; j < outEnd; j++) {
        if (outs.other[j] === from) continue;
        farthest = Math.max(farthest, toNode + outs.weight[j]!);
        this.targetStamp[outs.other[j]!] = this.stamp;
        targets++;
      }
      if (targets === 0) continue;
      this.witnessSearch(from, node, farthest, targets, add ? WITNESS_SETTLE_LIMIT : RANKING_SETTLE_LIMIT);
      for (let j = outStart; j < outEnd; j++) {
        const to = outs.other[j]!;
        if (to === from) continue;
        const through = toNode + outs.weight[j]!;
        if (this.distance[to]! <= through) continue;
        count++;
        if (add) pending.push(from, to, through);
      }
      this.forgetSearch();
    }
    // Added after the searches, so that no search sees a shortcut past the node it avoids.
    for (let i = 0; i < pending.length; i += 3) this.addArc(pending[i]!, pending[i + 1]!, pending[i + 2]!);
    pending.length = 0;
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
      const start = outs.start[node]!;
      for (let i = start, end = start + outs.length[node]!; i < end; i++) {
        const next = outs.other[i]!;
        if (next === avoid) continue;
        const total = key + outs.weight[i]!;
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
    const { outs, ins } = this;
    for (let i = outs.start[node]!, end = i + outs.length[node]!; i < end; i++) ins.remove(outs.other[i]!, node);
    for (let i = ins.start[node]!, end = i + ins.length[node]!; i < end; i++) outs.remove(ins.other[i]!, node);
  }
}

/**
 * Arcs gathered per node as the nodes are contracted (each node's at once, when it is
 * contracted), then laid out as compressed rows. Kept in typed arrays of twice the room they need
 * at most, rather than JS arrays of tens of millions of numbers.
 */
class ArcRows {
  private other: Uint32Array;
  private weight: Float32Array;
  private size = 0;
  /** Where each node's arcs begin in `other` and `weight`, and how many it has. */
  private readonly at: Uint32Array;
  private readonly count: Uint32Array;

  constructor(nodeCount: number, expectedArcs: number) {
    this.at = new Uint32Array(nodeCount);
    this.count = new Uint32Array(nodeCount);
    this.other = new Uint32Array(Math.max(1024, expectedArcs));
    this.weight = new Float32Array(this.other.length);
  }

  /** The node's arcs: those of its list in `lists`, stored in single precision. */
  add(node: number, lists: ArcLists): void {
    const length = lists.length[node]!;
    if (this.size + length > this.other.length) {
      const other = new Uint32Array(Math.max(2 * this.other.length, this.size + length));
      const weight = new Float32Array(other.length);
      other.set(this.other.subarray(0, this.size));
      weight.set(this.weight.subarray(0, this.size));
      this.other = other;
      this.weight = weight;
    }
    this.at[node] = this.size;
    this.count[node] = length;
    const start = lists.start[node]!;
    for (let i = 0; i < length; i++) {
      this.other[this.size] = lists.other[start + i]!;
      this.weight[this.size++] = float32Below(lists.weight[start + i]!);
    }
  }

  rows(): { first: Uint32Array; other: Uint32Array; weight: Float32Array } {
    const nodeCount = this.at.length;
    const first = new Uint32Array(nodeCount + 1);
    for (let node = 0; node < nodeCount; node++) first[node + 1] = first[node]! + this.count[node]!;
    const other = new Uint32Array(this.size);
    const weight = new Float32Array(this.size);
    for (let node = 0; node < nodeCount; node++) {
      for (let from = this.at[node]!, to = first[node]!, end = first[node + 1]!; to < end; from++, to++) {
        other[to] = this.other[from]!;
        weight[to] = this.weight[from]!;
      }
    }
    return { first, other, weight };
  }
}

/**
 * Contracts every node of the graph in turn: the arcs up and down from each, gathered as it goes.
 * Asks `stop` every STOP_CHECK_EVERY nodes and throws ContractionStopped when it answers true.
 */
function contractInOrder(arcs: WeightedArcs, stop: () => boolean): { up: ArcRows; down: ArcRows } {
  const nodeCount = arcs.first.length - 1;
  const graph = new ContractionGraph(nodeCount, arcs);
  const { outs, ins } = graph;
  const contractedNeighbours = new Uint32Array(nodeCount);
  const depth = new Uint32Array(nodeCount);
  const contracted = new Uint8Array(nodeCount);
  const priority = new Float64Array(nodeCount);
  const stale = new Uint8Array(nodeCount);
  /** The contraction (1-based) that last counted the node as a neighbour. */
  const countedBy = new Uint32Array(nodeCount);
  const priorityOf = (node: number): number => {
    const removed = outs.length[node]! + ins.length[node]!;
    return 2 * (graph.shortcuts(node, false) - removed) + contractedNeighbours[node]! + depth[node]!;
  };
  const queue = new MinHeap(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    if (node % STOP_CHECK_EVERY === 0 && stop()) throw new ContractionStopped();
    priority[node] = priorityOf(node);
    queue.push(priority[node]!, node);
  }
  const up = new ArcRows(nodeCount, arcs.head.length);
  const down = new ArcRows(nodeCount, arcs.head.length);
  let contractions = 0;
  const neighbourLists = [outs, ins];
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
    if (contractions % STOP_CHECK_EVERY === 0 && stop()) throw new ContractionStopped();
    graph.shortcuts(node, true);
    contracted[node] = 1;
    up.add(node, outs);
    down.add(node, ins);
    graph.detach(node);
    contractions++;
    for (const lists of neighbourLists) {
      for (let i = lists.start[node]!, end = i + lists.length[node]!; i < end; i++) {
        const neighbour = lists.other[i]!;
        if (countedBy[neighbour] === contractions) continue;
        countedBy[neighbour] = contractions;
        contractedNeighbours[neighbour]!++;
        depth[neighbour] = Math.max(depth[neighbour]!, depth[node]! + 1);
        stale[neighbour] = 1;
      }
    }
    outs.clear(node);
    ins.clear(node);
  }
  return { up, down };
}

/**
 * Contracts every node of the graph; answers the hierarchy's upward and downward arcs. `stop` is
 * asked now and then (a build's deadline): when it answers true the contraction throws
 * ContractionStopped, since half a hierarchy bounds nothing.
 */
export function contractGraph(arcs: WeightedArcs, stop: () => boolean = () => false): ContractedArcs {
  // The contraction's lists are gone by the time the rows are laid out.
  const { up, down } = contractInOrder(arcs, stop);
  const upRows = up.rows();
  const downRows = down.rows();
  return {
    upFirst: upRows.first, upHead: upRows.other, upWeight: upRows.weight,
    downFirst: downRows.first, downTail: downRows.other, downWeight: downRows.weight,
  };
}
