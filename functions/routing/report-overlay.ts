import { DateTime } from 'luxon';
import type { CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { EDGE_CYCLING, EDGE_REVERSED } from '../../core/graph/flags.ts';
import { localMinutes } from '../../core/local-time.ts';
import { RouteOverlay, type OverlayEffectSource } from '../../core/routing/costing/overlay.ts';
import { queryAll } from '../platform/dynamo-pages.ts';
import { logger } from '../platform/logger.ts';
import { RefreshedValue } from '../platform/refreshed-value.ts';
import { tableName } from '../platform/resources.ts';
import type { AvoidanceItem } from '../../core/avoidances.ts';
import type { LoadedGraph } from './graph-store.ts';
import { snapCandidates } from '../../core/routing/snap/snap.ts';

/**
 * Accepted road reports as the router applies them: each city's avoidance items
 * (core/avoidances.ts), read from DynamoDB at most every
 * ROUTE_OVERLAY_REFRESH_SECONDS (default 20, so an acceptance reaches warm routers within the
 * minute), located on the loaded graph and turned into a RouteOverlay the costing applies. No
 * graph rebuild is needed: the overlay only raises costs, so the graph's landmark bounds hold.
 */

/** How far from the reported location the located way may be found. */
const LOCATE_METRES = 60;

/** One accepted report located on the current graph. */
export interface LocatedAvoidance {
  item: AvoidanceItem;
  /** The edges it acts on; empty when the report could not be located on this graph. */
  edges: number[];
  /** Local wall-clock minute it ends (Infinity for none). */
  untilMinute: number;
}

export interface CityOverlay {
  graphVersion: string;
  overlay: RouteOverlay;
  avoidances: LocatedAvoidance[];
}

/** Per city, the overlay of the graph version it was built on. */
const overlays = new Map<CityId, { graphVersion: string; value: RefreshedValue<CityOverlay> }>();

const refreshIntervalMs = (): number => Number(process.env.ROUTE_OVERLAY_REFRESH_SECONDS ?? 20) * 1000;

/** Every avoidance item of a city: a handful to a few hundred, one query. */
export function readAvoidances(city: CityId): Promise<AvoidanceItem[]> {
  return queryAll<AvoidanceItem>({ TableName: tableName('routeAvoidances'), KeyConditionExpression: 'city = :city', ExpressionAttributeValues: { ':city': city } });
}

/** The wall-clock minute in the city's zone at which an ISO instant falls. */
function localMinuteOf(instant: string, timeZone: string): number {
  const local = DateTime.fromISO(instant).setZone(timeZone);
  return local.isValid ? localMinutes(local.year, local.month, local.day, local.hour, local.minute) : Infinity;
}

/**
 * The segment a report is about: the reported way's nearest segment to the location, or, when
 * the analysis found no way, the nearest rideable segment. A way gone from this graph's cycling
 * network locates nothing: another road must not take its place.
 */
function locateSegment(loaded: LoadedGraph, item: AvoidanceItem): number | null {
  const graph = loaded.network.graph;
  const cycling = (edge: number) => (graph.edgeFlags[edge]! & EDGE_CYCLING) !== 0;
  const onWay = (edge: number) => cycling(edge) && graph.segmentWayId[graph.edgeSegment[edge]!] === item.way_id;
  const location = item.location as LonLat;
  const found = snapCandidates(loaded.network, item.way_id !== null ? onWay : cycling, location, 1)[0];
  return found && found.distanceMetres <= LOCATE_METRES ? found.segment : null;
}

/** Applies one avoidance to the overlay; returns the edges it acts on. */
function apply(loaded: LoadedGraph, overlay: RouteOverlay, item: AvoidanceItem, untilMinute: number): number[] {
  const segment = locateSegment(loaded, item);
  if (segment === null) return [];
  const { network } = loaded;
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

/** Builds a city's overlay on a loaded graph from its avoidance items. */
export function buildOverlay(loaded: LoadedGraph, items: readonly AvoidanceItem[]): CityOverlay {
  const overlay = new RouteOverlay(loaded.network.graph.edgeCount);
  const timeZone = loaded.network.graph.header.time_zone;
  // Reports the nightly rebuild folded into this graph are part of its ways already.
  const folded = new Set(loaded.network.graph.header.folded_reports ?? []);
  const avoidances = items.filter((item) => !folded.has(item.report_id)).map((item) => {
    const untilMinute = item.until ? localMinuteOf(item.until, timeZone) : Infinity;
    return { item, untilMinute, edges: apply(loaded, overlay, item, untilMinute) };
  });
  const unlocated = avoidances.filter((avoidance) => avoidance.edges.length === 0).length;
  if (unlocated > 0) logger.warn('accepted reports not located on the graph', { city: loaded.city, graphVersion: loaded.version, unlocated });
  return { graphVersion: loaded.version, overlay, avoidances };
}

async function load(loaded: LoadedGraph): Promise<CityOverlay> {
  return buildOverlay(loaded, await readAvoidances(loaded.city));
}

/**
 * The overlay of accepted reports on a city's loaded graph. The first call for a graph waits for
 * the items; later calls answer at once and refresh in the background once the interval has
 * passed. A failed read keeps the last overlay (routing goes on with what it knew) and is logged;
 * with no overlay at all the router routes on the graph alone.
 */
export async function cityOverlay(loaded: LoadedGraph): Promise<CityOverlay> {
  let entry = overlays.get(loaded.city);
  if (!entry || entry.graphVersion !== loaded.version || entry.value.spent) {
    entry = {
      graphVersion: loaded.version,
      value: new RefreshedValue(() => load(loaded), refreshIntervalMs, { message: 'report overlay refresh failed; keeping the last one', fields: { city: loaded.city } }),
    };
    overlays.set(loaded.city, entry);
  }
  try {
    return await entry.value.get();
  } catch (error) {
    logger.warn('report overlay unavailable; routing without it', { city: loaded.city, error: error as Error });
    return { graphVersion: loaded.version, overlay: new RouteOverlay(loaded.network.graph.edgeCount), avoidances: [] };
  }
}

/** Drops every overlay (tests use it to observe loading). */
export function forgetOverlays(): void {
  overlays.clear();
}
