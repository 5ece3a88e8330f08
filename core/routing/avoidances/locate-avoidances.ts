import { DateTime } from 'luxon';
import type { AvoidanceItem } from '../../report-avoidances.ts';
import type { LonLat } from '../../geo.ts';
import { EDGE_CYCLING, EDGE_DISMOUNT, EDGE_REVERSED } from '../../graph/flags.ts';
import { localMinutes } from '../../local-time.ts';
import { RouteOverlay, type OverlayEffectSource } from '../costing/overlay.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { snapCandidates } from '../snap/snap.ts';

/**
 * Accepted road reports located on a graph: each avoidance item (core/report-avoidances.ts) found on the
 * way it is about and turned into effects of a RouteOverlay, which the costing applies. Where the
 * items come from (DynamoDB, refreshed every few seconds) is functions/graphs/report-overlay.ts.
 */

/** How far from the reported location the located way may be found. */
const LOCATE_METRES = 60;

/** One accepted report located on a graph. */
export interface LocatedAvoidance {
  item: AvoidanceItem;
  /** The edges it acts on; empty when the report could not be located on this graph. */
  edges: number[];
  /** Local wall-clock minute it ends (Infinity for none). */
  untilMinute: number;
}

/** The accepted reports of a city as the router applies them: the overlay, and each report's edges. */
export interface LocatedReports {
  overlay: RouteOverlay;
  avoidances: LocatedAvoidance[];
}

/** The wall-clock minute in the city's zone at which an ISO instant falls. */
function localMinuteOf(instant: string, timeZone: string): number {
  const local = DateTime.fromISO(instant).setZone(timeZone);
  return local.isValid ? localMinutes(local.year, local.month, local.day, local.hour, local.minute) : Infinity;
}

/**
 * The segment a report is about: the reported way's nearest segment to the location, or, when
 * the analysis found no way, the nearest segment a bike rides (else the nearest it may be pushed
 * along). A way gone from this graph's cycling network locates nothing: another road must not
 * take its place.
 */
function locateSegment(network: RoutingNetwork, item: AvoidanceItem): number | null {
  const graph = network.graph;
  const cycling = (edge: number) => (graph.edgeFlags[edge]! & EDGE_CYCLING) !== 0;
  const ridden = (edge: number) => cycling(edge) && !(graph.edgeFlags[edge]! & EDGE_DISMOUNT);
  const onWay = (edge: number) => cycling(edge) && graph.segmentWayId[graph.edgeSegment[edge]!] === item.way_id;
  const location = item.location as LonLat;
  const nearest = (usable: (edge: number) => boolean) => {
    const found = snapCandidates(network, usable, location, 1)[0];
    return found && found.distanceMetres <= LOCATE_METRES ? found.segment : null;
  };
  return item.way_id !== null ? nearest(onWay) : (nearest(ridden) ?? nearest(cycling));
}

/** Applies one avoidance to the overlay; returns the edges it acts on. */
function apply(network: RoutingNetwork, overlay: RouteOverlay, item: AvoidanceItem, untilMinute: number): number[] {
  const segment = locateSegment(network, item);
  if (segment === null) return [];
  const graph = network.graph;
  const edges = [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!].filter((edge) => edge >= 0);
  const source: OverlayEffectSource = { id: `report:${item.report_id}`, kind: item.effect, untilMinute };
  switch (item.effect) {
    case 'closed':
      for (const edge of edges) overlay.block(edge, source);
      return edges;
    case 'unsafe':
      for (const edge of edges) overlay.markUnsafe(edge, source);
      return edges;
    case 'one_way': {
      // One-way ways are drawn in their legal direction: riding against the drawing is what stops.
      const against = edges.filter((edge) => Boolean(graph.edgeFlags[edge]! & EDGE_REVERSED) !== Boolean(item.against_geometry));
      for (const edge of against) overlay.block(edge, source);
      return against;
    }
    case 'no_manoeuvre': {
      // The turn onto the way at the junction nearest the report does not exist; the way does.
      const [lon, lat] = item.location;
      const distance = (node: number) => (network.nodeLon(node) - lon) ** 2 + (network.nodeLat(node) - lat) ** 2;
      const ends = [graph.edgeTail[edges[0]!]!, graph.edgeHead[edges[0]!]!];
      const junction = distance(ends[0]!) <= distance(ends[1]!) ? ends[0]! : ends[1]!;
      const entering = edges.filter((edge) => graph.edgeTail[edge] === junction);
      for (const edge of entering) overlay.forbidEntry(edge, junction, source);
      return entering;
    }
  }
}

/** Locates a city's avoidance items on a graph; reports the graph's nightly rebuild already folded in are left out. */
export function locateReports(network: RoutingNetwork, items: readonly AvoidanceItem[]): LocatedReports {
  const graph = network.graph;
  const overlay = new RouteOverlay(graph.edgeCount);
  // Reports the nightly rebuild folded into this graph are part of its ways already.
  const folded = new Set(graph.header.folded_reports ?? []);
  const avoidances = items.filter((item) => !folded.has(item.report_id)).map((item) => {
    const untilMinute = item.until ? localMinuteOf(item.until, graph.header.time_zone) : Infinity;
    return { item, untilMinute, edges: apply(network, overlay, item, untilMinute) };
  });
  return { overlay, avoidances };
}
