import { TURN_FORBIDDEN } from '../costing/cost-tables.ts';
import type { Costing } from '../costing/costing.ts';

/**
 * The least cost of leaving each edge: over the turns out of it onto an edge the metric may use,
 * the cheapest. Every route that goes on from an edge pays at least that much, and the cycling
 * costing charges a junction's wait to the edge arriving at it (the signals or stop on its
 * approach, the crossing of a busy road from a minor one), so this is where a lower bound finds
 * those waits. The landmark tables (landmarks.ts) and the hierarchies' lower-bound graph
 * (hierarchy.ts) both count it, from this one table.
 *
 * Stored per edge in half-seconds, rounded down (so never above the true least), at most
 * `NO_FOLLOWING_EDGE - 1`; `NO_FOLLOWING_EDGE` where nothing follows the edge.
 */
export const NO_FOLLOWING_EDGE = 0xff;

/** The costing's table (see above), for edges whose `leastCost` is finite; `NO_FOLLOWING_EDGE` elsewhere. */
export function leastLeavingHalfSeconds(costing: Costing, leastCost: Float64Array, into: Uint8Array = new Uint8Array(leastCost.length)): Uint8Array {
  const network = costing.network;
  const { edgeCount, edgeHead, firstOut } = network.graph;
  // The stored turn table (half-seconds, as this table) where the costing has one: read a row at a time.
  const turns = costing.turnTable();
  for (let edge = 0; edge < edgeCount; edge++) {
    let least = Infinity;
    if (leastCost[edge] !== Infinity) {
      const head = edgeHead[edge]!;
      const row = turns !== null ? network.turnBase(edge) : 0;
      for (let next = firstOut[head]!, end = firstOut[head + 1]!; next < end; next++) {
        if (leastCost[next] === Infinity) continue;
        let turn: number;
        if (turns !== null) {
          const halfSeconds = turns[row + next]!;
          turn = halfSeconds === TURN_FORBIDDEN ? Infinity : halfSeconds * 0.5;
        } else {
          turn = costing.turnCost(edge, next);
        }
        if (turn < least) least = turn;
      }
    }
    into[edge] = least === Infinity ? NO_FOLLOWING_EDGE : Math.min(NO_FOLLOWING_EDGE - 1, Math.floor(least * 2));
  }
  return into;
}
