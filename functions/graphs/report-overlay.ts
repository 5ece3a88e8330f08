import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import type { CityId } from '../../core/cities/index.ts';
import { RouteOverlay } from '../../core/routing/costing/overlay.ts';
import { locateReports, type LocatedReports } from '../../core/routing/avoidances/locate-avoidances.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { queryAll } from '../../platform/dynamo-pages.ts';
import { logger } from '../../platform/logger.ts';
import { RefreshedValue } from '../../platform/refreshed-value.ts';
import { tableName } from '../../platform/resources.ts';

/**
 * Accepted road reports as the router applies them: each city's avoidance items
 * (core/report-avoidances.ts), read from DynamoDB again once ROUTE_OVERLAY_REFRESH_SECONDS (default 20)
 * have passed, located on the loaded graph and turned into a RouteOverlay the costing applies
 * (core/routing/avoidances/locate-avoidances.ts). The request that finds the overlay older than that waits
 * for the re-read (one query and a few milliseconds of locating), so every request routes with
 * the reports accepted up to ROUTE_OVERLAY_REFRESH_SECONDS before it: that is the bound on how
 * soon an acceptance reaches every warm router. No graph rebuild is needed: the overlay only
 * raises costs, so the graph's landmark bounds hold.
 */

/** A city's located reports, on the graph version they were located on. */
export interface CityOverlay extends LocatedReports {
  graphVersion: string;
}

/** Per city, the overlay of the graph version it was built on. */
const overlays = new Map<CityId, { graphVersion: string; value: RefreshedValue<CityOverlay> }>();

const refreshIntervalMs = (): number => Number(process.env.ROUTE_OVERLAY_REFRESH_SECONDS ?? 20) * 1000;

/** Every avoidance item of a city: a handful to a few hundred, one query. */
export function readAvoidances(city: CityId): Promise<AvoidanceItem[]> {
  return queryAll<AvoidanceItem>({ TableName: tableName('routeAvoidances'), KeyConditionExpression: 'city = :city', ExpressionAttributeValues: { ':city': city } });
}

/** Builds a city's overlay on a loaded graph from its avoidance items (core/routing/avoidances/locate-avoidances.ts). */
export function buildOverlay(loaded: LoadedGraph, items: readonly AvoidanceItem[]): CityOverlay {
  const { overlay, avoidances } = locateReports(loaded.network, items);
  const unlocated = avoidances.filter((avoidance) => avoidance.edges.length === 0).length;
  if (unlocated > 0) logger.warn('accepted reports not located on the graph', { city: loaded.city, graphVersion: loaded.version, unlocated });
  return { graphVersion: loaded.version, overlay, avoidances };
}

async function load(loaded: LoadedGraph): Promise<CityOverlay> {
  return buildOverlay(loaded, await readAvoidances(loaded.city));
}

/**
 * The overlay of accepted reports on a city's loaded graph. The first call for a graph waits for
 * the items; later calls answer at once until the interval has passed, and then wait for the
 * re-read. A failed read keeps the last overlay (routing goes on with what it knew) and is logged;
 * with no overlay at all the router routes on the graph alone.
 */
export async function cityOverlay(loaded: LoadedGraph): Promise<CityOverlay> {
  let entry = overlays.get(loaded.city);
  if (!entry || entry.graphVersion !== loaded.version || entry.value.spent) {
    entry = {
      graphVersion: loaded.version,
      value: new RefreshedValue(() => load(loaded), refreshIntervalMs, { message: 'report overlay refresh failed; keeping the last one', fields: { city: loaded.city } }, { waitForRefresh: true }),
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
