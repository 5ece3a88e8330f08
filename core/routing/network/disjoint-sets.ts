/**
 * Disjoint sets over the members 0 to size - 1 (union-find with path halving): the connected
 * pieces of a graph in one pass over its edges, as the router's open core and the benchmarks'
 * connected pairs need them.
 */
export class DisjointSets {
  private readonly parent: Int32Array;

  constructor(size: number) {
    this.parent = new Int32Array(size);
    for (let member = 0; member < size; member++) this.parent[member] = member;
  }

  /** The representative of the member's set: equal for two members exactly when they are joined. */
  find(member: number): number {
    const parent = this.parent;
    while (parent[member] !== member) {
      parent[member] = parent[parent[member]!]!;
      member = parent[member]!;
    }
    return member;
  }

  /** Joins the sets of `a` and `b`; `b`'s representative stays the representative. */
  union(a: number, b: number): void {
    this.parent[this.find(a)] = this.find(b);
  }
}
