import type { CityId } from '../../core/cities/index.ts';

/**
 * Which cities' graphs a routing function keeps in memory: each city's resident bytes against a
 * budget, evicting the least recently used cities to make room for the one a request needs. Pure
 * bookkeeping; graph-store.ts loads and drops the graphs.
 */

/**
 * Bytes the router derives beside a graph file's own per directed edge (the search's buffers: the
 * file holds the open core and the cost and landmark tables, read in place): 10 B measured on the
 * tiled 10 x 10 city (docs/benchmarks.md, "Router memory at city scale"), before the hierarchy
 * potential's buffers (about 5.4 B per edge), where each edge arrives at its head (2 B,
 * `RoutingNetwork.arrivals`), the bit sets of edges with closure rules and turn restrictions
 * (0.25 B) and each used hierarchy's upward arcs side by side (`upArcsSideBySide`, 8 B per arc:
 * about 15 B per edge for the five metrics, night's included); the 5.3-million-edge metro measures
 * 33 B with every metric routed ("Routing at metro scale"), rounded up.
 */
export const DERIVED_BYTES_PER_EDGE = 34;
/**
 * What the bicycle types other than hybrid compute on first use per metric (costing.ts: a least
 * cost per edge, and the cargo bike a turn table of its own, where the others share hybrid's
 * stored one; docs/routing.md, "Bicycle types"), all eight sets of them: 33.8 B per directed edge
 * measured on New York to 37.6 B on Los Angeles (48.8 B on London when every type had its own turn
 * table); kept at 50.
 */
export const BICYCLE_TYPE_BYTES_PER_EDGE = 50;

/**
 * Memory a function keeps besides its graphs' resident bytes: Node (about 130 MB) and what a load
 * allocates on its way and requests in flight (measured: one 694 MB graph, 806 MB resident by
 * `residentBytes`, peaked at 1,551 MB in a fresh process that held the file's bytes twice while
 * reading them).
 */
export const RUNTIME_RESERVE_MB = 600;

/** What a loaded graph holds: its file's bytes, read in place, plus what the router derives. */
export const residentBytes = (fileBytes: number, edgeCount: number): number => fileBytes + edgeCount * (DERIVED_BYTES_PER_EDGE + BICYCLE_TYPE_BYTES_PER_EDGE);

/**
 * The graphs' budget in bytes: GRAPH_MEMORY_BUDGET_MB when set, else the Lambda function's memory
 * (AWS_LAMBDA_FUNCTION_MEMORY_SIZE) less the runtime's reserve; unbounded elsewhere (the local
 * platform, tests), where one process serves every city.
 */
export function graphMemoryBudget(env: NodeJS.ProcessEnv = process.env): number {
  const configured = env.GRAPH_MEMORY_BUDGET_MB;
  if (configured) {
    const megabytes = Number(configured);
    if (!(megabytes > 0)) throw new Error('GRAPH_MEMORY_BUDGET_MB must be a positive number of MB');
    return megabytes * 2 ** 20;
  }
  const functionMemory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (functionMemory > 0) return Math.max(0, functionMemory - RUNTIME_RESERVE_MB) * 2 ** 20;
  return Infinity;
}

export class ResidentGraphs {
  /** Resident bytes per city, least recently used first (Map keeps insertion order). */
  private readonly bytes = new Map<CityId, number>();

  constructor(readonly budget: number) {}

  /** A request used the city: it becomes the most recently used. */
  touch(city: CityId): void {
    const held = this.bytes.get(city);
    if (held === undefined) return;
    this.bytes.delete(city);
    this.bytes.set(city, held);
  }

  get total(): number {
    let sum = 0;
    for (const held of this.bytes.values()) sum += held;
    return sum;
  }

  /** Resident cities, least recently used first. */
  cities(): CityId[] {
    return [...this.bytes.keys()];
  }

  held(city: CityId): number {
    return this.bytes.get(city) ?? 0;
  }

  /**
   * The cities to drop, least recently used first, so that `incoming` more bytes for `city` fit
   * beside what stays (its own current version included: during a swap both are live). Null when
   * they cannot fit even with every other city gone.
   */
  makeRoom(city: CityId, incoming: number): CityId[] | null {
    if (this.held(city) + incoming > this.budget) return null;
    const evicted: CityId[] = [];
    let total = this.total;
    for (const [other, held] of this.bytes) {
      if (total + incoming <= this.budget) break;
      if (other === city) continue;
      evicted.push(other);
      total -= held;
    }
    return evicted;
  }

  /** The city's graph is resident with these bytes (a new version replaces the old one's count). */
  set(city: CityId, bytes: number): void {
    this.bytes.delete(city);
    this.bytes.set(city, bytes);
  }

  release(city: CityId): void {
    this.bytes.delete(city);
  }
}
