/**
 * Search states beyond the graph's edges: arriving along an edge while following a via-way
 * restriction (a forbidden sequence of three or more edges, Costing.viaWayStep), with how many of
 * its edges the route has travelled. A query meets a handful, so they live in lists reused from
 * query to query; state ids continue after the edges' (state `first + i` is entry i).
 */
export class ViaWayStates {
  readonly edge: number[] = [];
  readonly restriction: number[] = [];
  readonly matched: number[] = [];
  readonly cost: number[] = [];
  readonly parent: number[] = [];
  readonly settled: boolean[] = [];
  /** Per edge, the entries arriving along it. */
  private readonly byEdge = new Map<number, number[]>();

  constructor(
    /** The first state id: the graph's edge count. */
    readonly first: number,
  ) {}

  clear(): void {
    for (const list of [this.edge, this.restriction, this.matched, this.cost, this.parent, this.settled]) list.length = 0;
    this.byEdge.clear();
  }

  /** The state of arriving along `edge` with `matched` edges of `restriction` travelled, added unreached when new. */
  stateFor(edge: number, restriction: number, matched: number): number {
    let entries = this.byEdge.get(edge);
    if (entries === undefined) this.byEdge.set(edge, (entries = []));
    for (const entry of entries) if (this.restriction[entry] === restriction && this.matched[entry] === matched) return this.first + entry;
    const entry = this.edge.length;
    this.edge.push(edge);
    this.restriction.push(restriction);
    this.matched.push(matched);
    this.cost.push(Infinity);
    this.parent.push(-1);
    this.settled.push(false);
    entries.push(entry);
    return this.first + entry;
  }

  /** Records `cost` reached from `parent` when it improves on the state's; whether it did. */
  improve(state: number, cost: number, parent: number): boolean {
    const entry = state - this.first;
    if (cost >= this.cost[entry]!) return false;
    this.cost[entry] = cost;
    this.parent[entry] = parent;
    return true;
  }
}
