import { TURN_RESTRICTED, type Costing } from '../../core/routing/costing/costing.ts';
import type { EdgePosition } from '../../core/routing/search/workspace.ts';

/**
 * What the map allows: the fewest stressful metres any route between two points can have within a
 * length budget, on the router's own graph and under its own rules at the departure (ways open
 * then, one-way directions, turn restrictions in force, barriers, no U-turns but at dead ends).
 * The benchmark measures the routes against it (route-quality.ts, docs/benchmarks.md).
 *
 * The search is exact, a resource-constrained shortest path: it minimises the stressful metres
 * subject to the length, by a bi-objective label-setting search in the manner of BOA*
 * (Hernández, Yeoh, Baier and others, 2020), labels popped in lexicographic order of (stressful
 * metres, metres) plus lower bounds of what is still to come, each state keeping only labels
 * shorter than every label it expanded before (the rest are dominated), and labels that cannot end
 * within the budget pruned. The first route to reach the target is the fewest stressful metres
 * within the budget. A Lagrangian sweep (minimising metres + λ · stressful metres for a range of
 * λ) would be cheaper but finds only the supported points of the frontier: where the best route
 * within 1.05× is not the optimum of any weighted sum, it would report a worse one.
 */

/** Metres of an edge that count, 0 or its length. */
export type EdgeWeight = (edge: number) => number;

export interface ConstrainedRoute {
  /** The minimised metres (stressful ones; or all, for the shortest route). */
  primary: number;
  /** The constrained metres (the route's length). */
  secondary: number;
}

/** Two-key min-heap of label ids, lexicographic on (first, second). */
class LexicographicHeap {
  private first = new Float64Array(1024);
  private second = new Float64Array(1024);
  private ids = new Int32Array(1024);
  size = 0;

  push(a: number, b: number, id: number): void {
    if (this.size === this.ids.length) {
      const grow = <T extends Float64Array | Int32Array>(array: T): T => {
        const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      this.first = grow(this.first);
      this.second = grow(this.second);
      this.ids = grow(this.ids);
    }
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.first[parent]! < a || (this.first[parent] === a && this.second[parent]! <= b)) break;
      this.first[index] = this.first[parent]!;
      this.second[index] = this.second[parent]!;
      this.ids[index] = this.ids[parent]!;
      index = parent;
    }
    this.first[index] = a;
    this.second[index] = b;
    this.ids[index] = id;
  }

  pop(): number {
    const top = this.ids[0]!;
    const last = --this.size;
    const a = this.first[last]!;
    const b = this.second[last]!;
    const id = this.ids[last]!;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= last) break;
      if (child + 1 < last && (this.first[child + 1]! < this.first[child]! || (this.first[child + 1] === this.first[child] && this.second[child + 1]! < this.second[child]!))) child++;
      if (this.first[child]! > a || (this.first[child] === a && this.second[child]! >= b)) break;
      this.first[index] = this.first[child]!;
      this.second[index] = this.second[child]!;
      this.ids[index] = this.ids[child]!;
      index = child;
    }
    this.first[index] = a;
    this.second[index] = b;
    this.ids[index] = id;
    return top;
  }
}

/**
 * Per node, a lower bound on the weight still to come to the nearest target (ignoring turns): a
 * Dijkstra backwards from the targets over the edges open at the departure.
 */
export function boundToTargets(costing: Costing, targets: readonly EdgePosition[], weight: EdgeWeight): Float64Array {
  const graph = costing.network.graph;
  const bound = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new LexicographicHeap();
  for (const target of targets) {
    const node = graph.edgeTail[target.edge]!;
    const value = target.fraction * weight(target.edge);
    if (value < bound[node]!) {
      bound[node] = value;
      heap.push(value, 0, node);
    }
  }
  const settled = new Uint8Array(graph.nodeCount);
  while (heap.size > 0) {
    const node = heap.pop();
    if (settled[node]) continue;
    settled[node] = 1;
    for (let i = graph.firstIn[node]!, end = graph.firstIn[node + 1]!; i < end; i++) {
      const edge = graph.inEdges[i]!;
      if (costing.edgeCost(edge) === Infinity) continue;
      const tail = graph.edgeTail[edge]!;
      const value = bound[node]! + weight(edge);
      if (value < bound[tail]!) {
        bound[tail] = value;
        heap.push(value, 0, tail);
      }
    }
  }
  return bound;
}

/**
 * The least `primary` metres of a route from a source to a target whose `secondary` metres stay
 * within `budget`, exact; null when no route fits. `primaryBound` and `secondaryBound` are
 * `boundToTargets` of the two weights.
 */
export function constrainedBest(
  costing: Costing,
  sources: readonly EdgePosition[],
  targets: readonly EdgePosition[],
  primary: EdgeWeight,
  secondary: EdgeWeight,
  primaryBound: Float64Array,
  secondaryBound: Float64Array,
  budget: number,
): ConstrainedRoute | null {
  const graph = costing.network.graph;
  const { edgeHead, firstOut, edgeCount } = graph;
  // Labels: their state (an edge, or a via-way state beyond the edges), metres so far, and for via-way states what they follow.
  const labelState: number[] = [];
  const labelPrimary: number[] = [];
  const labelSecondary: number[] = [];
  const heap = new LexicographicHeap();
  /** Per state, the least secondary metres of a label it expanded (later, longer labels are dominated). */
  const expandedSecondary = new Float64Array(edgeCount).fill(Infinity);
  const viaStates = new Map<string, number>();
  const viaEdge: number[] = [];
  const viaRestriction: number[] = [];
  const viaMatched: number[] = [];
  const viaExpanded: number[] = [];
  const viaState = (edge: number, restriction: number, matched: number): number => {
    const key = `${edge}:${restriction}:${matched}`;
    let id = viaStates.get(key);
    if (id === undefined) {
      id = viaEdge.length;
      viaStates.set(key, id);
      viaEdge.push(edge);
      viaRestriction.push(restriction);
      viaMatched.push(matched);
      viaExpanded.push(Infinity);
    }
    return edgeCount + id;
  };
  const GOAL = -1;
  const edgeOf = (state: number) => (state < edgeCount ? state : viaEdge[state - edgeCount]!);
  const expanded = (state: number) => (state < edgeCount ? expandedSecondary[state]! : viaExpanded[state - edgeCount]!);
  const targetFraction = new Map<number, number>();
  for (const target of targets) if (costing.edgeCost(target.edge) !== Infinity) targetFraction.set(target.edge, target.fraction);
  const push = (state: number, first: number, second: number, boundFirst: number, boundSecond: number): void => {
    const id = labelState.length;
    labelState.push(state);
    labelPrimary.push(first);
    labelSecondary.push(second);
    heap.push(first + boundFirst, second + boundSecond, id);
  };

  for (const source of sources) {
    const edge = source.edge;
    if (costing.edgeCost(edge) === Infinity) continue;
    const share = 1 - source.fraction;
    const ends = targetFraction.get(edge);
    if (ends !== undefined && ends >= source.fraction) {
      const length = (ends - source.fraction) * secondary(edge);
      if (length <= budget) push(GOAL, (ends - source.fraction) * primary(edge), length, 0, 0);
    }
    const head = edgeHead[edge]!;
    const second = share * secondary(edge);
    if (second + secondaryBound[head]! <= budget) push(edge, share * primary(edge), second, primaryBound[head]!, secondaryBound[head]!);
  }

  while (heap.size > 0) {
    const id = heap.pop();
    const state = labelState[id]!;
    const first = labelPrimary[id]!;
    const second = labelSecondary[id]!;
    if (state === GOAL) return { primary: first, secondary: second };
    if (second >= expanded(state)) continue;
    if (state < edgeCount) expandedSecondary[state] = second;
    else viaExpanded[state - edgeCount] = second;
    const edge = edgeOf(state);
    const node = edgeHead[edge]!;
    const restricts = costing.restrictsTurnsFrom(edge);
    for (let next = firstOut[node]!, end = firstOut[node + 1]!; next < end; next++) {
      if (costing.edgeCost(next) === Infinity || costing.turnCost(edge, next) === Infinity) continue;
      let nextState = next;
      if (state >= edgeCount) {
        const step = costing.viaWayStep(viaRestriction[state - edgeCount]!, viaMatched[state - edgeCount]!, next);
        if (step === TURN_RESTRICTED) continue;
        if (step > 0) nextState = viaState(next, viaRestriction[state - edgeCount]!, step);
      }
      if (restricts) {
        const verdict = costing.turnRestriction(edge, next);
        if (verdict === TURN_RESTRICTED) continue;
        if (verdict >= 0 && nextState === next) nextState = viaState(next, verdict, 2);
      }
      const ends = targetFraction.get(next);
      if (ends !== undefined) {
        const length = second + ends * secondary(next);
        if (length <= budget) push(GOAL, first + ends * primary(next), length, 0, 0);
      }
      const nextSecond = second + secondary(next);
      const head = edgeHead[next]!;
      if (nextSecond + secondaryBound[head]! > budget || nextSecond >= expanded(nextState)) continue;
      push(nextState, first + primary(next), nextSecond, primaryBound[head]!, secondaryBound[head]!);
    }
  }
  return null;
}

/** The shortest route's metres between the positions, under the costing's rules at its departure; null when none. */
export function shortestMetres(costing: Costing, sources: readonly EdgePosition[], targets: readonly EdgePosition[]): number | null {
  const length: EdgeWeight = (edge) => costing.network.graph.edgeLength[edge]!;
  const none: EdgeWeight = () => 0;
  const bound = boundToTargets(costing, targets, length);
  const zero = new Float64Array(costing.network.graph.nodeCount);
  return constrainedBest(costing, sources, targets, length, none, bound, zero, Infinity)?.primary ?? null;
}
