import { minuteOfWeek } from '../local-time.ts';
import { CLOSURE_CONTINUES, CLOSURE_CYCLING, CLOSURE_OUTSIDE_WINDOW, CLOSURE_WALKING } from './flags.ts';
import type { Graph } from './layout.ts';
import type { Profile } from './profiles.ts';

/**
 * The graph's stored rules as the router reads them: time windows, closures that follow them,
 * and the turn restrictions that start at an edge. The builder compiles OSM's conditional tags
 * and opening hours into these windows (graph-builder/time-windows.ts).
 */

/** Intervals are minutes of the local week, Monday 00:00 = 0, up to MINUTES_PER_WEEK. */
export const TIME_WINDOW_WEEKLY = 0;
/**
 * Intervals are local wall-clock minutes since 1970-01-01T00:00 (core/local-time.ts), expanded at
 * build time over `header.time_windows.horizon`. Used for date ranges, public holidays and
 * sunrise/sunset-based hours.
 */
export const TIME_WINDOW_DATES = 1;

/** Whether time window `window` is active at local wall-clock minute `localMinuteValue`. */
export function isWindowActive(graph: Graph, window: number, localMinuteValue: number): boolean {
  const time = graph.windowKind[window] === TIME_WINDOW_WEEKLY ? minuteOfWeek(localMinuteValue) : localMinuteValue;
  let low = graph.windowFirst[window]!;
  let high = graph.windowFirst[window + 1]!;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (graph.windowIntervals[2 * mid + 1]! <= time) low = mid + 1;
    else high = mid;
  }
  return low < graph.windowFirst[window + 1]! && graph.windowIntervals[2 * low]! <= time;
}

/**
 * Whether closure `closure` (0-based: an edge's `edgeClosure` minus 1) closes the edge for a
 * profile at a local wall-clock minute. An edge's closures are consecutive records linked by
 * CLOSURE_CONTINUES; all of them are checked.
 */
export function isClosed(graph: Graph, closure: number, profile: Profile, localMinuteValue: number): boolean {
  const profileBit = profile === 'cycling' ? CLOSURE_CYCLING : CLOSURE_WALKING;
  for (let record = closure; ; record++) {
    const flags = graph.closureFlags[record]!;
    if (flags & profileBit) {
      const active = isWindowActive(graph, graph.closureWindow[record]!, localMinuteValue);
      if (flags & CLOSURE_OUTSIDE_WINDOW ? !active : active) return true;
    }
    if (!(flags & CLOSURE_CONTINUES)) return false;
  }
}

/** Range [start, end) of restrictions whose sequence starts with `edge` (restrictions are sorted by first edge). */
export function restrictionsFrom(graph: Graph, edge: number): [number, number] {
  const count = graph.restrictionFlags.length;
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (firstEdgeOf(graph, mid) < edge) low = mid + 1;
    else high = mid;
  }
  let end = low;
  while (end < count && firstEdgeOf(graph, end) === edge) end++;
  return [low, end];
}

/** The first edge of restriction `restriction`'s sequence. (A function of the module, not one made per call: the search asks on every turn from an edge a restriction begins at.) */
function firstEdgeOf(graph: Graph, restriction: number): number {
  return graph.restrictionEdges[graph.restrictionFirst[restriction]!]!;
}
