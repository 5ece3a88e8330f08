import { logger } from '../../platform/logger.ts';
import { FeedRefused, type RefusalKind } from './feed-values.ts';
import {
  discoveryUrlFromManifest,
  isManifest,
  joinStations,
  readDiscovery,
  readFeedDocument,
  readGeofencing,
  readPricingPlans,
  readStationInformation,
  readStationStatus,
  readSystemInformation,
  readVehicles,
  readVehicleTypes,
  type FeedDocument,
  type ReadCounts,
  type StationInformation,
  type StationStatus,
} from './gbfs.ts';
import { SNAPSHOT_FORMAT, type BikeShareSnapshot, type Discovery, type FeedName, type FeedStamp, type Station } from './model.ts';
import { readSnapshot, writeSnapshot } from './store.ts';
import type { FeedSource } from '../../platform/bike-share-feeds.ts';
import { apiTypeOf, type CitySystem } from './systems.ts';
import { readBikePoints } from './tfl-bikepoint.ts';

/**
 * One ingestion run for one system: fetch the feeds that are due, check each document, and
 * write a new snapshot made of the accepted documents and, for everything else, the last good
 * data. The rules (docs/bikeshare.md):
 *
 * - Due: a feed is fetched again once its own `last_updated + ttl` has passed (or its URL
 *   changed); the discovery document likewise.
 * - Broken: no answer, not HTTP 200, not JSON (a truncated body), not a feed document.
 * - Partial: more than 10% of its entries unreadable (geofencing excepted: zones without a
 *   polygon are dropped and logged); station_status covering under 90% of the
 *   stations; a system that lost more than half of its stations since the last good snapshot.
 * - Stale: older than the document already stored (`last_updated` went backwards); and for the
 *   availability feeds only, later than its own promise `last_updated + ttl` by more than the
 *   policy allows, or dated in the future, judged against the injected clock.
 * A refused document leaves the stored data of that feed as it was, and the reason is logged.
 */

export interface FreshnessPolicy {
  /**
   * How long an availability feed (station_status, free_bike_status / vehicle_status, BikePoint)
   * may overrun `last_updated + ttl` before it counts as stale. null: feeds are recordings replayed
   * as they were (the local fixture server), so only going backwards is stale.
   */
  maxStatusLagSeconds: number | null;
}

export const DEFAULT_MAX_STATUS_LAG_SECONDS = 600;
/** Clocks disagree a little; a document from further in the future than this is refused. */
export const FUTURE_TOLERANCE_SECONDS = 300;
export const MAX_INVALID_SHARE = 0.1;
export const MIN_STATUS_COVERAGE = 0.9;
/** A system with at least this many stations may not lose more than half of them in one run. */
export const MIN_STATIONS_FOR_RETENTION_CHECK = 20;
export const FETCH_TIMEOUT_MS = 10_000;
/** Names and rental links in this language when a feed offers several. */
export const FEED_LANGUAGE = 'en';

export const STATUS_AGE_ENV_VAR = 'BIKESHARE_MAX_STATUS_LAG_SECONDS';

/** `BIKESHARE_MAX_STATUS_LAG_SECONDS`: seconds, or `off` for replayed recordings. */
export function freshnessPolicyFromEnvironment(environment: NodeJS.ProcessEnv = process.env): FreshnessPolicy {
  const raw = environment[STATUS_AGE_ENV_VAR]?.trim();
  if (!raw) return { maxStatusLagSeconds: DEFAULT_MAX_STATUS_LAG_SECONDS };
  if (raw === 'off') return { maxStatusLagSeconds: null };
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0) throw new Error(`${STATUS_AGE_ENV_VAR} must be a whole number of seconds or "off", not "${raw}"`);
  return { maxStatusLagSeconds: seconds };
}

const AVAILABILITY_FEEDS: ReadonlySet<FeedName> = new Set(['station_status', 'vehicle_status']);

/**
 * Whether a document's own timestamps let it replace the stored one: `accept`, `unchanged` (the
 * same `last_updated`: nothing to do), or a stale refusal.
 */
export function judgeStamp(
  feed: FeedName,
  stamp: { last_updated: number; ttl: number },
  previous: FeedStamp | undefined,
  now: number,
  policy: FreshnessPolicy,
): 'accept' | 'unchanged' {
  if (previous && stamp.last_updated < previous.last_updated) {
    throw new FeedRefused('stale', feed, `last_updated ${iso(stamp.last_updated)} is older than the stored ${iso(previous.last_updated)}`);
  }
  if (previous && stamp.last_updated === previous.last_updated) return 'unchanged';
  if (policy.maxStatusLagSeconds !== null && AVAILABILITY_FEEDS.has(feed)) {
    if (stamp.last_updated > now + FUTURE_TOLERANCE_SECONDS) {
      throw new FeedRefused('stale', feed, `last_updated ${iso(stamp.last_updated)} is in the future (now ${iso(now)})`);
    }
    const overrun = now - (stamp.last_updated + stamp.ttl);
    if (overrun > policy.maxStatusLagSeconds) {
      throw new FeedRefused('stale', feed, `last_updated ${iso(stamp.last_updated)} with ttl ${stamp.ttl} s is ${overrun} s overdue (allowed ${policy.maxStatusLagSeconds} s)`);
    }
  }
  return 'accept';
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export interface IngestContext {
  /** The injected clock, Unix seconds. */
  now: number;
  policy: FreshnessPolicy;
  fetch?: typeof fetch;
}

export interface IngestOutcome {
  system_id: string;
  written: boolean;
  accepted: FeedName[];
  unchanged: FeedName[];
  not_due: FeedName[];
  refused: { feed: string; kind: RefusalKind; reason: string }[];
  stations: number;
  vehicles: number;
}

interface Fetched {
  body: unknown;
  /** `Cache-Control: max-age`, for feeds that state no ttl of their own (TfL). */
  maxAge: number | null;
}

async function fetchJson(feed: string, url: string, fetchImpl: typeof fetch): Promise<Fetched> {
  let text: string;
  let cacheControl: string | null;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new FeedRefused('broken', feed, `HTTP ${response.status} from ${url}`);
    cacheControl = response.headers.get('cache-control');
    text = await response.text();
  } catch (error) {
    if (error instanceof FeedRefused) throw error;
    throw new FeedRefused('broken', feed, `fetching ${url} failed: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new FeedRefused('broken', feed, `the body is not valid JSON (${text.length} bytes: truncated?)`);
  }
  const maxAge = /max-age=(\d+)/.exec(cacheControl ?? '')?.[1];
  return { body, maxAge: maxAge === undefined ? null : Number(maxAge) };
}

function checkReadable(feed: FeedName, counts: ReadCounts): void {
  if (counts.total > 0 && counts.invalid / counts.total > MAX_INVALID_SHARE) {
    throw new FeedRefused('partial', feed, `${counts.invalid} of ${counts.total} entries are unreadable`);
  }
}

function checkRetention(feed: FeedName, stations: readonly Station[], previous: readonly Station[]): void {
  if (previous.length >= MIN_STATIONS_FOR_RETENTION_CHECK && stations.length < previous.length / 2) {
    throw new FeedRefused('partial', feed, `${stations.length} stations where the last good snapshot had ${previous.length}`);
  }
}

/** The information half of stored stations, to join with a newer status alone. */
const informationOf = (stations: readonly Station[]): Map<string, StationInformation> =>
  new Map(
    stations.map((s) => [s.station_id, { station_id: s.station_id, name: s.name, lat: s.lat, lon: s.lon, capacity: s.capacity, is_virtual: s.is_virtual, rental_uris: s.rental_uris }]),
  );

/** The status half of stored stations, to join with newer information alone. */
const statusesOf = (stations: readonly Station[]): Map<string, StationStatus> =>
  new Map(
    stations.map((s) => [
      s.station_id,
      {
        is_installed: s.is_installed,
        is_renting: s.is_renting,
        is_returning: s.is_returning,
        last_reported: s.last_reported,
        num_bikes_available: s.num_bikes_available,
        num_bikes_disabled: 0,
        num_ebikes_available: s.num_ebikes_available,
        num_docks_available: s.num_docks_available,
        num_docks_disabled: 0,
        vehicle_types_available: s.vehicle_types_available,
      },
    ]),
  );

/** A system's snapshot before any feed was read: what a first run starts from. */
export function emptySnapshot(target: CitySystem, source: FeedSource): BikeShareSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    system_id: target.system.id,
    city: target.city,
    brand: target.system.name,
    provider: target.system.operator,
    api_type: apiTypeOf(source.adapter),
    written_at: 0,
    discovery: null,
    feeds: {},
    system: null,
    stations: [],
    vehicles: [],
    vehicle_types: [],
    geofencing: null,
    pricing_plans: [],
  };
}

class Run {
  readonly outcome: IngestOutcome;
  readonly fetchImpl: typeof fetch;

  constructor(
    readonly target: CitySystem,
    readonly source: FeedSource,
    readonly previous: BikeShareSnapshot | null,
    readonly context: IngestContext,
  ) {
    this.fetchImpl = context.fetch ?? fetch;
    this.outcome = { system_id: target.system.id, written: false, accepted: [], unchanged: [], not_due: [], refused: [], stations: 0, vehicles: 0 };
  }

  refuse(error: unknown): void {
    if (!(error instanceof FeedRefused)) throw error;
    const refusal = { feed: error.feed, kind: error.kind, reason: error.message };
    this.outcome.refused.push(refusal);
    logger.warn('bike-share feed refused; the last good data stays', { system: this.target.system.id, ...refusal });
  }

  isDue(feed: FeedName, url: string): boolean {
    const stamp = this.previous?.feeds[feed];
    if (!stamp || stamp.url !== url || this.context.now >= stamp.last_updated + stamp.ttl) return true;
    this.outcome.not_due.push(feed);
    return false;
  }

  /** Fetches a due feed and checks its timestamps; null when not due, unchanged or refused. */
  async fetchDocument(feed: FeedName, url: string): Promise<{ document: FeedDocument; stamp: FeedStamp } | null> {
    if (!this.isDue(feed, url)) return null;
    try {
      const document = readFeedDocument(feed, (await fetchJson(feed, url, this.fetchImpl)).body);
      if (judgeStamp(feed, document, this.previous?.feeds[feed], this.context.now, this.context.policy) === 'unchanged') {
        this.outcome.unchanged.push(feed);
        return null;
      }
      const stamp = { last_updated: document.last_updated, ttl: document.ttl, version: document.version, fetched_at: this.context.now, url };
      return { document, stamp };
    } catch (error) {
      this.refuse(error);
      return null;
    }
  }

  accept(next: BikeShareSnapshot, feed: FeedName, stamp: FeedStamp): void {
    next.feeds[feed] = stamp;
    this.outcome.accepted.push(feed);
  }

  async discovery(): Promise<Discovery | null> {
    const known = this.previous?.discovery ?? null;
    if (known && known.url === this.source.url && this.context.now < known.last_updated + known.ttl) return known;
    try {
      let document = readFeedDocument('gbfs', (await fetchJson('gbfs', this.source.url, this.fetchImpl)).body);
      if (isManifest(document)) {
        const url = discoveryUrlFromManifest(document, this.source.gbfsSystemId ?? null);
        document = readFeedDocument('gbfs', (await fetchJson('gbfs', url, this.fetchImpl)).body);
      }
      return {
        url: this.source.url,
        version: document.version,
        feeds: readDiscovery(document, FEED_LANGUAGE),
        last_updated: document.last_updated,
        ttl: document.ttl,
        fetched_at: this.context.now,
      };
    } catch (error) {
      this.refuse(error);
      // The feed URLs last discovered still serve while discovery is down.
      return known && known.url === this.source.url ? known : null;
    }
  }

  async gbfs(): Promise<BikeShareSnapshot | null> {
    const discovery = await this.discovery();
    if (!discovery) return null;
    const { feeds } = discovery;
    const urls: Partial<Record<FeedName, string | undefined>> = {
      system_information: feeds.system_information,
      station_information: feeds.station_information,
      station_status: feeds.station_status,
      vehicle_status: feeds.vehicle_status ?? feeds.free_bike_status,
      vehicle_types: feeds.vehicle_types,
      geofencing_zones: feeds.geofencing_zones,
      system_pricing_plans: feeds.system_pricing_plans,
    };
    const fresh = new Map<FeedName, { document: FeedDocument; stamp: FeedStamp }>();
    await Promise.all(
      (Object.entries(urls) as [FeedName, string | undefined][]).map(async ([feed, url]) => {
        const fetched = url ? await this.fetchDocument(feed, url) : null;
        if (fetched) fresh.set(feed, fetched);
      }),
    );

    const previous = this.previous ?? emptySnapshot(this.target, this.source);
    const next: BikeShareSnapshot = { ...previous, discovery, feeds: { ...previous.feeds } };
    const apply = (feed: FeedName, use: (document: FeedDocument) => void) => {
      const got = fresh.get(feed);
      if (!got) return;
      try {
        use(got.document);
        this.accept(next, feed, got.stamp);
      } catch (error) {
        this.refuse(error);
      }
    };
    apply('system_information', (document) => {
      next.system = readSystemInformation(document, FEED_LANGUAGE);
    });
    apply('vehicle_types', (document) => {
      const read = readVehicleTypes(document, FEED_LANGUAGE);
      checkReadable('vehicle_types', read);
      next.vehicle_types = read.vehicleTypes;
    });
    this.stations(next, fresh.get('station_information'), fresh.get('station_status'));
    apply('vehicle_status', (document) => {
      const read = readVehicles(document, next.vehicle_types);
      checkReadable('vehicle_status', read);
      next.vehicles = read.vehicles;
    });
    apply('geofencing_zones', (document) => {
      const read = readGeofencing(document, FEED_LANGUAGE);
      // Not held to the 10% rule: a zone without a polygon cannot be enforced whatever we do,
      // while refusing the feed would drop every zone that can.
      if (read.invalid) logger.warn('geofencing zones without a usable polygon dropped', { system: this.target.system.id, dropped: read.invalid });
      next.geofencing = read.geofencing;
    });
    apply('system_pricing_plans', (document) => {
      const read = readPricingPlans(document, FEED_LANGUAGE);
      checkReadable('system_pricing_plans', read);
      next.pricing_plans = read.plans;
    });
    return next;
  }

  /** Station information and status are joined; either may be new while the other is kept. */
  stations(
    next: BikeShareSnapshot,
    information: { document: FeedDocument; stamp: FeedStamp } | undefined,
    status: { document: FeedDocument; stamp: FeedStamp } | undefined,
  ): void {
    if (!information && !status) return;
    const blamed: FeedName = status ? 'station_status' : 'station_information';
    try {
      const infoRead = information ? readStationInformation(information.document, FEED_LANGUAGE) : null;
      if (infoRead) checkReadable('station_information', infoRead);
      const statusRead = status ? readStationStatus(status.document) : null;
      if (statusRead) checkReadable('station_status', statusRead);
      const infoMap = infoRead?.stations ?? informationOf(next.stations);
      if (infoMap.size === 0 && !infoRead) throw new FeedRefused('partial', blamed, 'there is no station_information to join it with');
      const lastUpdated = status?.stamp.last_updated ?? next.feeds.station_status?.last_updated ?? information!.stamp.last_updated;
      const joined = joinStations(infoMap, statusRead?.statuses ?? statusesOf(next.stations), next.vehicle_types, lastUpdated);
      if (infoMap.size > 0 && joined.withoutStatus / infoMap.size > 1 - MIN_STATUS_COVERAGE) {
        throw new FeedRefused('partial', blamed, `${joined.withoutStatus} of ${infoMap.size} stations have no status`);
      }
      checkRetention(blamed, joined.stations, next.stations);
      next.stations = joined.stations;
      if (information) this.accept(next, 'station_information', information.stamp);
      if (status) this.accept(next, 'station_status', status.stamp);
    } catch (error) {
      this.refuse(error);
    }
  }

  async bikePoint(): Promise<BikeShareSnapshot | null> {
    if (!this.isDue('station_status', this.source.url)) return null;
    const previous = this.previous ?? emptySnapshot(this.target, this.source);
    try {
      const fetched = await fetchJson('station_status', this.source.url, this.fetchImpl);
      const read = readBikePoints(fetched.body);
      const stamp: FeedStamp = { last_updated: read.last_updated, ttl: fetched.maxAge ?? 0, version: 'tfl', fetched_at: this.context.now, url: this.source.url };
      if (judgeStamp('station_status', stamp, previous.feeds.station_status, this.context.now, this.context.policy) === 'unchanged') {
        this.outcome.unchanged.push('station_status');
        return null;
      }
      checkReadable('station_status', read);
      checkRetention('station_status', read.stations, previous.stations);
      const next: BikeShareSnapshot = { ...previous, feeds: { ...previous.feeds }, stations: read.stations };
      // One document carries both halves of every station.
      this.accept(next, 'station_information', stamp);
      this.accept(next, 'station_status', stamp);
      return next;
    } catch (error) {
      this.refuse(error);
      return null;
    }
  }
}

/** Fetches, checks and stores one system; feed problems are logged and reported, never thrown. */
export async function ingestSystem(target: CitySystem, source: FeedSource, context: IngestContext): Promise<IngestOutcome> {
  const stored = await readSnapshot(target.system.id);
  const previous = stored && stored !== 'unchanged' ? stored.snapshot : null;
  const run = new Run(target, source, previous, context);
  const next = source.adapter === 'tfl-bikepoint' ? await run.bikePoint() : await run.gbfs();
  const outcome = run.outcome;
  if (next && outcome.accepted.length > 0) {
    next.written_at = context.now;
    outcome.written = (await writeSnapshot(next)) === 'written';
  }
  const current = outcome.written ? next : previous;
  outcome.stations = current?.stations.length ?? 0;
  outcome.vehicles = current?.vehicles.length ?? 0;
  logger.info('bike-share ingestion', {
    system: target.system.id,
    written: outcome.written,
    accepted: outcome.accepted,
    unchanged: outcome.unchanged,
    notDue: outcome.not_due,
    refused: outcome.refused.map((refusal) => `${refusal.feed}: ${refusal.kind}`),
    stations: outcome.stations,
    vehicles: outcome.vehicles,
  });
  return outcome;
}
